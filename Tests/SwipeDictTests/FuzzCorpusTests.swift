import Foundation
import SwipeDict
import Testing

/// Replays the fuzzer's regression corpus (`Fuzz/Corpus`: seed blobs and every input that
/// once crashed or hung the loader) through the same steps as the libFuzzer target: open the
/// bytes as they are, then with the header resealed, and run every query.
@Suite("Fuzz corpus replay")
struct FuzzCorpusTests {
  static let corpus: [URL] = {
    let directory = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fuzz/Corpus")
    let files = (try? FileManager.default.contentsOfDirectory(
      at: directory, includingPropertiesForKeys: nil)) ?? []
    return files.filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
  }()

  @Test func corpusIsPresent() {
    #expect(Self.corpus.count >= 2)
  }

  @Test(arguments: corpus)
  func replay(_ file: URL) throws {
    var bytes = [UInt8](try Data(contentsOf: file))
    if let dictionary = try? SwipeDictionary(bytes: bytes) { exercise(dictionary) }
    guard reseal(&bytes), let dictionary = try? SwipeDictionary(bytes: bytes) else { return }
    exercise(dictionary)
    _ = try? dictionary.verify()
  }

  /// The same as `Fuzz/Sources/SwipeDictFuzz`: every public query.
  func exercise(_ dictionary: SwipeDictionary) {
    var probes = ["", "a", "the", "Über", "e\u{301}", "zzzzzzzz"]
    for id in [0, 1, dictionary.wordCount / 2, dictionary.wordCount - 1, dictionary.wordCount, -1] {
      if let word = dictionary.word(for: id) { probes.append(word) }
      _ = dictionary.frequency(of: id)
    }
    for word in probes {
      _ = dictionary.id(of: word)
      _ = dictionary.frequency(of: word)
      _ = dictionary.ids(matchingFolded: word)
      _ = dictionary.idRange(withPrefix: String(word.prefix(2)))
      for _ in dictionary.words(withPrefix: String(word.prefix(1))).prefix(50) {}
    }
    _ = dictionary.layout
    _ = dictionary.metadata
  }

  func reseal(_ bytes: inout [UInt8]) -> Bool {
    guard bytes.count >= 64 else { return false }
    for i in 0..<8 { bytes[16 + i] = UInt8(truncatingIfNeeded: UInt64(bytes.count) >> (8 * UInt64(i))) }
    let sections = Int(bytes[24]) | Int(bytes[25]) << 8
    let end = 64 + 32 * min(sections, 64)
    guard end <= bytes.count else { return false }
    for i in 40..<44 { bytes[i] = 0 }
    let crc = CRC32C.checksum(bytes[0..<end])
    for i in 0..<4 { bytes[40 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    return true
  }
}
