/// A tiny benchmark harness: medians over several runs, each figure compared with a baseline
/// measured in the same run, printed as a table.
///
/// The machines are shared and noisy, so a ratio to a baseline measured moments earlier means
/// more than an absolute time.
struct Harness {
  /// How many times each measurement is repeated; the median is reported.
  var runs: Int

  /// One measured figure: the median and spread of the time per operation.
  struct Figure {
    var nanosecondsPerOperation: [Double]

    var median: Double {
      let sorted = nanosecondsPerOperation.sorted()
      let middle = sorted.count / 2
      return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
    var minimum: Double { nanosecondsPerOperation.min() ?? 0 }
    var maximum: Double { nanosecondsPerOperation.max() ?? 0 }
  }

  /// Times `operations` calls of `body`, `runs` times over, after one warm-up run.
  ///
  /// `setUp` runs before every run, outside the timing, and its result is passed to `body`.
  func measure<Context>(
    operations: Int,
    setUp: () -> Context,
    _ body: (inout Context, Int) -> Void
  ) -> Figure {
    var samples: [Double] = []
    for run in 0...runs {
      var context = setUp()
      let clock = ContinuousClock()
      let start = clock.now
      for index in 0..<operations { body(&context, index) }
      let elapsed = clock.now - start
      withExtendedLifetime(context) {}
      if run > 0 { samples.append(elapsed.nanoseconds / Double(operations)) }
    }
    return Figure(nanosecondsPerOperation: samples)
  }
}

/// A printed table of figures, each row compared with a named baseline row.
struct Table {
  struct Row {
    var name: String
    var figure: Harness.Figure
    var baseline: String?
    var unit: Unit
  }

  enum Unit {
    case time
    case bytes
  }

  var title: String
  var rows: [Row] = []

  mutating func add(
    _ name: String, _ figure: Harness.Figure, baseline: String? = nil, unit: Unit = .time
  ) {
    rows.append(Row(name: name, figure: figure, baseline: baseline, unit: unit))
  }

  func figure(named name: String) -> Harness.Figure? {
    rows.first { $0.name == name }?.figure
  }

  func render() -> String {
    var lines = ["## \(title)", ""]
    lines.append("| case | median | min … max | vs baseline |")
    lines.append("|---|---:|---:|---|")
    for row in rows {
      let ratio: String
      if let baseline = row.baseline, let base = figure(named: baseline), base.median > 0 {
        // A ratio far below 1 (a target of 0.05×) needs more than two decimals to show.
        let value = row.figure.median / base.median
        ratio = "\(format(value, digits: value < 0.1 ? 4 : 2))× \(baseline)"
      } else {
        ratio = "baseline"
      }
      lines.append(
        "| \(row.name) | \(show(row.figure.median, row.unit)) | "
          + "\(show(row.figure.minimum, row.unit)) … \(show(row.figure.maximum, row.unit)) | "
          + "\(ratio) |"
      )
    }
    return lines.joined(separator: "\n")
  }

  private func show(_ value: Double, _ unit: Unit) -> String {
    switch unit {
    case .bytes:
      return "\(format(value, digits: 0)) B"
    case .time:
      if value < 1_000 { return "\(format(value, digits: 1)) ns" }
      if value < 1_000_000 { return "\(format(value / 1_000, digits: 2)) µs" }
      if value < 1_000_000_000 { return "\(format(value / 1_000_000, digits: 2)) ms" }
      return "\(format(value / 1_000_000_000, digits: 2)) s"
    }
  }
}

func format(_ value: Double, digits: Int) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  if digits == 0 { return "\(Int(rounded))" }
  var text = "\(rounded)"
  if let dot = text.firstIndex(of: ".") {
    let decimals = text.distance(from: dot, to: text.endIndex) - 1
    if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
  }
  return text
}

extension Duration {
  var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}
