import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import SwipeDictTools
import Testing

@testable import SwipeDictCompiler

@Suite("Ingest: zstd", .timeLimit(.minutes(1)))
struct IngestZstdTests {
  /// A counted list of `lines` lines, about 16 bytes a line.
  static func generatedList(lines: Int, seed: UInt64 = 7) -> [UInt8] {
    var random = SeededGenerator(state: seed)
    var text: [UInt8] = []
    text.reserveCapacity(lines * 16)
    let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    for index in 0..<lines {
      for _ in 0..<Int.random(in: 3...10, using: &random) {
        text.append(letters[Int.random(in: 0..<letters.count, using: &random)])
      }
      text.append(0x09)
      text.append(contentsOf: String(lines - index).utf8)
      text.append(0x0A)
    }
    return text
  }

  @Test("zstdVersion names the linked library")
  func version() {
    let parts = zstdVersion().split(separator: ".")
    #expect(parts.count == 3)
    #expect(parts.first == "1")
  }

  @Test(
    "compress and decompress round trip",
    arguments: [
      (level: 1, long: false, window: nil), (level: 3, long: false, window: nil),
      (level: 19, long: true, window: nil), (level: -5, long: false, window: 20),
      (level: 6, long: true, window: 27),
    ] as [(level: Int, long: Bool, window: Int?)])
  func roundTrip(level: Int, long: Bool, window: Int?) throws {
    let text = Self.generatedList(lines: 20_000)
    let compressor = try ZstdCompressor(level: level, longDistanceMatching: long, windowLog: window)
    var compressed: [UInt8] = []
    var start = 0
    while start < text.count {
      let end = min(text.count, start + 10_000)
      try compressor.compress(text[start..<end], into: &compressed)
      start = end
    }
    try compressor.endFrame(into: &compressed)
    #expect(compressed.starts(with: [0x28, 0xB5, 0x2F, 0xFD]))
    if level > 0 { #expect(compressed.count < text.count * 2 / 3) }
    #expect(try ZstdDecompressor.decompress(compressed) == text)
  }

  @Test("the decompressor takes input in pieces of any size")
  func decompressInPieces() throws {
    let text = Self.generatedList(lines: 30_000)
    let compressed = try ZstdCompressor.compress(text, level: 3)
    for pieceSize in [1, 7, 1000, compressed.count] {
      let decompressor = try ZstdDecompressor()
      var output: [UInt8] = []
      var start = 0
      while start < compressed.count {
        let end = min(compressed.count, start + pieceSize)
        decompressor.push(compressed[start..<end])
        while let chunk = try decompressor.next() { output.append(contentsOf: chunk) }
        start = end
      }
      try decompressor.finish()
      #expect(output == text)
      #expect(decompressor.compressedBytesConsumed == compressed.count)
    }
  }

  @Test("endFrame starts a new frame: the stream decodes as one")
  func multipleFrames() throws {
    let compressor = try ZstdCompressor(level: 3, checksum: false)
    var compressed: [UInt8] = []
    try compressor.compress(Array("one\t1\ntwo".utf8), into: &compressed)
    try compressor.endFrame(into: &compressed)
    let firstFrame = compressed.count
    try compressor.compress(Array("\t2\nthree\t3\n".utf8), into: &compressed)
    try compressor.endFrame(into: &compressed)
    #expect(compressed[firstFrame...].starts(with: [0x28, 0xB5, 0x2F, 0xFD]))
    let result = try Ingest.readInChunks(compressed)
    #expect(result.entries.map(\.word) == ["one", "two", "three"])
    #expect(result.report.compressed)
  }

  @Test("an empty frame decodes to nothing")
  func emptyFrame() throws {
    let compressed = try ZstdCompressor.compress([])
    #expect(try ZstdDecompressor.decompress(compressed) == [])
    let error = try #require(Ingest.error(compressed))
    #expect(error.reason == .noEntries)
  }

  @Test("a file made by the zstd tool reads like its source")
  func cliFixture() throws {
    let plainPath = try IngestFixture.path("cli-counted.tsv")
    let zstdPath = try IngestFixture.path("cli-counted.tsv.zst")
    var plain: [WordListEntry] = []
    var unpacked: [WordListEntry] = []
    let plainReport = try readWordList(atPath: plainPath) { plain.append($0) }
    let zstdReport = try readWordList(atPath: zstdPath) { unpacked.append($0) }
    #expect(unpacked == plain)
    #expect(plain.map(\.word) == ["the", "of", "and", "to", "café", "naïve", "日本"])
    #expect(
      plain.map(\.count) == [
        23_135_851_162, 13_151_942_776, 12_997_637_966, 12_136_980_858, 1234.5, 99, 42,
      ])
    #expect(zstdReport.compressed && !plainReport.compressed)
    let zstdBytes = try IngestFixture.bytes("cli-counted.tsv.zst")
    #expect(zstdReport.rawBytes == zstdBytes.count)
    #expect(zstdReport.checksum == CRC32C.checksum(zstdBytes))
    #expect(zstdReport.textBytes == plainReport.rawBytes)
    #expect(plainReport.checksum == CRC32C.checksum(try IngestFixture.bytes("cli-counted.tsv")))
  }

  @Test("concatenated frames from the zstd tool read as one list")
  func cliMultiframeFixture() throws {
    var entries: [WordListEntry] = []
    let report = try readWordList(atPath: try IngestFixture.path("cli-multiframe.tsv.zst")) {
      entries.append($0)
    }
    #expect(entries.map(\.word) == ["alpha", "beta", "gamma", "delta"])
    #expect(entries.map(\.count) == [3, 2, 1, 0.5])
    #expect(report.lines == 4)
    #expect(report.compressed)
  }

