/// A JSON value read from one line of a swipe file, with the byte column it starts at.
///
/// The swipe reader parses JSON by hand rather than through `JSONSerialization` so that
/// every error carries a column, numbers keep their exact value checks, and the tokens
/// `NaN`, `Infinity` and `-Infinity` (which Python's `json.dumps` writes for non-finite
/// floats) are recognised and reported as non-finite numbers rather than as broken JSON.
/// It is also faster: on 10,000 swipes (7.2 MB, `synth --sample 10000 --seed 3` from a
/// 20,000-word English blob) it parses the file in 0.24–0.26 s where `JSONSerialization`
/// takes 0.80–0.93 s and `JSONDecoder` 0.92–1.35 s (best of 5 in each of two runs, release
/// build, Linux, 2 shared cores; `bench/swipe-json/main.swift` says how to run it).
struct LineJSON {
  enum Value {
    case null
    case bool(Bool)
    /// A number; `NaN`/`Infinity` tokens and overflowing literals give non-finite values.
    case number(Double)
    case string(String)
    case array([LineJSON])
    /// An object's members in the order written (duplicates kept).
    case object([(key: String, value: LineJSON)])
  }

  var value: Value
  /// The 1-based byte column where the value starts.
  var column: Int

  /// A short name of the value's kind and, for scalars, the value: `the string "x"`.
  var summary: String {
    switch value {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .number(let d): "the number \(d)"
    case .string(let s): "the string \"\(s.count > 20 ? s.prefix(20) + "…" : Substring(s))\""
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// A recursive-descent parser for one line of JSON (RFC 8259, plus the non-finite tokens).
struct LineJSONParser {
  /// Why a line is not JSON, and the 1-based byte column where the parser stopped.
  struct Failure: Error {
    var message: String
    var column: Int
  }

  /// How deep arrays and objects may nest: swipes need 3 levels; the bound keeps the
  /// recursion small on hostile input.
  static let maxDepth = 32

  private let bytes: [UInt8]
  private var index = 0

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Parses `bytes` as exactly one JSON value, with only whitespace around it.
  static func parse(_ bytes: [UInt8]) throws(Failure) -> LineJSON {
    var parser = LineJSONParser(bytes)
    parser.skipWhitespace()
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    if parser.index < bytes.count {
      throw parser.failure("unexpected \(parser.found) after the JSON value")
    }
    return value
  }

  // MARK: - Values

  private mutating func parseValue(depth: Int) throws(Failure) -> LineJSON {
    guard depth < Self.maxDepth else { throw failure("arrays and objects nest too deeply") }
    let column = index + 1
    guard let byte = peek() else { throw failure("expected a value, found the end of the line") }
    switch byte {
    case UInt8(ascii: "{"): return LineJSON(value: try parseObject(depth: depth), column: column)
    case UInt8(ascii: "["): return LineJSON(value: try parseArray(depth: depth), column: column)
    case UInt8(ascii: "\""): return LineJSON(value: .string(try parseString()), column: column)
    case UInt8(ascii: "t"):
      try expect("true")
      return LineJSON(value: .bool(true), column: column)
    case UInt8(ascii: "f"):
      try expect("false")
      return LineJSON(value: .bool(false), column: column)
    case UInt8(ascii: "n"):
      try expect("null")
      return LineJSON(value: .null, column: column)
    case UInt8(ascii: "N"):
      try expect("NaN")
      return LineJSON(value: .number(.nan), column: column)
    case UInt8(ascii: "I"):
      try expect("Infinity")
      return LineJSON(value: .number(.infinity), column: column)
    case UInt8(ascii: "-") where peek(at: 1) == UInt8(ascii: "I"):
      try expect("-Infinity")
      return LineJSON(value: .number(-.infinity), column: column)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return LineJSON(value: .number(try parseNumber()), column: column)
    default:
      throw failure("expected a value, found \(found)")
    }
  }

  private mutating func parseObject(depth: Int) throws(Failure) -> LineJSON.Value {
    index += 1  // {
    var members: [(key: String, value: LineJSON)] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else {
        throw failure("expected a key in double quotes, found \(found)")
      }
      let key = try parseString()
      skipWhitespace()
      guard peek() == UInt8(ascii: ":") else {
        throw failure("expected ':' after a key, found \(found)")
      }
      index += 1
      skipWhitespace()
      members.append((key, try parseValue(depth: depth + 1)))
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default: throw failure("expected ',' or '}' in an object, found \(found)")
      }
    }
  }

  private mutating func parseArray(depth: Int) throws(Failure) -> LineJSON.Value {
    index += 1  // [
    var items: [LineJSON] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      skipWhitespace()
      items.append(try parseValue(depth: depth + 1))
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(items)
      default: throw failure("expected ',' or ']' in an array, found \(found)")
      }
    }
  }

  private mutating func parseString() throws(Failure) -> String {
    index += 1  // "
    var out: [UInt8] = []
    while let byte = peek() {
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: out, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard let escape = peek() else { break }
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          let scalar = try parseUnicodeEscape()
          out.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
          index -= 2  // point at the backslash
          throw failure("unknown escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
        }
      case 0..<0x20:
        index -= 1
        throw failure("control character U+\(hex4(UInt32(byte))) in a string (write it escaped)")
      default:
        out.append(byte)
      }
    }
    throw failure("a string is not closed before the end of the line")
  }

  /// After `\u`: four hex digits, or a surrogate pair written as two escapes.
  private mutating func parseUnicodeEscape() throws(Failure) -> Unicode.Scalar {
    let high = try parseHex4()
    if (0xD800..<0xDC00).contains(high) {
      guard peek() == UInt8(ascii: "\\"), peek(at: 1) == UInt8(ascii: "u") else {
        throw failure("unpaired surrogate \\u\(hex4(high)) in a string")
      }
      index += 2
      let low = try parseHex4()
      guard (0xDC00..<0xE000).contains(low) else {
        throw failure("unpaired surrogate \\u\(hex4(high)) in a string")
      }
      // safe: a surrogate pair always gives a scalar in U+10000…U+10FFFF.
      return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
    }
    guard let scalar = Unicode.Scalar(high) else {
      throw failure("unpaired surrogate \\u\(hex4(high)) in a string")
    }
    return scalar
  }

  private mutating func parseHex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = peek(), let digit = Self.hexValue(byte) else {
        throw failure("expected four hex digits after \\u, found \(found)")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private mutating func parseNumber() throws(Failure) -> Double {
    let start = index
    if peek() == UInt8(ascii: "-") { index += 1 }
    guard let first = peek(), Self.isDigit(first) else {
      throw failure("expected a digit in a number, found \(found)")
    }
    index += 1
    if first != UInt8(ascii: "0") { skipDigits() }
    if peek() == UInt8(ascii: ".") {
      index += 1
      guard let digit = peek(), Self.isDigit(digit) else {
        throw failure("expected a digit after '.' in a number, found \(found)")
      }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      guard let digit = peek(), Self.isDigit(digit) else {
        throw failure("expected a digit in a number's exponent, found \(found)")
      }
      skipDigits()
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    // The text matched JSON's number grammar, which `Double(_:)` accepts; a literal too
    // large for a Double becomes ±infinity and is reported by the caller.
    return Double(text) ?? .nan
  }

  // MARK: - Bytes

  private func peek(at offset: Int = 0) -> UInt8? {
    index + offset < bytes.count ? bytes[index + offset] : nil
  }

  private mutating func skipWhitespace() {
    while let byte = peek(),
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    {
      index += 1
    }
  }

  private mutating func skipDigits() {
    while let byte = peek(), Self.isDigit(byte) { index += 1 }
  }

  private mutating func expect(_ word: String) throws(Failure) {
    for expected in word.utf8 {
      guard peek() == expected else {
        throw failure("expected a value, found \(found)")
      }
      index += 1
    }
  }

  private func failure(_ message: String) -> Failure {
    Failure(message: message, column: index + 1)
  }

  /// The byte at the current position, for messages: `'x'` or `the end of the line`.
  private var found: String {
    guard let byte = peek() else { return "the end of the line" }
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(String(byte, radix: 16, uppercase: true))"
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  private func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
