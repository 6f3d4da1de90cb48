import ArgumentParser

/// Checks a numeric option against its allowed range, so that no value reaches a conversion
/// that traps or an allocation that runs away.
/// - Parameters:
///   - option: the option's name as typed (`--rate`).
///   - value: the value given.
///   - range: the allowed values.
///   - unit: the unit to name after the range (`Hz`), or empty.
/// - Throws: a `ValidationError` (exit 64) that names the option, the range and the value,
///   when `value` is not a finite number in `range`.
package func checkRange(_ option: String, _ value: Double, in range: ClosedRange<Double>, unit: String = "")
  throws
{
  guard value.isFinite, range.contains(value) else {
    throw ValidationError(
      "\(option) must be from \(plainNumber(range.lowerBound)) to \(plainNumber(range.upperBound))"
        + "\(unit.isEmpty ? "" : " \(unit)"), not \(value)")
  }
}

/// Checks an integer option against its allowed range.
/// - Throws: a `ValidationError` (exit 64) that names the option, the range and the value.
package func checkRange(_ option: String, _ value: Int, in range: ClosedRange<Int>) throws {
  guard range.contains(value) else {
    throw ValidationError(
      "\(option) must be from \(grouped(range.lowerBound)) to \(grouped(range.upperBound)), "
        + "not \(value)")
  }
}

/// `10` for 10.0, `0.1` for 0.1: a range bound as people write it.
private func plainNumber(_ value: Double) -> String {
  value == value.rounded() && value.magnitude < 1e15 ? String(Int(value)) : String(value)
}
