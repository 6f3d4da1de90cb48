import Foundation
import Testing

/// Replays the fuzzer's regression corpus (`Fuzz/Corpus`: seed blobs and every input that
/// once crashed or hung the loader) through the same steps as the libFuzzer target.
@Suite("Fuzz corpus replay", .timeLimit(.minutes(1)))
struct FuzzCorpusTests {
  static let corpus: [URL] = {
    let directory = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fuzz/Corpus")
    let files =
      (try? FileManager.default.contentsOfDirectory(
        at: directory, includingPropertiesForKeys: nil)) ?? []
    return files.filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
  }()

  @Test func corpusIsPresent() {
    #expect(Self.corpus.count >= 2)
  }

  @Test(arguments: corpus)
  func replay(_ file: URL) throws {
    fuzzExercise([UInt8](try Data(contentsOf: file)))
  }
}
