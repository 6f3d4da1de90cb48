import Foundation
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import Testing

@testable import SwipeDictCompiler

/// What one read produced: the entries and the report, or the error that ended it.
struct IngestResult {
  var entries: [WordListEntry]
  var report: WordListReport
}

/// Helpers shared by the ingest tests: in-memory reads, temporary files, fixtures, a seeded
/// random generator.
enum Ingest {
  /// Reads bytes through the same pipeline as a file, handing them over in chunks of
  /// `chunkSize` bytes (to exercise lines, BOMs, CRLFs and zstd frames cut across reads).
  static func read(
    _ bytes: [UInt8], file: String = "test.tsv", options: WordListReadOptions = .init(),
    chunkSize: Int = WordListStream.readChunkBytes
  ) throws -> IngestResult {
    var stream = WordListStream(file: file, options: options)
    var entries: [WordListEntry] = []
    var start = 0
    while start < bytes.count {
      let end = min(bytes.count, start + chunkSize)
      try stream.consume(bytes[start..<end]) { entries.append($0) }
      start = end
    }
    let report = try stream.finish { entries.append($0) }
    return IngestResult(entries: entries, report: report)
  }

  /// Reads UTF-8 text (see ``read(_:file:options:chunkSize:)``).
  static func read(
    _ text: String, file: String = "test.tsv", options: WordListReadOptions = .init(),
    chunkSize: Int = WordListStream.readChunkBytes
  ) throws -> IngestResult {
    try read(Array(text.utf8), file: file, options: options, chunkSize: chunkSize)
  }

  /// Reads the bytes in every chunking of `chunkSizes` and checks that all agree.
  static func readInChunks(
    _ bytes: [UInt8], options: WordListReadOptions = .init(),
    chunkSizes: [Int] = [1, 2, 3, 5, 7, 64, 4096]
  ) throws -> IngestResult {
    let whole = try read(bytes, options: options)
    for size in chunkSizes {
      let chunked = try read(bytes, options: options, chunkSize: size)
      #expect(chunked.entries == whole.entries, "chunk size \(size)")
      #expect(chunked.report == whole.report, "chunk size \(size)")
    }
    return whole
  }

  /// The error a read of `bytes` throws, which must be a ``WordListError``.
  static func error(
    _ bytes: [UInt8], file: String = "test.tsv", options: WordListReadOptions = .init(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> WordListError? {
    #expect(throws: WordListError.self, sourceLocation: sourceLocation) {
      try read(bytes, file: file, options: options)
    }
  }

  /// Pairs of words and counts, for comparisons.
  static func pairs(_ result: IngestResult) -> [Pair] {
    result.entries.map { Pair(word: $0.word, count: $0.count) }
  }

  /// A word and its count.
  struct Pair: Hashable, CustomStringConvertible {
    var word: String
    var count: Double
    var description: String { "\(word)=\(count)" }
  }
}

/// A directory under the system's temporary directory, removed by `remove()`.
struct IngestTemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("swipedict-ingest-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Writes a file and returns its path.
  func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    let file = url.appendingPathComponent(name)
    try Data(bytes).write(to: file)
    return file.path
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// The ingest fixtures shipped under `Fixtures/ingest/`.
enum IngestFixture {
  static func path(_ name: String) throws -> String {
    let root = try #require(Bundle.module.resourceURL)
    return root.appendingPathComponent("Fixtures/ingest/\(name)").path
  }

  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: try path(name))))
  }
}

/// CRC-32C through the SwipeDictFormat implementation, named for the tests.
enum IngestCRC32C {
  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var crc = CRC32C()
    crc.update(bytes)
    return crc.value
  }
}
