import SwipeDictFiles
import SwipeDictTestSupport
import Testing

@testable import SwipeDictCompiler

@Suite("Ingest: gzip", .timeLimit(.minutes(1)))
struct IngestGzipTests {
  /// Decompresses `compressed` fed in pieces of `piece` bytes.
  static func gunzip(_ compressed: [UInt8], piece: Int) throws -> [UInt8] {
    let decompressor = try GzipDecompressor()
    var text: [UInt8] = []
    var start = 0
    while start < compressed.count {
      let end = min(compressed.count, start + piece)
      decompressor.push(compressed[start..<end])
      while let chunk = try decompressor.next() { text += chunk }
      start = end
    }
    try decompressor.finish()
    return text
  }

  @Test("compress and decompress round trip in pieces of any size, past the output buffer")
  func roundTrip() throws {
    // 600 KB of text: several 128 KiB output chunks, some pending inside zlib.
    let text = IngestZstdTests.generatedList(lines: 40_000)
    let compressed = try gzipCompress(text, level: 9)
    #expect(isGzip(compressed) && compressed.count < text.count * 3 / 4)
    for piece in [1, 7, 4096, 1 << 20] {
      #expect(try Self.gunzip(compressed, piece: piece) == text, "pieces of \(piece)")
    }
  }

  @Test("a .gz word list reads like the plain one; concatenated members are one stream")
  func wordList() throws {
    let text = IngestZstdTests.generatedList(lines: 3_000)
    let plain = try Ingest.read(text)
    let zipped = try Ingest.readInChunks(try gzipCompress(text))
    #expect(Ingest.pairs(zipped) == Ingest.pairs(plain))
    #expect(zipped.report.compressed && !plain.report.compressed)
    // `cat a.gz b.gz`: the lines of both, in order.
    let half = text.count / 2
    let cut = text[..<half].lastIndex(of: 0x0A)! + 1
    let joined = try gzipCompress(Array(text[..<cut])) + gzipCompress(Array(text[cut...]))
    #expect(Ingest.pairs(try Ingest.read(joined)) == Ingest.pairs(plain))
  }

  @Test("an AOSP combined list shipped as .gz reads (it was refused as control character U+001F)")
  func aospCombined() throws {
    let text =
      "dictionary=main:en_us,locale=en_US,date=1,version=54\n word=the,f=222,flags=,originalFreq=222\n word=to,f=215\n"
    let result = try Ingest.read(try gzipCompress(Array(text.utf8)), file: "main_en_US.combined.gz")
    #expect(result.entries.map(\.word) == ["the", "to"])
  }

  @Test("a truncated or damaged .gz is a file-level error naming gzip, even with skipInvalid")
  func damaged() throws {
    let compressed = try gzipCompress(IngestZstdTests.generatedList(lines: 2_000))
    var options = WordListReadOptions()
    options.skipInvalid = true
    let cut = Array(compressed.prefix(compressed.count / 2))
    let truncated = try #require(Ingest.error(cut, options: options))
    #expect(truncated.reason == .damagedCompression)
    #expect(truncated.message.contains("gzip") && truncated.message.contains("truncated"), "\(truncated.message)")
    var corrupt = compressed
    for i in 20..<60 { corrupt[i] ^= 0x5A }
    let damaged = try #require(Ingest.error(corrupt, options: options))
    #expect(damaged.reason == .damagedCompression && damaged.message.contains("gzip"), "\(damaged.message)")
    // The decompressor itself says where.
    let decompressor = try GzipDecompressor()
    decompressor.push(cut)
    while try decompressor.next() != nil {}
    #expect(throws: GzipError.truncated(offset: cut.count)) { try decompressor.finish() }
  }
}
