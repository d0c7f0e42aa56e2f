/// A count and its noun, agreeing: `counted(1, "step")` is "1 step", and 2 gives "2 steps".
///
/// Every count the tool prints goes through it, so none reads "1 keyframes" or "2 change(s)".
/// A noun whose plural is not its singular plus "s" gives it: `counted(n, "entry", "entries")`.
package func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
  "\(count) " + noun(count, singular, plural)
}

/// The noun alone, agreeing with `count`, for a sentence that places the count itself.
package func noun(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
  count == 1 ? singular : plural ?? singular + "s"
}

/// The verb agreeing with `count`'s subject: "differs" for one, "differ" for more.
package func verb(_ count: Int, _ singular: String, _ plural: String) -> String {
  count == 1 ? singular : plural
}
