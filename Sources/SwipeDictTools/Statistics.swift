/// The statistics the command-line tool, the benchmarks and the tests share: one quantile,
/// one rounding rule and one fixed-decimal formatter, so that every figure the tools print
/// is computed the same way.

/// The `q` quantile of ascending `sorted` values, by nearest rank: the smallest value with
/// at least `q` of the values at or below it (`q = 0.5` is the lower median of an even count).
/// - Parameters:
///   - sorted: the values, ascending.
///   - q: the quantile, `0...1` (clamped; NaN counts as 0).
/// - Returns: the value; 0 when `sorted` is empty.
package func quantile(_ sorted: [Double], _ q: Double) -> Double {
  guard !sorted.isEmpty else { return 0 }
  let fraction = q.isNaN ? 0 : min(1, max(0, q))
  let rank = Int((fraction * Double(sorted.count)).rounded(.up))  // 0...count: fits Int
  return sorted[min(sorted.count, max(1, rank)) - 1]
}

/// `value` rounded to `places` decimals (half away from zero), never `-0`.
///
/// `k / 10^places` is the double nearest to the decimal, so it prints as that decimal.
/// - Parameters:
///   - value: the value; non-finite values are returned as they are.
///   - places: decimals, `0...15`.
/// - Returns: the rounded value.
package func rounded(_ value: Double, places: Int) -> Double {
  guard value.isFinite else { return value }
  var scale = 1.0
  for _ in 0..<min(15, max(0, places)) { scale *= 10 }
  let scaled = value * scale
  // A value this large has no digits after the decimal point to round.
  guard scaled.magnitude < 0x1p52 else { return value }
  let result = scaled.rounded() / scale
  return result == 0 ? 0 : result
}

/// A number as text with exactly `places` decimals (`-0.5` → `-0.50`, never `-0.00`),
/// deterministic on every platform. Values beyond ±10¹² are written as ±10¹², and
/// non-finite values as 0, so that damaged input still gives finite text.
/// - Parameters:
///   - value: the value.
///   - places: decimals, `1...6`.
/// - Returns: the text.
package func fixedDecimal(_ value: Double, places: Int) -> String {
  let places = min(6, max(1, places))
  var factor: UInt = 1
  for _ in 0..<places { factor *= 10 }
  let bounded = value.isFinite ? min(max(value, -1e12), 1e12) : 0
  let scaled = Int((bounded * Double(factor)).rounded())  // |scaled| ≤ 10^18: fits Int
  let magnitude = scaled.magnitude
  let fraction = String(magnitude % factor)
  let padded = String(repeating: "0", count: places - fraction.count) + fraction
  return "\(scaled < 0 ? "-" : "")\(magnitude / factor).\(padded)"
}

/// The Wilson score interval of a proportion: `successes` of `trials`, at `z` standard
/// errors (1.96: 95 %), as fractions. Sound at 0 and at `trials` successes, unlike the
/// normal approximation. `(0, 1)` for no trials.
package func wilsonInterval(successes: Int, trials: Int, z: Double = 1.96) -> (low: Double, high: Double) {
  guard trials > 0 else { return (0, 1) }
  let n = Double(trials)
  let p = Double(min(max(successes, 0), trials)) / n
  let zz = z * z
  let center = (p + zz / (2 * n)) / (1 + zz / n)
  let half = z * (p * (1 - p) / n + zz / (4 * n * n)).squareRoot() / (1 + zz / n)
  return (max(0, center - half), min(1, center + half))
}
