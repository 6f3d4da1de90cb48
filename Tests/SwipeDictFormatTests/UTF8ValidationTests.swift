import PropertyBased
import SwipeDictFormat
import Testing

/// `String(validatingUTF8:)` calls `String(validating:as:)` where the OS has it (iOS 18, macOS 15)
/// and `String(decodingValidUTF8:)` before: the two must agree on every input. Linux checks no
/// availability, so here both are run and compared.
@Suite("UTF-8 validation on every Apple floor")
struct UTF8ValidationTests {
  @Test("the fallback agrees with String(validating:as:) on random bytes and mutated text")
  func fallbackAgrees() async {
    // Valid text of every UTF-8 length (1 to 4 bytes, U+FFFD itself among them), then cut,
    // spliced or with a byte replaced: mostly invalid in the ways files are.
    let samples = ["a", "é", "€", "😀", "\u{FFFD}", "ß", "ж", "\u{10FFFF}", "\u{7F}", "\u{80}"]
    let text = Gen<String?>.element(of: samples).map { $0 ?? "" }.array(of: 0...12).map {
      Array($0.joined().utf8)
    }
    let mutated = zip(text, Gen.uint8(), Gen.int(in: 0...40)).map { bytes, byte, at in
      var bytes = bytes
      if !bytes.isEmpty { bytes[at % bytes.count] = byte }
      return bytes
    }
    let cut = zip(text, Gen.int(in: 0...40)).map { bytes, n in Array(bytes.prefix(n)) }
    let anyBytes = Gen.uint8().array(of: 0...24)
    await propertyCheck(count: 4_000, input: Gen.oneOf(text, mutated, cut, anyBytes)) { bytes in
      let expected = String(validating: bytes, as: UTF8.self)
      #expect(String(decodingValidUTF8: bytes) == expected, "\(bytes)")
      #expect(String(validatingUTF8: bytes) == expected, "\(bytes)")
      #expect(String(decodingValidUTF8: bytes[...]) == expected, "\(bytes) as a slice")
    }
  }

  @Test("ill-formed sequences are refused, well-formed ones kept byte for byte")
  func edgeCases() {
    let refused: [[UInt8]] = [
      [0xC0, 0x80],  // overlong NUL
      [0xED, 0xA0, 0x80],  // a surrogate
      [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
      [0xE2, 0x82],  // cut
      [0x80],  // a lone continuation byte
      [0xFF],
    ]
    for bytes in refused {
      #expect(String(decodingValidUTF8: bytes) == nil, "\(bytes)")
    }
    for text in ["", "hello", "\u{FFFD}", "Zoë", "日本語", "👍🏽"] {
      #expect(String(decodingValidUTF8: Array(text.utf8)) == text)
    }
  }
}
