import SwipeDictFiles
import SwipeDictTools
import Testing

@testable import SwipeDictCompiler

/// Random lists written in each format, with random line endings, comments, blank lines,
/// byte-order marks and compression, read back in random chunks.
@Suite("Ingest: round trips")
struct IngestPropertyTests {
  /// Pieces words are made of: ASCII, Latin, CJK, emoji, apostrophes, hyphens, and a
  /// combining accent.
  static let pieces: [String] = [
    "a", "e", "s", "t", "n", "Q", "z", "'", "-", "é", "ß", "ñ", "ø", "ı", "日", "本", "語", "한",
    "ж", "ω", "😀", "👍🏽", "e\u{301}", "٣", "#", "=", ".", "0", "9",
  ]

  struct Case {
    var words: [String]
    var counts: [Double]
    var text: [UInt8]
  }

  static func randomWord(_ random: inout SeededGenerator, allowComma: Bool) -> String {
    var word = ""
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      word += pieces.randomElement(using: &random) ?? "a"
    }
    if allowComma && Bool.random(using: &random) { word += "," }  // AOSP splits at commas
    // A leading '#' would make a comment.
    return word.hasPrefix("#") ? "x" + word : word
  }

  /// A count and the text that writes it.
  static func randomCount(_ random: inout SeededGenerator) -> (Double, String) {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return (0, "0")
    case 1:
      let value = UInt64.random(in: 0...(1 << 53), using: &random)
      return (Double(value), String(value))
    case 2:
      let value = Int.random(in: 0...1_000_000, using: &random)
      return (Double(value), String(value))
    default:
      let text =
        "\(Int.random(in: 0...99_999, using: &random)).\(Int.random(in: 0...999, using: &random))"
      return (Double(text) ?? -1, text)
    }
  }

  static func makeCase(_ format: WordListFormat, seed: UInt64) -> Case {
    var random = SeededGenerator(state: seed)
    let crlf = Bool.random(using: &random)
    let newline = crlf ? "\r\n" : "\n"
    var text = Bool.random(using: &random) ? "\u{FEFF}" : ""
    var words: [String] = []
    var counts: [Double] = []
    func noise(_ random: inout SeededGenerator) -> String {
      switch Int.random(in: 0..<12, using: &random) {
      case 0: return "# comment \(Int.random(in: 0...9, using: &random)) with\tspaces" + newline
      case 1: return newline
      case 2: return "  \t " + newline
      default: return ""
      }
    }
    if format == .aosp {
      text += "dictionary=main:xx,locale=xx,description=random,version=1" + newline
    }
    let total = Int.random(in: 1...300, using: &random)
    for _ in 0..<total {
      text += noise(&random)
      let word = randomWord(&random, allowComma: format != .aosp)
      let trailing = Bool.random(using: &random) ? "" : "  "
      switch format {
      case .counted:
        let (count, countText) = randomCount(&random)
        let separator = ["\t", " ", "   ", " \t "].randomElement(using: &random) ?? "\t"
        text += word + separator + countText + trailing + newline
        counts.append(count)
      case .bare:
        text += word + trailing + newline
        counts.append(1_000_000 / Double(words.count + 1))
      case .aosp:
        // f is AOSP's 0…255 log-scale frequency, an integer or a decimal.
        let f =
          Bool.random(using: &random)
          ? String(Int.random(in: 0...255, using: &random))
          : "\(Int.random(in: 0...254, using: &random)).\(Int.random(in: 0...999, using: &random))"
        text += " word=\(word),f=\(f),flags=,originalFreq=\(f)" + trailing + newline
        if Int.random(in: 0..<5, using: &random) == 0 {
          text += "  shortcut=x,f=whitelist" + newline
        }
        counts.append(AOSPLine.count(forFrequency: Double(f) ?? -1))
      }
      words.append(word)
    }
    text += noise(&random)
    // Sometimes no final line ending ("\r\n" is one Character).
    if Bool.random(using: &random), text.hasSuffix(newline) { text.removeLast() }
    return Case(words: words, counts: counts, text: Array(text.utf8))
  }

  @Test(
    "random lists read back equal",
    arguments: [WordListFormat.counted, .bare, .aosp], 0..<40 as Range<UInt64>)
  func roundTrip(format: WordListFormat, seed: UInt64) throws {
    let formatSalt: UInt64 = format == .counted ? 1 : format == .bare ? 2 : 3
    let sample = Self.makeCase(format, seed: seed << 2 | formatSalt)
    var random = SeededGenerator(state: seed)
    var bytes = sample.text
    let compress = seed % 3 == 0
    if compress { bytes = try ZstdCompressor.compress(bytes, level: Int(seed % 5) + 1) }
    let chunkSize = [1, 3, 17, 256, 4096, 1 << 20].randomElement(using: &random) ?? 1
    let result = try Ingest.read(bytes, chunkSize: chunkSize)
    #expect(result.report.format == format)
    #expect(result.entries.map(\.word) == sample.words)
    #expect(result.entries.map(\.count) == sample.counts)
    #expect(result.report.entries == sample.words.count)
    #expect(result.report.skipped == 0)
    #expect(result.report.compressed == compress)
    #expect(result.report.textBytes == sample.text.count)
    #expect(result.report.checksum == IngestCRC32C.checksum(bytes))
  }
}
