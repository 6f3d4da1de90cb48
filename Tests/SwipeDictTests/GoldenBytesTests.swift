import SwipeDict
import SwipeDictCompiler
import Testing

/// The exact bytes of a tiny blob's sections, derived by hand from the format description
/// in `DAWGLayout`, `Alphabet` and `FrequencyLayout`. A change here is a format change.
@Suite("Golden bytes")
struct GoldenBytesTests {
  func section(_ tag: SectionTag, of blob: [UInt8]) throws -> [UInt8] {
    let dictionary = try SwipeDictionary(bytes: blob)
    let entry = try #require(dictionary.contents.section(tag))
    return Array(blob[Int(entry.offset)..<Int(entry.offset + entry.length)])
  }

  @Test("a, ab, b")
  func tinyBlob() throws {
    let blob = try DictionaryCompiler.compile(
      words: [("a", 100), ("ab", 10), ("b", 1)], layout: testLayout()
    ).bytes
    // States: the sink S (final, no transitions), A = "a" (final, b → S), the root (a → A,
    // b → S). S is written first (the most referenced), then A, then the root.
    let expectedArea: [UInt8] = [
      0x00, 0x40,  // S at 1: n byte 0, general header (final, n code 0)
      0xC0,  // A at 2: single (final, mode 0 = the node just before, inline label 0 = "b")
      0x04,  // root: target field of a → A: absolute address 2, stored as 2 << 1
      0x02,  // root: output of transition b (A accepts 2 words)
      0x00, 0x01,  // root: labels a, b
      0x11,  // root at 7: pair header (code1 = 0: b → sink, code0 = 1: one-byte field)
    ]
    var expectedDAWG: [UInt8] = []
    func append(_ value: UInt64, _ width: Int) {
      for i in 0..<width { expectedDAWG.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }
    append(3, 8)  // words
    append(UInt64(expectedArea.count), 8)  // node bytes
    append(7, 8)  // root address
    append(3, 4)  // states
    append(3, 4)  // transitions
    append(2, 4)  // longest word
    append(1, 4)  // sink address
    expectedDAWG += [1] + [UInt8](repeating: 0, count: 15)  // inline labels: "b"
    expectedDAWG += [UInt8](repeating: 0, count: 8)
    expectedDAWG += expectedArea
    #expect(try section(.dawg, of: blob) == expectedDAWG)

    #expect(try section(.alphabet, of: blob) == [
      2, 0, 0, 0, 0, 0, 0, 0,
      0x61, 0, 0, 0, 0x61, 0, 0, 0,
      0x62, 0, 0, 0, 0x62, 0, 0, 0,
      0, 1,  // labels in code-point order
    ])

    let frequency = try section(.frequency, of: blob)
    #expect(frequency.count == 64 + 3)
    #expect(Array(frequency[0..<8]) == [3, 0, 0, 0, 0, 0, 0, 0])
    // a: 255, ab: round(255 × ln 11 / ln 101) = round(132.49) = 132, b: round(255 × ln 2 / ln 101) = 38
    #expect(Array(frequency[64...]) == [255, 132, 38])

    let dictionary = try SwipeDictionary(bytes: blob, verify: true)
    #expect(Array(dictionary.words(withPrefix: "")).map(\.word) == ["a", "ab", "b"])
  }
}
