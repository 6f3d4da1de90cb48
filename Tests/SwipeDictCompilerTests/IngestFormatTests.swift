import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import Testing

@testable import SwipeDictCompiler

@Suite("Ingest: formats")
struct IngestFormatTests {
  typealias Pair = Ingest.Pair

  @Test("word<TAB>count and word count lines")
  func counted() throws {
    let text = "the\t222\nof 214\nand   12.5\nI'm\t\t 7\ncafé\t0\nbig\t9007199254740992\n"
    let result = try Ingest.readInChunks(Array(text.utf8))
    #expect(
      Ingest.pairs(result) == [
        Pair(word: "the", count: 222), Pair(word: "of", count: 214),
        Pair(word: "and", count: 12.5), Pair(word: "I'm", count: 7),
        Pair(word: "café", count: 0), Pair(word: "big", count: 9_007_199_254_740_992),
      ])
    #expect(result.entries.map(\.line) == [1, 2, 3, 4, 5, 6])
    #expect(result.report.format == .counted)
    #expect(result.report.entries == 6)
    #expect(result.report.lines == 6)
    #expect(result.report.skipped == 0)
    #expect(result.report.compressed == false)
    #expect(result.report.rawBytes == text.utf8.count)
    #expect(result.report.textBytes == text.utf8.count)
  }

  @Test("a third column after a TAB marks the word: possibly_offensive, abbreviation, both")
  func markColumn() throws {
    let text =
      "the\t222\nshit\t90\tpossibly_offensive\nkm\t40\tabbreviation\nFFS\t3\tabbreviation,possibly_offensive\n"
      + "of 214\tpossibly_offensive\n"
    let result = try Ingest.readInChunks(Array(text.utf8))
    #expect(
      Ingest.pairs(result) == [
        Pair(word: "the", count: 222), Pair(word: "shit", count: 90), Pair(word: "km", count: 40),
        Pair(word: "FFS", count: 3), Pair(word: "of", count: 214),
      ])
    #expect(
      result.entries.map(\.marks) == [
        [], .possiblyOffensive, .abbreviation, [.abbreviation, .possiblyOffensive], .possiblyOffensive,
      ])
    #expect(result.report.format == .counted && result.report.entries == 5)
    // Lists without the column read as before: no marks.
    #expect(try Ingest.read("the\t222\nof 214\n").entries.allSatisfy { $0.marks.isEmpty })
  }

  @Test("decimal counts round like Double(String)")
  func decimals() throws {
    let counts = ["0.1", "12.5", "007", "3.14159265358979323846", "1234567.000001", "0.0"]
    let text = counts.enumerated().map { "w\($0.offset)\t\($0.element)\n" }.joined()
    let result = try Ingest.read(text)
    #expect(result.entries.map(\.count) == counts.map { Double($0) ?? -1 })
  }

  @Test("bare lists count from the rank of the data line")
  func bare() throws {
    let text = "# most frequent first\nthe\n\nof\n# comment\nand\n日本語\n"
    let result = try Ingest.readInChunks(Array(text.utf8))
    #expect(
      Ingest.pairs(result) == [
        Pair(word: "the", count: 1_000_000), Pair(word: "of", count: 500_000),
        Pair(word: "and", count: 1_000_000 / 3.0), Pair(word: "日本語", count: 250_000),
      ])
    #expect(result.entries.map(\.line) == [2, 4, 6, 7])
    #expect(result.report.format == .bare)
  }

  @Test("skipped invalid lines keep their rank in a bare list")
  func bareRankWithSkippedLines() throws {
    let result = try Ingest.read("one\ntw o\nthree\n", options: .init(skipInvalid: true))
    #expect(
      Ingest.pairs(result) == [
        Pair(word: "one", count: 1_000_000), Pair(word: "three", count: 1_000_000 / 3.0),
      ])
    #expect(result.report.skipped == 1)
  }

  @Test(
    "AOSP combined lists: f is a log-scale frequency, 10^(f/32); shortcuts join their entry, not_a_word is a misspelling, bigrams are ignored"
  )
  func aosp() throws {
    let path = try IngestFixture.path("aosp-combined.txt")
    var entries: [WordListEntry] = []
    let report = try readWordList(atPath: path) { entries.append($0) }
    #expect(
      entries.map { Pair(word: $0.word, count: $0.count) } == [
        Pair(word: "the", count: AOSPLine.count(forFrequency: 222)),
        Pair(word: "of", count: AOSPLine.count(forFrequency: 214)),
        Pair(word: "I'm", count: AOSPLine.count(forFrequency: 200)),
        Pair(word: "xyzzy", count: AOSPLine.count(forFrequency: 0)),
        Pair(word: "café", count: AOSPLine.count(forFrequency: 120)),
      ])
    #expect(entries.map(\.line) == [2, 3, 5, 7, 8])
    #expect(entries.map(\.isMisspelling) == [false, false, false, true, false])
    #expect(entries[1].shortcuts == [Shortcut(target: "of-course", isWhitelisted: true, frequency: 255)])
    #expect(entries.allSatisfy { $0.marks.isEmpty })  // possibly_offensive=false
    #expect(report.format == .aosp)
    #expect(report.entries == 5)
    #expect(report.misspellings == 1)
    #expect(report.shortcuts == 1)
    #expect(report.ignored == 1)
    #expect(report.skipped == 0)
    #expect(report.lines == 8)
  }

  @Test("AOSP marks, misspellings and shortcuts as the lists ship them, in any chunking")
  func aospMarksAndShortcuts() throws {
    let text = """
      dictionary=main:en,locale=en
       word=ill,f=112,flags=,originalFreq=128
        shortcut=I'll,f=whitelist
        bigram=be,f=3
       word=coeur,f=103
        shortcut=cœur,f=14
        shortcut=cœurs,f=12
       word=sex,f=135,flags=,originalFreq=135,possibly_offensive=true
       word=km,f=155,flags=abbreviation,originalFreq=155
       word=AMD,f=0,flags=abbreviation,possibly_offensive=true
       word=acomodate,f=0,not_a_word=true
        shortcut=accommodate,f=whitelist
       word=a priori,f=90
        shortcut=apriori,f=whitelist
      """
    let result = try Ingest.readInChunks(Array(text.utf8))
    let byWord = Dictionary(uniqueKeysWithValues: result.entries.map { ($0.word, $0) })
    #expect(result.entries.map(\.word) == ["ill", "coeur", "sex", "km", "AMD", "acomodate"])
    #expect(byWord["ill"]?.shortcuts == [Shortcut(target: "I'll", isWhitelisted: true, frequency: 255)])
    #expect(
      byWord["coeur"]?.shortcuts == [
        Shortcut(target: "cœur", isWhitelisted: false, frequency: 14),
        Shortcut(target: "cœurs", isWhitelisted: false, frequency: 12),
      ])
    #expect(byWord["sex"]?.marks == .possiblyOffensive)
    #expect(byWord["km"]?.marks == .abbreviation)
    #expect(byWord["AMD"]?.marks == [.abbreviation, .possiblyOffensive])
    #expect(byWord["acomodate"]?.isMisspelling == true)
    #expect(byWord["acomodate"]?.shortcuts.map(\.target) == ["accommodate"])
    // The shortcut below a phrase stays with the phrase, kept apart: ignored.
    #expect(result.report.multiWord == 1)
    #expect(result.report.shortcuts == 4)
    #expect(result.report.ignored == 2)  // the bigram and the phrase's shortcut
    #expect(result.report.misspellings == 1)
    #expect(result.report.entries == 6)
  }

  @Test("with skipInvalid, the shortcuts of a skipped entry do not join the entry before")
  func aospShortcutsOfASkippedEntry() throws {
    let text = """
      dictionary=main:en
       word=good,f=200
       word=acomodate,f=bogus,not_a_word=true
        shortcut=accommodate,f=whitelist
       word=accommodate,f=100
        shortcut=acc,f=3
      """
    let result = try Ingest.readInChunks(Array(text.utf8), options: .init(skipInvalid: true))
    #expect(result.entries.map(\.word) == ["good", "accommodate"])
    #expect(result.entries[0].shortcuts.isEmpty)
    #expect(result.entries[1].shortcuts.map(\.target) == ["acc"])
    #expect(result.report.skipped == 1 && result.report.ignored == 1 && result.report.shortcuts == 1)
  }

  @Test("flags are read as words: abbreviation, not nonabbreviation")
  func aospFlagTokens() throws {
    let result = try Ingest.read(
      "dictionary=main:en\n word=a,f=1,flags=medical:abbreviation\n word=b,f=1,flags=nonabbreviation\n")
    #expect(result.entries.map(\.marks) == [.abbreviation, []])
  }

  @Test("a shortcut before any entry is ignored, not attached to the header")
  func aospShortcutFirst() throws {
    let result = try Ingest.read("dictionary=main:en\n  shortcut=x,f=whitelist\n word=a,f=1\n")
    #expect(result.entries.map(\.word) == ["a"])
    #expect(result.entries[0].shortcuts.isEmpty)
    #expect(result.report.ignored == 1)
  }

  @Test("AOSP phrases (word=parce que) are kept apart and counted, not errors")
  func aospPhrases() throws {
    let text = """
      dictionary=main:fr
       word=le,f=220
       word=parce que,f=180
       word=a priori,f=120,flags=
       word=de,f=219
      """
    let result = try Ingest.readInChunks(Array(text.utf8))
    #expect(result.entries.map(\.word) == ["le", "de"])
    #expect(result.report.multiWord == 2)
    #expect(result.report.multiWordExamples == ["parce que", "a priori"])
    #expect(result.report.skipped == 0 && result.report.warnings.isEmpty)
  }

  @Test("AOSP attributes: unknown ones, empty ones, the last repeat wins")
  func aospAttributes() throws {
    let text = """
      dictionary=main:de
       word=b,originalFreq=9,f=5
      \tword=a=b,f=1,,unknown=x,f=2,
       word=c,f=3,not_a_word=false
      """
    let result = try Ingest.read(text)
    #expect(
      Ingest.pairs(result) == [
        Pair(word: "b", count: AOSPLine.count(forFrequency: 5)),
        Pair(word: "a=b", count: AOSPLine.count(forFrequency: 2)),
        Pair(word: "c", count: AOSPLine.count(forFrequency: 3)),
      ])
  }

  @Test("a byte-order mark at the start is skipped, and columns count after it")
  func byteOrderMark() throws {
    let result = try Ingest.readInChunks([0xEF, 0xBB, 0xBF] + Array("hello\t5\nworld\t3\n".utf8))
    #expect(Ingest.pairs(result) == [Pair(word: "hello", count: 5), Pair(word: "world", count: 3)])
    let bare = try Ingest.read([0xEF, 0xBB, 0xBF] + Array("hello\n".utf8))
    #expect(bare.report.format == .bare)
    let error = try #require(Ingest.error([0xEF, 0xBB, 0xBF] + Array("a b\t1\n".utf8)))
    #expect(error.location == InputLocation(file: "test.tsv", line: 1, column: 2))
  }

  @Test("a byte-order mark does not count toward the line limit")
  func byteOrderMarkAndLineLimit() throws {
    let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
    let options = WordListReadOptions(maxLineBytes: 10)
    let fits = try Ingest.readInChunks(mark + Array("abcdefghij\r\n".utf8), options: options)
    #expect(fits.entries.map(\.word) == ["abcdefghij"])
    let error = try #require(Ingest.error(mark + Array("abcdefghijk\n".utf8), options: options))
    #expect(error.location == InputLocation(file: "test.tsv", line: 1, column: 11))
    #expect(error.message == "line is 11 bytes long, over the limit of 10")
  }

  @Test("a byte-order mark that is not at the start of the file is part of the word")
  func byteOrderMarkLater() throws {
    let result = try Ingest.read("a\t1\n\u{FEFF}b\t2\n")
    #expect(result.entries.last?.word == "\u{FEFF}b")
  }

  @Test("CRLF and LF line endings, mixed, with and without a final newline")
  func lineEndings() throws {
    let text = "a\t1\r\nb\t2\nc\t3\r\n\r\nd\t4"
    let result = try Ingest.readInChunks(Array(text.utf8))
    #expect(
      Ingest.pairs(result) == [
        Pair(word: "a", count: 1), Pair(word: "b", count: 2), Pair(word: "c", count: 3),
        Pair(word: "d", count: 4),
      ])
    #expect(result.report.lines == 5)
    let bare = try Ingest.read("x\r\ny\r\n")
    #expect(bare.entries.map(\.word) == ["x", "y"])
  }

  @Test("comments, blank lines and trailing spaces are skipped")
  func commentsAndBlanks() throws {
    let text = "# header\n\n   \n\t\n#a\t1\nthe\t5  \n# the end"
    let result = try Ingest.readInChunks(Array(text.utf8))
    #expect(Ingest.pairs(result) == [Pair(word: "the", count: 5)])
    #expect(result.entries.first?.line == 6)
    #expect(result.report.lines == 7)
    #expect(result.report.format == .counted)
  }

  @Test("the first data line decides the format, even after comments")
  func formatDecision() throws {
    #expect(try Ingest.read("# c\nword\n").report.format == .bare)
    #expect(try Ingest.read("# c\nword 1\n").report.format == .counted)
    #expect(try Ingest.read("word   \n").report.format == .bare)
    #expect(try Ingest.read("dictionary=x\n word=a,f=1\n").report.format == .aosp)
  }

  @Test("words are returned exactly as written, without normalization")
  func noNormalization() throws {
    let decomposed = "cafe\u{301}"
    let result = try Ingest.read("\(decomposed)\t1\nCafé\t2\n")
    #expect(
      result.entries.map { Array($0.word.unicodeScalars) } == [
        Array(decomposed.unicodeScalars), Array("Café".unicodeScalars),
      ])
  }

  @Test("a 2 MB line reads when the line limit allows it; its word is then refused for its length")
  func longLineWithinLimit() throws {
    let word = [UInt8](repeating: UInt8(ascii: "a"), count: 2 * 1024 * 1024)
    let options = WordListReadOptions(maxLineBytes: 4 * 1024 * 1024)
    for chunkSize in [WordListStream.readChunkBytes, 100_000] {
      let error = #expect(throws: WordListError.self) {
        try Ingest.read(word + [0x0A], options: options, chunkSize: chunkSize)
      }
      // Past the line limit (lineTooLong), to the word's: a blob holds words of 128 scalars.
      #expect(error?.reason == .wordTooLong || error?.reason == .noEntries, "\(String(describing: error))")
      #expect(error.map { "\($0)" }?.contains("a word of 2097152 characters") == true)
    }
  }

  @Test("a comment longer than the line limit is still a comment")
  func longComment() throws {
    let comment = [UInt8(ascii: "#")] + [UInt8](repeating: 0x41, count: 100)
    let bytes = comment + Array("\nword\t1\n".utf8)
    let result = try Ingest.readInChunks(bytes, options: .init(maxLineBytes: 10))
    #expect(result.entries.map(\.word) == ["word"])
    #expect(result.report.skipped == 0)
  }

  @Test("readWordList reads files from disk, and a path that is a directory is an I/O error")
  func files() throws {
    let directory = try IngestTemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write("en.tsv", Array("a\t1\nb\t2\n".utf8))
    var words: [String] = []
    let report = try readWordList(atPath: path) { words.append($0.word) }
    #expect(words == ["a", "b"])
    #expect(report.file == path)
    #expect(report.checksum == IngestCRC32C.checksum(Array("a\t1\nb\t2\n".utf8)))

    let missing = directory.url.appendingPathComponent("missing.tsv").path
    let openError = #expect(throws: InputFileError.self) {
      try readWordList(atPath: missing) { _ in }
    }
    #expect(openError?.operation == .open)
    #expect(openError?.code == 2)  // ENOENT
    #expect(
      openError?.description == "\(missing): error: cannot open the file: No such file or directory"
    )

    let readError = #expect(throws: InputFileError.self) {
      try readWordList(atPath: directory.url.path) { _ in }
    }
    // Refused at open, saying what the path is.
    #expect(readError?.operation == .open)
    #expect(readError?.reason == "it is a directory, not a file or a pipe")
  }

  @Test("an error thrown by the body ends the read and is rethrown")
  func bodyErrors() throws {
    struct Stop: Error {}
    var seen = 0
    #expect(throws: Stop.self) {
      var stream = WordListStream(file: "x", options: .init())
      try stream.consume(Array("a\t1\nb\t2\nc\t3\n".utf8)[...]) { _ in
        seen += 1
        if seen == 2 { throw Stop() }
      }
    }
    #expect(seen == 2)
  }
}