  @Test("compression is recognized by the magic bytes, not the file name")
  func magicNotName() throws {
    let directory = try IngestTemporaryDirectory()
    defer { directory.remove() }
    let text = Array("a\t1\nb\t2\n".utf8)
    let compressedAsText = try directory.write("list.txt", try ZstdCompressor.compress(text))
    let plainAsZstd = try directory.write("list.txt.zst", text)
    var words: [String] = []
    let first = try readWordList(atPath: compressedAsText) { words.append($0.word) }
    let second = try readWordList(atPath: plainAsZstd) { words.append($0.word) }
    #expect(words == ["a", "b", "a", "b"])
    #expect(first.compressed && !second.compressed)
  }

  @Test("a skippable frame before the data is recognized as zstd")
  func skippableFrame() throws {
    let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3]
    let compressed = skippable + (try ZstdCompressor.compress(Array("w\t1\n".utf8)))
    let result = try Ingest.readInChunks(compressed)
    #expect(result.entries.map(\.word) == ["w"])
    #expect(result.report.compressed)
  }

  @Test("a truncated .zst is a file-level error, even with skipInvalid")
  func truncated() throws {
    let compressed = try ZstdCompressor.compress(Self.generatedList(lines: 5_000))
    for keep in [5, 12, compressed.count / 2, compressed.count - 1] {
      let cut = Array(compressed[0..<keep])
      let error = try #require(
        Ingest.error(cut, file: "en.tsv.zst", options: .init(skipInvalid: true)))
      #expect(error.reason == .damagedCompression)
      #expect(error.location == InputLocation(file: "en.tsv.zst", line: 0, column: 0))
      #expect(error.message.contains("damaged"))
      #expect(error.hint.contains("re-download"))
      let decompressor = try ZstdDecompressor()
      decompressor.push(cut)
      while try decompressor.next() != nil {}
      #expect(throws: ZstdError.truncated(offset: keep)) { try decompressor.finish() }
    }
  }

  @Test("a bit flipped in a .zst is detected")
  func bitFlipped() throws {
    let compressed = try ZstdCompressor.compress(Self.generatedList(lines: 5_000))
    for position in stride(from: 6, to: compressed.count, by: max(1, compressed.count / 37)) {
      var damaged = compressed
      damaged[position] ^= 0x10
      let error = try #require(Ingest.error(damaged, file: "en.tsv.zst"), "flip at \(position)")
      #expect(error.reason == .damagedCompression, "flip at \(position)")
      #expect(error.message.hasPrefix("the zstd-compressed file is damaged"))
    }
  }

  @Test("the zstd tool's damaged file is named with what libzstd says")
  func damagedFixture() throws {
    var bytes = try IngestFixture.bytes("cli-counted.tsv.zst")
    bytes[bytes.count - 2] ^= 0xFF  // in the content checksum
    let error = try #require(Ingest.error(bytes, file: "cli-counted.tsv.zst"))
    #expect(
      error.description.hasPrefix("cli-counted.tsv.zst: error: the zstd-compressed file is damaged")
    )
    #expect(error.message.hasSuffix("Restored data doesn't match checksum"))
  }

  @Test("a frame that asks for a window over the limit names the problem")
  func windowTooLarge() throws {
    // Magic, frame header descriptor (no single segment), window descriptor 2^30, and an
    // empty last raw block.
    let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 20 << 3, 0x01, 0x00, 0x00]
    #expect(
      throws: ZstdError.windowTooLarge(
        reason: "Frame requires too much memory for decoding", offset: 0)
    ) {
      _ = try ZstdDecompressor.decompress(frame)
    }
    let error = try #require(Ingest.error(frame))
    #expect(error.reason == .damagedCompression)
    #expect(error.hint.contains("--long=27"))
    let roomy = try ZstdDecompressor(windowLogMax: 30)
    roomy.push(frame)
    #expect(try roomy.next() == nil)
    try roomy.finish()
  }

  @Test("parameters libzstd refuses are reported")
  func rejectedParameters() {
    #expect(throws: ZstdError.self) { _ = try ZstdDecompressor(windowLogMax: 99) }
    #expect(throws: ZstdError.self) { _ = try ZstdCompressor(windowLog: 99) }
    #expect(ZstdCompressor.levels.contains(19))
  }

  @Test("200K lines stream through zstd with exact counts and checksum")
  func largeStream() throws {
    let lines = 200_000
    let text = Self.generatedList(lines: lines)
    let compressor = try ZstdCompressor(level: 3)
    var compressed: [UInt8] = []
    var start = 0
    while start < text.count {
      let end = min(text.count, start + 65_536)
      try compressor.compress(text[start..<end], into: &compressed)
      start = end
    }
    try compressor.endFrame(into: &compressed)
    #expect(compressed.count > WordListStream.readChunkBytes)  // several reads

    let directory = try IngestTemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write("big.tsv.zst", compressed)
    var entries = 0
    var countSum = 0.0
    var lastLine = 0
    var inOrder = true
    let report = try readWordList(atPath: path) { entry in
      entries += 1
      countSum += entry.count
      inOrder = inOrder && entry.line == lastLine + 1
      lastLine = entry.line
    }
    #expect(entries == lines)
    #expect(inOrder)
    #expect(countSum == Double(lines) * Double(lines + 1) / 2)
    #expect(report.entries == lines)
    #expect(report.lines == lines)
    #expect(report.rawBytes == compressed.count)
    #expect(report.textBytes == text.count)
    #expect(report.checksum == CRC32C.checksum(compressed))
    #expect(report.compressed)
  }
}
