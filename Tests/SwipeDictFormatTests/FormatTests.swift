import Foundation
@_spi(SwipeDictInternals) import SwipeDictFormat
import Testing

@Suite("Format primitives")
struct FormatTests {
  @Test func crc32cCheckValue() {
    #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    #expect(CRC32C.checksum([UInt8]()) == 0)
    // Streaming in pieces gives the same value as one buffer.
    let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    var crc = CRC32C()
    crc.update(bytes[0..<3])
    crc.update(bytes[3..<517])
    crc.update(bytes[517...])
    #expect(crc.value == CRC32C.checksum(bytes))
  }

  @Test("golden bytes of a container with two sections")
  func containerGoldenBytes() {
    let blob = BlobContainer.encode([
      .init(tag: SectionTag("ABCD"), bytes: [1, 2, 3]),
      .init(tag: SectionTag("EFGH"), bytes: [4]),
    ])
    #expect(blob.count == 321)  // header 64, table 2 × 96, section at 256 (3 bytes), next at 320
    #expect(Array(blob[0..<8]) == [0x89, 0x53, 0x57, 0x44, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(
      Array(blob[8..<40]) == [
        1, 0, 5, 0,  // version 1.5
        0, 0, 0, 0,  // flags
        65, 1, 0, 0, 0, 0, 0, 0,  // file size
        2, 0, 0, 0,  // sections
        96, 0, 0, 0,  // entry size
        64, 0, 0, 0, 0, 0, 0, 0,  // table offset
      ])
    #expect(Array(blob[44..<64]) == [UInt8](repeating: 0, count: 20))
    #expect(
      Array(blob[64..<88]) == [
        0x41, 0x42, 0x43, 0x44, 0, 0, 0, 0,  // "ABCD", flags
        0, 1, 0, 0, 0, 0, 0, 0,  // offset 256
        3, 0, 0, 0, 0, 0, 0, 0,  // length
      ])
    let crc = CRC32C.checksum([1, 2, 3] as [UInt8])
    #expect(Array(blob[88..<92]) == [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: crc >> $0) })
    #expect(Array(blob[92..<96]) == [0, 0, 0, 0])  // reserved
    // The head copy: the section's first bytes, zero-padded to 64.
    #expect(Array(blob[96..<160]) == [1, 2, 3] + [UInt8](repeating: 0, count: 61))
    #expect(Array(blob[160..<164]) == [0x45, 0x46, 0x47, 0x48])  // "EFGH"
    #expect(Array(blob[168..<176]) == [64, 1, 0, 0, 0, 0, 0, 0])  // offset 320
    #expect(Array(blob[192..<256]) == [4] + [UInt8](repeating: 0, count: 63))
    #expect(Array(blob[256..<259]) == [1, 2, 3])
    #expect(Array(blob[259..<320]) == [UInt8](repeating: 0, count: 61))
    #expect(blob[320] == 4)
    // The header checksum covers the header (with the field zeroed) and the table.
    var sealed = Array(blob[0..<256])
    for i in 40..<44 { sealed[i] = 0 }
    let headerCRC = CRC32C.checksum(sealed)
    #expect(Array(blob[40..<44]) == [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: headerCRC >> $0) })
  }

  @Test("the head of a section comes from the table's copy, or from the section before 1.4")
  func sectionHeads() throws {
    let long = (0..<100).map { UInt8($0) }
    var blob = BlobContainer.encode([.init(tag: .dawg, bytes: long), .init(tag: .metadata, bytes: [9])])
    try blob.withUnsafeBytes { raw in
      let file = UnsafeByteView(raw)
      let contents = try BlobContainer.parse(file)
      let dawg = try #require(contents.section(.dawg))
      #expect(dawg.headCopyOffset == 96)
      let head = BlobContainer.head(of: dawg, in: file)
      #expect(head.count == 64)
      #expect(head.bytes(offset: 0, length: 64) == Array(long[0..<64]))
      let metadata = try #require(contents.section(.metadata))
      #expect(BlobContainer.head(of: metadata, in: file).bytes(offset: 0, length: 1) == [9])
      #expect(BlobContainer.head(of: metadata, in: file).count == 1)
    }
    // The copy is what the loader reads: change it (and reseal) and the head changes too.
    blob[96] = 0xAB
    #expect(BlobContainer.reseal(&blob))
    try blob.withUnsafeBytes { raw in
      let file = UnsafeByteView(raw)
      let dawg = try #require(try BlobContainer.parse(file).section(.dawg))
      #expect(BlobContainer.head(of: dawg, in: file).byte(at: 0) == 0xAB)
    }
    // A table of 1.4 whose entries have no room for the copies is refused.
    var narrow = blob
    narrow[28] = 32
    #expect(BlobContainer.reseal(&narrow))
    do {
      _ = try narrow.withUnsafeBytes { try BlobContainer.parse(UnsafeByteView($0)) }
      Issue.record("a 1.4 table of 32-byte entries was accepted")
    } catch let error as FormatError {
      guard case .badSectionTable(let detail) = error.reason else {
        Issue.record("\(error)")
        return
      }
      #expect(detail.contains("no room for the section heads"), "\(detail)")
      #expect(error.offset == 28)
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test func containerRoundTrip() throws {
    let blob = BlobContainer.encode([
      .init(tag: .dawg, bytes: Array(repeating: 7, count: 100)), .init(tag: .metadata, bytes: []),
    ])
    let contents = try blob.withUnsafeBytes { try BlobContainer.parse(UnsafeByteView($0)) }
    #expect(contents.sections.map(\.tag) == [.dawg, .metadata])
    #expect(contents.section(.dawg)?.length == 100)
    #expect(contents.section(.metadata)?.length == 0)
    #expect(contents.sections.allSatisfy { $0.offset % 64 == 0 })
  }

  @Test func sectionTagText() {
    #expect(SectionTag.dawg.description == "DAWG")
    #expect(SectionTag(rawValue: 0x0102_4141).description == "AA??")
  }

  @Test func byteViewNeverReadsOutside() {
    let bytes: [UInt8] = [1, 2, 3, 4, 5]
    bytes.withUnsafeBytes { raw in
      let view = UnsafeByteView(raw)
      #expect(view.byte(at: 4) == 5)
      #expect(view.byte(at: 5) == nil)
      #expect(view.byte(at: -1) == nil)
      #expect(view.uint32(at: 1) == 0x0504_0302)
      #expect(view.uint32(at: 2) == nil)
      #expect(view.unsigned(at: 3, width: 2) == 0x0504)
      #expect(view.unsigned(at: 4, width: 2) == nil)
      #expect(view.unsigned(at: Int.max, width: 1) == nil)
      #expect(view.slice(offset: 2, length: 3)?.byte(at: 0) == 3)
      #expect(view.slice(offset: 2, length: 4) == nil)
      #expect(view.contains(offset: 1, length: Int.max) == false)
    }
    let empty = UnsafeByteView(base: nil, count: 0)
    #expect(empty.byte(at: 0) == nil)
  }

  @Test func layoutRoundTrip() throws {
    let layout = KeyboardLayout(
      name: "t", unit: "mm", keyWidth: 6.5,
      keys: [
        .init(character: "a", x: 1, y: 2, width: 6.5, height: 9),
        .init(character: "ä", x: 8, y: 2, width: 6.5, height: 9),
      ],
      aliases: ["á": "a"], skipped: ["'"])
    let decoded = try layout.encoded().withUnsafeBytes { try KeyboardLayout(decoding: UnsafeByteView($0)) }
    #expect(decoded == layout)
    #expect(decoded.classify("Á") == .key(0))
    #expect(decoded.classify("Ä") == .key(1))
    #expect(decoded.classify("-") == .untypeable)
    // A count that does not match the bytes is rejected.
    var bytes = layout.encoded()
    bytes[0] = 9
    #expect(throws: FormatError.self) {
      try bytes.withUnsafeBytes { try KeyboardLayout(decoding: UnsafeByteView($0)) }
    }
  }

  @Test func alphabetValidation() throws {
    let alphabet = Alphabet(scalars: ["a", "A", "ä", "b"], folds: ["a", "a", "a", "b"])
    let decoded = try alphabet.encoded().withUnsafeBytes { try Alphabet(decoding: UnsafeByteView($0)) }
    #expect(decoded == alphabet)
    #expect(decoded.foldingLabels(for: "Ä") == 0..<3)
    #expect(decoded.foldingLabels(for: "B") == 3..<4)
    #expect(decoded.foldingLabels(for: "z").isEmpty)
    // Opening decodes what lookups need; `validate` (run by verify) finds the rest.
    let split = Alphabet(scalars: ["a", "b", "A"], folds: ["a", "b", "a"]).encoded()
    let splitDecoded = try split.withUnsafeBytes { try Alphabet(decoding: UnsafeByteView($0)) }
    #expect(throws: FormatError.self) { try splitDecoded.validate() }
    let repeated = Alphabet(scalars: ["a", "a"], folds: ["a", "a"]).encoded()
    let repeatedDecoded = try repeated.withUnsafeBytes { try Alphabet(decoding: UnsafeByteView($0)) }
    #expect(throws: FormatError.self) { try repeatedDecoded.validate() }
    try alphabet.validate()
    var outOfRange = alphabet.encoded()
    outOfRange[outOfRange.count - 1] = 9
    #expect(throws: FormatError.self) {
      try outOfRange.withUnsafeBytes { try Alphabet(decoding: UnsafeByteView($0)) }
    }
  }

  @Test func frequencyQuantization() {
    let scale = Foundation.log1p(1e9)
    #expect(FrequencyLayout.quantize(1e9, scale: scale) == 255)
    #expect(FrequencyLayout.quantize(0, scale: scale) == 0)
    #expect(FrequencyLayout.quantize(1e-6, scale: scale) == 1)
    var previous: UInt8 = 0
    for exponent in 0...9 {
      let q = FrequencyLayout.quantize(Foundation.pow(10, Double(exponent)), scale: scale)
      #expect(q > previous)
      previous = q
      let back = FrequencyLayout.approximateCount(q, scale: scale)
      let ratio = (1 + back) / (1 + Foundation.pow(10, Double(exponent)))
      #expect(ratio < Foundation.exp(scale / 255) && ratio > Foundation.exp(-scale / 255))
    }
  }
}

