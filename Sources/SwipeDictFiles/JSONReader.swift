import SwipeDictFormat

/// The package's one JSON reader: swipe files (one line at a time) and layout files.
///
/// It parses by hand rather than through Foundation so that every value and every error
/// carries its byte offset in the input (``position(of:in:)`` turns one into a line and a
/// byte column, as word-list errors count), numbers keep their exact value checks, and the
/// tokens `NaN`, `Infinity` and `-Infinity` (which Python's `json.dumps` writes for
/// non-finite floats) are either recognised as non-finite numbers (swipe files, which report
/// them as such) or refused by name (``Options/allowsNonFiniteTokens`` off, the default).
/// It is also faster: on 10,000 swipes (7.2 MB, `synth --sample 10000 --seed 3` from a
/// 20,000-word English blob) it parses the file in 0.24–0.26 s where `JSONSerialization`
/// takes 0.80–0.93 s and `JSONDecoder` 0.92–1.35 s (best of 5 in each of two runs, release
/// build, Linux, 2 shared cores; `bench/swipe-json/main.swift` says how to run it).
///
/// Untrusted input is bounded: arrays and objects nest at most ``Options/maxDepth`` levels
/// (the recursion, and the values' deallocation, stay shallow) and inputs longer than
/// ``Options/maxBytes`` are refused before any parsing. Objects keep their members in the
/// order written, duplicates included: the caller decides what a repeated key means.
package struct JSONReader {
  /// A JSON value and the byte offset in the input where it starts.
  package struct Value: Sendable {
    /// What the value is.
    package enum Kind: Sendable {
      case null
      case bool(Bool)
      /// A number; `NaN`/`Infinity` tokens and overflowing literals give non-finite values.
      case number(Double)
      case string(String)
      case array([Value])
      /// An object's members in the order written (duplicates kept).
      case object([(key: String, value: Value)])
    }

    package var kind: Kind
    /// The 0-based byte offset in the input of the value's first byte.
    package var offset: Int

    /// A short name of the value's kind and, for scalars, the value: `the string "x"`.
    package var summary: String {
      switch kind {
      case .null: "null"
      case .bool(let b): b ? "true" : "false"
      case .number(let d): "the number \(d)"
      case .string(let s): "the string \"\(s.count > 20 ? s.prefix(20) + "…" : Substring(s))\""
      case .array: "an array"
      case .object: "an object"
      }
    }
  }

  /// What the reader accepts and how its messages name the end of the input.
  package struct Options: Sendable {
    /// How deep arrays and objects may nest (the top-level value is depth 0). Swipes need
    /// 3 levels and layouts 3 (more for notes); the bound keeps the recursion small on
    /// hostile input.
    package var maxDepth = 32
    /// The longest input, in bytes, the reader parses.
    package var maxBytes = Int.max
    /// Whether `NaN`, `Infinity` and `-Infinity` are read as numbers (a common extension,
    /// not JSON) rather than refused.
    package var allowsNonFiniteTokens = false
    /// The end of the input in messages: "the end of the line" for one line of a file.
    package var endOfInput = "the end of the input"

    /// The default: strict JSON, 32 levels, any length.
    package init() {}
  }

  /// Why the input is not JSON, and the 0-based byte offset where the reader stopped.
  package struct Failure: Error, Sendable {
    package var message: String
    package var offset: Int
  }

  private let bytes: [UInt8]
  private let options: Options
  private var index = 0

  private init(_ bytes: [UInt8], options: Options) {
    self.bytes = bytes
    self.options = options
  }

  /// Parses `bytes` as exactly one JSON value, with only whitespace around it.
  /// - Parameters:
  ///   - bytes: UTF-8 text (strings that are not valid UTF-8 are refused).
  ///   - options: limits and extensions.
  /// - Returns: the value, with byte offsets into `bytes`.
  /// - Throws: ``Failure`` at the first byte that is not JSON, or over a limit.
  package static func parse(_ bytes: [UInt8], options: Options = Options()) throws(Failure)
    -> Value
  {
    guard bytes.count <= options.maxBytes else {
      throw Failure(
        message: "the input is \(bytes.count) bytes, over the limit of \(options.maxBytes)",
        offset: options.maxBytes)
    }
    var reader = JSONReader(bytes, options: options)
    reader.skipWhitespace()
    let value = try reader.parseValue(depth: 0)
    reader.skipWhitespace()
    if reader.index < bytes.count {
      throw reader.failure("unexpected \(reader.found) after the JSON value")
    }
    return value
  }

  /// The 1-based line and byte column of `offset` in `bytes` (lines end at `\n`; an offset
  /// past the end is the position just after the last byte).
  /// - Complexity: O(`offset`): meant for error paths.
  package static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    let end = min(max(0, offset), bytes.count)
    var line = 1
    var lineStart = 0
    for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
      line += 1
      lineStart = i + 1
    }
    return (line, end - lineStart + 1)
  }

  // MARK: - Values

  private mutating func parseValue(depth: Int) throws(Failure) -> Value {
    guard depth < options.maxDepth else {
      throw failure("arrays and objects nest too deeply (more than \(options.maxDepth) levels)")
    }
    let offset = index
    guard let byte = peek() else {
      throw failure("expected a value, found \(options.endOfInput)")
    }
    switch byte {
    case UInt8(ascii: "{"): return Value(kind: try parseObject(depth: depth), offset: offset)
    case UInt8(ascii: "["): return Value(kind: try parseArray(depth: depth), offset: offset)
    case UInt8(ascii: "\""): return Value(kind: .string(try parseString()), offset: offset)
    case UInt8(ascii: "t"):
      try expect("true")
      return Value(kind: .bool(true), offset: offset)
    case UInt8(ascii: "f"):
      try expect("false")
      return Value(kind: .bool(false), offset: offset)
    case UInt8(ascii: "n"):
      try expect("null")
      return Value(kind: .null, offset: offset)
    case UInt8(ascii: "N"):
      try expectNonFinite("NaN")
      return Value(kind: .number(.nan), offset: offset)
    case UInt8(ascii: "I"):
      try expectNonFinite("Infinity")
      return Value(kind: .number(.infinity), offset: offset)
    case UInt8(ascii: "-") where peek(at: 1) == UInt8(ascii: "I"):
      try expectNonFinite("-Infinity")
      return Value(kind: .number(-.infinity), offset: offset)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return Value(kind: .number(try parseNumber()), offset: offset)
    default:
      throw failure("expected a value, found \(found)")
    }
  }

  private mutating func parseObject(depth: Int) throws(Failure) -> Value.Kind {
    index += 1  // {
    var members: [(key: String, value: Value)] = []
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

  private mutating func parseArray(depth: Int) throws(Failure) -> Value.Kind {
    index += 1  // [
    var items: [Value] = []
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
    let start = index
    index += 1  // "
    var out: [UInt8] = []
    while let byte = peek() {
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        guard let text = String(validatingUTF8: out) else {
          index = start
          throw failure("a string is not UTF-8")
        }
        return text
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
    throw failure("a string is not closed before \(options.endOfInput)")
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

  /// Skips JSON's whitespace: space, tab, line feed, carriage return.
  private mutating func skipWhitespace() {
    while let byte = peek(),
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
        || byte == UInt8(ascii: "\r")
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

  /// `NaN`, `Infinity` or `-Infinity`: read when the options allow them, refused by name
  /// (at their first byte) when they do not.
  private mutating func expectNonFinite(_ word: String) throws(Failure) {
    let start = index
    try expect(word)
    guard options.allowsNonFiniteTokens else {
      index = start
      throw failure("\(word) is not JSON: numbers must be finite")
    }
  }

  private func failure(_ message: String) -> Failure {
    Failure(message: message, offset: index)
  }

  /// The byte at the current position, for messages: `'x'` or `the end of the line`.
  private var found: String {
    guard let byte = peek() else { return options.endOfInput }
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
