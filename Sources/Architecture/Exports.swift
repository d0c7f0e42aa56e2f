// A TCA 1.x app got Foundation through `import SwiftUI`, which does not exist on Linux, and its
// files use `UUID`, `Date` and `URL` without importing it. `import Architecture` brings
// Foundation along, so that such a file ports by changing its import alone.
@_exported import Foundation
