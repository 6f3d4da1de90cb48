/// Parses counts: a non-negative integer or decimal such as `42` or `12.5`, at most 2^53.
///
/// Grammar: `digit+ ('.' digit+)?`. No sign, exponent, digit separators or surrounding
/// spaces. Integers are converted exactly; decimals are rounded to the nearest `Double`.
enum CountField {
  /// 2^53, the largest count accepted: every integer up to it is exact in a `Double`.
  static let maximum: UInt64 = 1 << 53

  /// Parses one count field.
  /// - Parameters:
  ///   - field: the bytes of the count, not empty.
  ///   - name: how messages name the field: "count" or "frequency".
  ///   - hint: what a valid count looks like in this format.
  /// - Returns: the count.
  /// - Throws: ``LineProblem`` at the start of the field: negative, not a number, too large.
  static func parse(
    _ field: ArraySlice<UInt8>, name: String, hint: String
  ) throws(LineProblem) -> Double {
    let start = field.startIndex
    let end = field.endIndex
    var index = start
    var integer: UInt64 = 0
    var tooLarge = false
    while index < end, let digit = digitValue(field[index]) {
      if !tooLarge {
        integer = integer * 10 + digit  // cannot overflow: integer <= 2^53 before this step
        tooLarge = integer > maximum
      }
      index += 1
    }
    let integerDigits = index - start
    var fractionDigits = 0
    var fractionIsEmpty = false
    if index < end && field[index] == UInt8(ascii: ".") {
      index += 1
      while index < end, digitValue(field[index]) != nil {
        index += 1
        fractionDigits += 1
      }
      fractionIsEmpty = fractionDigits == 0
    }
    guard integerDigits > 0, index == end, !fractionIsEmpty else {
      let text = LineText.excerpt(field)
      if field[start] == UInt8(ascii: "-") && field.count > 1 {
        throw LineProblem(
          reason: .negativeCount, index: start, message: "\(name) \"\(text)\" is negative",
          hint: hint)
      }
      throw LineProblem(
        reason: .invalidCount, index: start, message: "\(name) \"\(text)\" is not a number",
        hint: hint)
    }
    if tooLarge { throw tooLargeProblem(name, field) }
    if fractionDigits == 0 { return Double(integer) }
    // Decimals are rarer: let the standard library round them correctly.
    guard let value = Double(String(decoding: field, as: UTF8.self)) else {
      throw LineProblem(
        reason: .invalidCount, index: start,
        message: "\(name) \"\(LineText.excerpt(field))\" is not a number", hint: hint)
    }
    if value > Double(maximum) { throw tooLargeProblem(name, field) }
    return value
  }

  @inline(__always)
  private static func digitValue(_ byte: UInt8) -> UInt64? {
    byte >= 0x30 && byte <= 0x39 ? UInt64(byte &- 0x30) : nil
  }

  private static func tooLargeProblem(_ name: String, _ field: ArraySlice<UInt8>) -> LineProblem {
    LineProblem(
      reason: .countTooLarge, index: field.startIndex,
      message: "\(name) \"\(LineText.excerpt(field))\" is larger than 2^53 (9007199254740992)",
      hint: "counts must be at most 2^53; scale the counts of the whole list down")
  }
}
