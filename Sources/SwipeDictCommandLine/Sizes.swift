import ArgumentParser

/// The largest size `parseSize` accepts: 1 TB (2^40 bytes), far beyond any blob or device.
package let maxSize = 1 << 40

/// `48MB` → 50331648. Units: B, KB, MB, GB (binary multiples), or none. `nil` unless the
/// size is a finite number of bytes from 0 to ``maxSize`` (never traps: `infMB`, `nan`,
/// `1e300GB` are `nil`).
package func parseSize(_ text: String) -> Int? {
  let upper = text.uppercased()
  let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
  var number = Substring(upper)
  var factor = 1
  if let unit = units.first(where: { upper.hasSuffix($0.0) }) {
    number = upper.dropLast(unit.0.count)
    factor = unit.1
  }
  // Decimal digits only, with a fraction only before a unit larger than a byte: `Double`
  // alone would read 0x10 (hex), 1e3, inf, or a byte count of 1.5.
  let parts = number.split(separator: ".", omittingEmptySubsequences: false)
  guard (1...2).contains(parts.count),
    parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
    parts.count == 1 || factor > 1, let n = Double(number)
  else { return nil }
  let bytes = (n * Double(factor)).rounded(.down)
  guard bytes <= Double(maxSize) else { return nil }
  return Int(bytes)
}

/// Checks a size option: a size `parseSize` reads, of at least one byte.
package func validateSize(_ text: String, option: String) throws {
  guard let bytes = parseSize(text) else {
    throw ValidationError(
      "\(option) '\(text)': not a size such as 48MB, 512KB or 1000000 (1 byte to 1024GB)")
  }
  guard bytes >= 1 else { throw ValidationError("\(option) '\(text)': must be at least 1 byte") }
}

package func printError(_ message: String, terminator: String) {
  var stream = StandardError()
  print(message, terminator: terminator, to: &stream)
}

extension String {
  package func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
