import Foundation
import SwipeDictFormat
import Testing

@testable import SwipeDictCompiler

/// The committed layouts read to the same `KeyboardLayout` whatever JSON reader the compiler
/// uses: the size and CRC-32C of each layout's stored form (`LYOT`), recorded with the
/// `JSONDecoder`-based reader before `JSONReader` replaced it.
@Suite("Committed layouts")
struct LayoutCorpusTests {
  static let expected: [String: (bytes: Int, crc32c: UInt32)] = [
    "azerty-fr.json": (1_367, 0xdd0e_a1f3),
    "qwerty-en.json": (1_367, 0x00d4_562a),
    "qwertz-de.json": (1_403, 0x8534_f1cd),
  ]

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "corpora/layouts")

  @Test func everyCommittedLayoutIsListed() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
      .filter { $0.hasSuffix(".json") }
    #expect(files.sorted() == Self.expected.keys.sorted())
  }

  @Test(arguments: expected.keys.sorted())
  func storesTheSameBytesAsBefore(file: String) throws {
    let layout = try LayoutFile.load(Self.directory.appendingPathComponent(file).path)
    let stored = layout.encoded()
    let expected = try #require(Self.expected[file])
    #expect(stored.count == expected.bytes)
    #expect(CRC32C.checksum(stored) == expected.crc32c)
  }
}
