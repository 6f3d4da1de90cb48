/// A problem on one line, before the parser adds the file and line number.
struct LineProblem: Error {
  var reason: WordListError.Reason
  /// The index of the offending byte in the line's storage, or the line's `endIndex` for
  /// something missing at the end. The parser turns it into a column.
  var index: Int
  var message: String
  var hint: String
}

/// Byte-level checks on one line: UTF-8, control characters and whitespace.
///
/// Lines are `ArraySlice<UInt8>` views of the read buffer; nothing here copies or decodes
/// into `String`.
enum LineText {
  static let space: UInt8 = 0x20
  static let tab: UInt8 = 0x09

  /// Whether a byte is an ASCII space or TAB, the separators of counted and AOSP lines.
  @inline(__always)
  static func isSpaceOrTab(_ byte: UInt8) -> Bool { byte == space || byte == tab }

  /// Whether a line has nothing but spaces and TABs.
  static func isBlank(_ line: ArraySlice<UInt8>) -> Bool { line.allSatisfy(isSpaceOrTab) }

  /// The line without trailing spaces (not TABs: a trailing TAB starts a column).
  static func trimmingTrailingSpaces(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var end = line.endIndex
    while end > line.startIndex && line[end - 1] == space { end -= 1 }
    return line[line.startIndex..<end]
  }

  /// Checks that a line is UTF-8 without control characters other than TAB.
  ///
  /// Rejects malformed, overlong and surrogate sequences, scalars above U+10FFFF, NUL, the
  /// other C0 controls (CR included: it may only end a line), DEL and the C1 controls.
  /// - Parameter line: the line, without its line ending.
  /// - Returns: whether the line is plain ASCII.
  /// - Throws: ``LineProblem`` at the first bad byte (the first byte of a bad sequence).
  static func check(_ line: ArraySlice<UInt8>) throws(LineProblem) -> Bool {
    var index = line.startIndex
    let end = line.endIndex
    var isASCII = true
    while index < end {
      let byte = line[index]
      if byte < 0x80 {
        if (byte < 0x20 && byte != tab) || byte == 0x7F { throw control(UInt32(byte), at: index) }
        index += 1
        continue
      }
      isASCII = false
      let length: Int
      var scalar: UInt32
      switch byte {
      case 0xC2...0xDF: (length, scalar) = (2, UInt32(byte & 0x1F))
      case 0xE0...0xEF: (length, scalar) = (3, UInt32(byte & 0x0F))
      case 0xF0...0xF4: (length, scalar) = (4, UInt32(byte & 0x07))
      case 0x80...0xBF:
        throw invalidUTF8("unexpected continuation byte \(hex(byte))", at: index)
      default:
        throw invalidUTF8("byte \(hex(byte)) never appears in UTF-8", at: index)
      }
      guard end - index >= length else {
        throw invalidUTF8("the sequence starting with \(hex(byte)) is cut short", at: index)
      }
      for offset in 1..<length {
        let next = line[index + offset]
        guard next & 0xC0 == 0x80 else {
          throw invalidUTF8("the sequence starting with \(hex(byte)) is cut short", at: index)
        }
        scalar = scalar << 6 | UInt32(next & 0x3F)
      }
      let valid: Bool
      switch length {
      case 2: valid = true  // C2...DF cannot be overlong
      case 3: valid = scalar >= 0x800 && !(0xD800...0xDFFF).contains(scalar)
      default: valid = scalar >= 0x1_0000 && scalar <= 0x10_FFFF
      }
      guard valid else {
        throw invalidUTF8(
          "overlong, surrogate or out-of-range sequence starting with \(hex(byte))", at: index)
      }
      if scalar < 0xA0 { throw control(scalar, at: index) }  // C1 controls U+0080...U+009F
      index += length
    }
    return isASCII
  }

  /// The first whitespace character in valid UTF-8 bytes: a space or TAB, or, when
  /// `isASCII` is false, any other Unicode White_Space scalar (U+00A0, U+3000, …).
  /// - Returns: its index and scalar value, or `nil`.
  static func firstWhitespace(
    in bytes: ArraySlice<UInt8>, isASCII: Bool
  ) -> (index: Int, scalar: UInt32)? {
    if isASCII {
      guard let index = bytes.firstIndex(where: isSpaceOrTab) else { return nil }
      return (index, UInt32(bytes[index]))
    }
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte < 0x80 {
        if isSpaceOrTab(byte) { return (index, UInt32(byte)) }
        index += 1
        continue
      }
      // The bytes were checked by `check(_:)`: the sequence is complete and valid.
      let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
      var scalar = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
      for offset in 1..<length { scalar = scalar << 6 | UInt32(bytes[index + offset] & 0x3F) }
      if isUnicodeWhitespace(scalar) { return (index, scalar) }
      index += length
    }
    return nil
  }

  /// Whether a scalar at or above U+0080 has the Unicode White_Space property.
  static func isUnicodeWhitespace(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
    default: false
    }
  }

  /// Names a whitespace character for a message: "a space", "a TAB" or "whitespace U+00A0".
  static func describeWhitespace(_ scalar: UInt32) -> String {
    switch scalar {
    case UInt32(space): "a space"
    case UInt32(tab): "a TAB"
    default: "whitespace \(codePoint(scalar))"
    }
  }

  /// Up to 40 bytes of a field as text for a message, with "…" when cut.
  static func excerpt(_ bytes: ArraySlice<UInt8>) -> String {
    let limit = 40
    if bytes.count <= limit { return String(decoding: bytes, as: UTF8.self) }
    return String(decoding: bytes.prefix(limit), as: UTF8.self) + "…"
  }

  /// `U+00A0`: at least four uppercase hex digits.
  static func codePoint(_ scalar: UInt32) -> String {
    let digits = String(scalar, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  /// `0xC3`.
  static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "0x" + (digits.count == 1 ? "0" : "") + digits
  }

  static let utf8Hint =
    "word lists must be UTF-8; convert the file, for example:"
    + " iconv -f latin1 -t utf-8 in.txt > out.txt"

  private static func invalidUTF8(_ detail: String, at index: Int) -> LineProblem {
    LineProblem(
      reason: .invalidUTF8, index: index, message: "invalid UTF-8: \(detail)", hint: utf8Hint)
  }

  private static func control(_ scalar: UInt32, at index: Int) -> LineProblem {
    switch scalar {
    case 0:
      return LineProblem(
        reason: .nulByte, index: index, message: "NUL byte",
        hint: "word lists are UTF-8 text; a file with NUL bytes is binary or UTF-16"
          + " (convert UTF-16 with: iconv -f utf-16 -t utf-8 in.txt > out.txt)")
    case 0x0D:
      return LineProblem(
        reason: .controlCharacter, index: index, message: "carriage return (CR) inside a line",
        hint: "lines must end with LF or CRLF; convert CR-only line endings with: tr '\\r' '\\n'")
    default:
      return LineProblem(
        reason: .controlCharacter, index: index,
        message: "control character \(codePoint(scalar))",
        hint: "words are printable text; remove the control character or the line")
    }
  }
}