@Suite("Key paths and neighbors")
struct KeyPathTests {
  /// Two rows of a phone: q w e / a s d, the second row shifted by half a key.
  let layout = KeyboardLayout(
    name: "t", unit: "pt", keyWidth: 10,
    keys: [
      .init(character: "q", x: 5, y: 7, width: 10, height: 14),
      .init(character: "w", x: 15, y: 7, width: 10, height: 14),
      .init(character: "e", x: 25, y: 7, width: 10, height: 14),
      .init(character: "a", x: 10, y: 21, width: 10, height: 14),
      .init(character: "s", x: 20, y: 21, width: 10, height: 14),
      .init(character: "d", x: 30, y: 21, width: 10, height: 14),
    ],
    aliases: ["é": "e", "ß": "s"])

  @Test func keyPathsFoldAliasSkipAndCollapse() {
    #expect(layout.keyPath(for: "sea") == [4, 2, 3])
    #expect(layout.keyPath(for: "SÉA") == [4, 2, 3])
    #expect(layout.keyPath(for: "seed") == [4, 2, 5])  // "ee" collapses
    #expect(layout.keyPath(for: "aß's") == [3, 4])  // ß → s, apostrophe skipped, s s collapse
    #expect(layout.keyPath(for: "we-a") == [1, 2, 3])
    #expect(layout.keyPath(for: "wa7") == nil)
    #expect(layout.keyPath(for: "'-") == [])
  }

  @Test func neighborsTouch() {
    #expect(layout.neighbors(of: 0) == [1, 3])  // q: w beside, a below-right
    #expect(layout.neighbors(of: 4) == [1, 2, 3, 5])  // s: w e above, a d beside
    #expect(layout.neighbors(of: 2) == [1, 4, 5])
    #expect(layout.neighbors(of: 99) == [])
  }
}
