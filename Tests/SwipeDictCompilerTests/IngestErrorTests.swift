import Testing

@testable import SwipeDictCompiler

/// A bad input and the error it must give.
struct IngestBadLine: Sendable, CustomTestStringConvertible {
  var name: String
  var bytes: [UInt8]
  var line: Int
  var column: Int
  var reason: WordListError.Reason
  var message: String?
  var maxLineBytes = 64 * 1024

  var testDescription: String { name }

  init(
    _ name: String, _ text: String, line: Int, column: Int, _ reason: WordListError.Reason,
    message: String? = nil, maxLineBytes: Int = 64 * 1024
  ) {
    self.init(
      name, Array(text.utf8), line: line, column: column, reason, message: message,
      maxLineBytes: maxLineBytes)
  }

  init(
    _ name: String, _ bytes: [UInt8], line: Int, column: Int, _ reason: WordListError.Reason,
    message: String? = nil, maxLineBytes: Int = 64 * 1024
  ) {
    self.name = name
    self.bytes = bytes
    self.line = line
    self.column = column
    self.reason = reason
    self.message = message
    self.maxLineBytes = maxLineBytes
  }

  static let all: [IngestBadLine] = [
    // Encoding, in every format.
    IngestBadLine(
      "invalid UTF-8 sequence", Array("a\t1\ncaf".utf8) + [0xC3, 0x28] + Array("\t2\n".utf8),
      line: 2, column: 4, .invalidUTF8,
      message: "invalid UTF-8: the sequence starting with 0xC3 is cut short"),
    IngestBadLine(
      "stray continuation byte", Array("a\t1\nb".utf8) + [0x80] + Array("c\t2\n".utf8),
      line: 2, column: 2, .invalidUTF8,
      message: "invalid UTF-8: unexpected continuation byte 0x80"),
    IngestBadLine(
      "byte never in UTF-8", Array("a\nbb".utf8) + [0xFF] + Array("\n".utf8),
      line: 2, column: 3, .invalidUTF8),
    IngestBadLine(
      "overlong encoding", Array("a\n".utf8) + [0xE0, 0x80, 0xAF] + Array("\n".utf8),
      line: 2, column: 1, .invalidUTF8),
    IngestBadLine(
      "UTF-16 surrogate", Array("a\nxy".utf8) + [0xED, 0xA0, 0x80] + Array("\n".utf8),
      line: 2, column: 3, .invalidUTF8),
    IngestBadLine(
      "sequence cut by the end of the line", Array("a\nxy".utf8) + [0xE2, 0x82] + Array("\n".utf8),
      line: 2, column: 3, .invalidUTF8),
    IngestBadLine(
      "UTF-16 file", [0xFF, 0xFE, 0x61, 0x00, 0x0A], line: 1, column: 1, .invalidUTF8,
      message: "the file is UTF-16 (it starts with the byte-order mark 0xFF 0xFE)"),
    IngestBadLine(
      "NUL byte", "a\t1\nb\u{0}c\t2\n", line: 2, column: 2, .nulByte, message: "NUL byte"),
    IngestBadLine(
      "control character", "a\t1\nab\u{1}\t2\n", line: 2, column: 3, .controlCharacter,
      message: "control character U+0001"),
    IngestBadLine("DEL", "a\nab\u{7F}\n", line: 2, column: 3, .controlCharacter),
    IngestBadLine("C1 control", "a\nab\u{85}\n", line: 2, column: 3, .controlCharacter),
    IngestBadLine(
      "CR inside a line", "a\t1\nab\rc\t2\n", line: 2, column: 3, .controlCharacter,
      message: "carriage return (CR) inside a line"),
    // Counted lists.
    IngestBadLine(
      "empty word", "a\t1\n\t2\n", line: 2, column: 1, .emptyWord,
      message: "empty word: the line starts with whitespace"),
    IngestBadLine(
      "space in a word", "a\t1\nnew york\t2\n", line: 2, column: 4, .whitespaceInWord,
      message: "word contains a space"),
    IngestBadLine(
      "no-break space in a word", "a\t1\nnew\u{A0}york\t2\n", line: 2, column: 4,
      .whitespaceInWord, message: "word contains whitespace U+00A0"),
    IngestBadLine(
      "ideographic space in a word", "a\t1\n日本\u{3000}語 2\n", line: 2, column: 7,
      .whitespaceInWord),
    IngestBadLine(
      "missing count", "a\t1\nword\n", line: 2, column: 5, .missingCount,
      message: "missing count: expected word<TAB>count"),
    IngestBadLine(
      "non-numeric count", "a\t1\nword\tabc\n", line: 2, column: 6, .invalidCount,
      message: "count \"abc\" is not a number"),
    IngestBadLine(
      "negative count", "a\t1\nthe\t-3\n", line: 2, column: 5, .negativeCount,
      message: "count \"-3\" is negative"),
    IngestBadLine("a lone minus", "a\t1\nthe\t-\n", line: 2, column: 5, .invalidCount),
    IngestBadLine("plus sign", "a\t1\nthe\t+3\n", line: 2, column: 5, .invalidCount),
    IngestBadLine("exponent", "a\t1\nthe\t1e5\n", line: 2, column: 5, .invalidCount),
    IngestBadLine("point without fraction", "a\t1\nthe\t12.\n", line: 2, column: 5, .invalidCount),
    IngestBadLine("point without integer", "a\t1\nthe\t.5\n", line: 2, column: 5, .invalidCount),
    IngestBadLine("digit separator", "a\t1\nthe\t1,000\n", line: 2, column: 5, .invalidCount),
    IngestBadLine(
      "count over 2^53", "a\t1\nw\t9007199254740993\n", line: 2, column: 3, .countTooLarge,
      message: "count \"9007199254740993\" is larger than 2^53 (9007199254740992)"),
    IngestBadLine(
      "count far over UInt64", "a\t1\nw\t123456789012345678901234567890\n", line: 2, column: 3,
      .countTooLarge),
    IngestBadLine(
      "decimal count over 2^53", "a\t1\nw\t9007199254740993.5\n", line: 2, column: 3,
      .countTooLarge),
    IngestBadLine(
      "extra TAB column", "a\t1\nw\t2\tnoun\n", line: 2, column: 5, .extraColumn,
      message: "unknown mark \"noun\" in the third column (or an extra column after the count)"),
    IngestBadLine(
      "an unknown mark after a known one", "a\t1\nw\t2\tpossibly_offensive,rude\n", line: 2,
      column: 24, .extraColumn,
      message: "unknown mark \"rude\" in the third column (or an extra column after the count)"),
    IngestBadLine(
      "an empty mark", "a\t1\nw\t2\tabbreviation,\n", line: 2, column: 18, .extraColumn,
      message: "empty mark in the third column \"abbreviation,\""),
    IngestBadLine(
      "a fourth column", "a\t1\nw\t2\tabbreviation\tnoun\n", line: 2, column: 18, .extraColumn,
      message: "unknown mark \"noun\" in the third column (or an extra column after the count)"),
    IngestBadLine(
      "a numeric third column", "a\t1\nw\t2\t3\n", line: 2, column: 4, .extraColumn,
      message: "extra column after the count"),
    IngestBadLine(
      "marks after a space, not a TAB", "a\t1\nw\t2 possibly_offensive\n", line: 2, column: 4,
      .extraColumn, message: "extra column after the count"),
    IngestBadLine(
      "trailing TAB", "a\t1\nw\t2\t\n", line: 2, column: 4, .extraColumn,
      message: "a TAB after the count starts an empty third column"),
    IngestBadLine(
      "line over the limit", "a\t1\n" + String(repeating: "x", count: 20) + "\t1\n",
      line: 2, column: 11, .lineTooLong, message: "line is 22 bytes long, over the limit of 10",
      maxLineBytes: 10),
    IngestBadLine(
      "line over the limit with CRLF", "a\t1\r\n" + String(repeating: "x", count: 20) + "\r\n",
      line: 2, column: 11, .lineTooLong, message: "line is 20 bytes long, over the limit of 10",
      maxLineBytes: 10),
    // Bare lists.
    IngestBadLine(
      "space in a bare word", "a\nb c\n", line: 2, column: 2, .whitespaceInWord,
      message: "word contains a space"),
    IngestBadLine(
      "TAB in a bare word", "a\nb\tc\n", line: 2, column: 2, .whitespaceInWord,
      message: "word contains a TAB"),
    // Words longer than a blob holds (128 scalars), in every format.
    IngestBadLine(
      "word of 129 letters", "a\t1\n" + String(repeating: "ä", count: 129) + "\t2\n", line: 2, column: 1,
      .wordTooLong, message: "a word of 129 characters, longer than the 128 a blob holds"),
    IngestBadLine(
      "bare word of 200 letters", "a\n" + String(repeating: "x", count: 200) + "\n", line: 2, column: 1,
      .wordTooLong),
    IngestBadLine(
      "AOSP word of 129 letters", "dictionary=main:en\n word=" + String(repeating: "y", count: 129) + ",f=1\n",
      line: 2, column: 7, .wordTooLong),
    // AOSP lists.
    IngestBadLine(
      "AOSP entry without the header", "a\t1\n word=the,f=222,flags=,originalFreq=222\n", line: 2, column: 1,
      .malformedLine, message: "an AOSP entry (word=…) without the list's dictionary= header line"),
    IngestBadLine(
      "AOSP negative f", "dictionary=main:en\n word=the,f=-1\n", line: 2, column: 13,
      .negativeCount, message: "frequency f= \"-1\" is negative"),
    IngestBadLine(
      "AOSP f beyond 255", "dictionary=main:en\n word=the,f=256\n", line: 2, column: 13,
      .countTooLarge, message: "f=256 is beyond AOSP's 0…255 frequency scale"),
    IngestBadLine(
      "AOSP shortcut without f", "dictionary=main:en\n word=ill,f=1\n  shortcut=I'll\n", line: 3,
      column: 16, .missingCount, message: "shortcut has no f="),
    IngestBadLine(
      "AOSP empty shortcut", "dictionary=main:en\n word=ill,f=1\n  shortcut=,f=whitelist\n",
      line: 3, column: 12, .emptyWord, message: "empty shortcut: shortcut= has no value"),
    IngestBadLine(
      "AOSP shortcut f beyond 255", "dictionary=main:en\n word=ill,f=1\n  shortcut=I'll,f=300\n",
      line: 3, column: 19, .countTooLarge, message: "f=300 is beyond AOSP's 0…255 frequency scale"),
    IngestBadLine(
      "AOSP missing f", "dictionary=main:en\n word=the,flags=\n", line: 2, column: 17,
      .missingCount, message: "entry has no f= count"),
    IngestBadLine(
      "AOSP empty f", "dictionary=main:en\n word=the,f=\n", line: 2, column: 13, .missingCount,
      message: "f= has no value"),
    IngestBadLine(
      "AOSP empty word", "dictionary=main:en\n word=,f=1\n", line: 2, column: 7, .emptyWord),
    IngestBadLine(
      "AOSP TAB in a word", "dictionary=main:en\n word=the\tend,f=1\n", line: 2, column: 10,
      .whitespaceInWord),
    IngestBadLine(
      "AOSP double space in a word", "dictionary=main:en\n word=the  end,f=1\n", line: 2, column: 10,
      .whitespaceInWord),
    IngestBadLine(
      "AOSP line that is no entry", "dictionary=main:en\n word=a,f=1\n  hello\n", line: 3,
      column: 3, .malformedLine, message: "expected an entry ' word=WORD,f=COUNT'"),
    IngestBadLine(
      "AOSP attribute without =", "dictionary=main:en\n word=the,f=1,junk\n", line: 2,
      column: 15, .malformedLine, message: "attribute \"junk\" is not key=value"),
    IngestBadLine(
      "AOSP second header", "dictionary=main:en\n word=a,f=1\ndictionary=main:de\n", line: 3,
      column: 1, .malformedLine, message: "a second dictionary= header"),
  ]

  var options: WordListReadOptions { WordListReadOptions(maxLineBytes: maxLineBytes) }
}

@Suite("Ingest: errors", .timeLimit(.minutes(1)))
struct IngestErrorTests {
  @Test("each bad line is reported at its exact line and column", arguments: IngestBadLine.all)
  func badLine(_ bad: IngestBadLine) throws {
    for chunkSize in [1, 3, 4096] {
      let error = #expect(throws: WordListError.self) {
        try Ingest.read(bad.bytes, file: "en.tsv", options: bad.options, chunkSize: chunkSize)
      }
      let found = try #require(error)
      #expect(found.location == InputLocation(file: "en.tsv", line: bad.line, column: bad.column))
      #expect(found.reason == bad.reason)
      if let message = bad.message { #expect(found.message == message) }
      #expect(!found.hint.isEmpty)
    }
  }

  @Test("each bad line is skipped and counted with skipInvalid", arguments: IngestBadLine.all)
  func badLineSkipped(_ bad: IngestBadLine) throws {
    // A valid line after the bad one, in the file's format.
    let text = String(decoding: bad.bytes, as: UTF8.self)
    let tail: String
    if text.hasPrefix("dictionary=") {
      tail = " word=zz,f=1\n"
    } else if bad.bytes.starts(with: Array("a\t1".utf8)) {
      tail = "zz\t1\n"
    } else {
      tail = "zz\n"
    }
    var options = bad.options
    options.skipInvalid = true
    let result = try Ingest.read(bad.bytes + Array(tail.utf8), file: "en.tsv", options: options)
    #expect(result.report.skipped == 1)
    #expect(result.report.warnings.count == 1)
    #expect(result.report.warnings.first?.location.line == bad.line)
    #expect(result.report.warnings.first?.location.column == bad.column)
    #expect(result.report.warnings.first?.reason == bad.reason)
    #expect(result.entries.last?.word == "zz")
  }

  @Test("the description is compiler-style with the hint on a second line")
  func description() throws {
    let error = try #require(Ingest.error(Array("a\t1\nthe\t-3\n".utf8), file: "en.tsv"))
    #expect(
      error.description
        == "en.tsv:2:5: error: count \"-3\" is negative\n"
        + "  hint: counts are non-negative integers or decimals (word<TAB>count)")
    let empty = try #require(Ingest.error([], file: "en.tsv"))
    #expect(empty.description.hasPrefix("en.tsv: error: the file is empty\n  hint: "))
    #expect(InputLocation(file: "en.tsv", line: 3, column: 0).description == "en.tsv:3")
    #expect(InputLocation(file: "en.tsv", line: 3, column: 7).description == "en.tsv:3:7")
  }

  @Test("skipInvalid counts every bad line and keeps the first 100 warnings")
  func skipCounts() throws {
    var text = "good\t1\n"
    for index in 0..<250 { text += index % 2 == 0 ? "bad\t-\(index)\n" : "ok\(index)\t\(index)\n" }
    text += "bad line\n"
    let result = try Ingest.read(text, options: .init(skipInvalid: true))
    #expect(result.report.skipped == 126)
    #expect(result.report.entries == 126)
    #expect(result.report.warnings.count == 100)
    #expect(result.report.warnings.map(\.location.line) == Array(stride(from: 2, to: 202, by: 2)))
    #expect(result.report.lines == 252)
  }

  @Test("a 2 MB line over the limit is skipped without buffering and reported with its length")
  func twoMegabyteLine() throws {
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: 2 * 1024 * 1024)
    let bytes = Array("a\t1\n".utf8) + long + Array("\t7\r\nb\t2\n".utf8)
    let limit = 64 * 1024
    let error = try #require(Ingest.error(bytes))
    #expect(error.location == InputLocation(file: "test.tsv", line: 2, column: limit + 1))
    #expect(error.message == "line is \(long.count + 2) bytes long, over the limit of \(limit)")
    let skipped = try Ingest.read(bytes, options: .init(skipInvalid: true), chunkSize: 10_000)
    #expect(skipped.entries.map(\.word) == ["a", "b"])
    #expect(skipped.report.skipped == 1)
    #expect(skipped.report.lines == 3)
  }

  @Test("a single 2 MB line without a newline is reported as too long")
  func twoMegabyteLastLine() throws {
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: 2 * 1024 * 1024)
    let error = try #require(Ingest.error(long))
    #expect(error.location.line == 1)
    #expect(error.reason == .lineTooLong)
  }

  @Test("files without entries are file-level errors, even with skipInvalid")
  func noEntries() throws {
    let cases: [(String, Int, String)] = [
      ("", 0, "the file is empty"),
      ("# only\n\n# comments\n", 3, "no entries: the file has only comments and blank lines"),
      (
        "a\t-1\nb\t-2\n", 2,
        "no entries: all 2 data lines are invalid, for example:\n  test.tsv:1:3: count \"-1\" is negative"
          + "\n  test.tsv:2:3: count \"-2\" is negative"
      ),
      (
        "a\t-1\nb\t-2\nc\t-3\nd\t-4\n", 4,
        "no entries: all 4 data lines are invalid, for example:\n  test.tsv:1:3: count \"-1\" is negative"
          + "\n  test.tsv:2:3: count \"-2\" is negative\n  test.tsv:3:3: count \"-3\" is negative\n  … and 1 more"
      ),
      ("dictionary=main:en\n", 1, "no entries: the AOSP list has a header and no word= lines"),
      (
        "dictionary=main:en\n shortcut=x,f=1\n bigram=y,f=1\n", 3,
        "no entries: every line is a bigram or shortcut line, or a phrase"
      ),
      (
        "dictionary=main:fr\n word=parce que,f=1\n", 2,
        "no entries: every entry is a phrase of several words (1 kept apart)"
      ),
    ]
    for (text, line, message) in cases {
      let error = try #require(
        Ingest.error(Array(text.utf8), options: .init(skipInvalid: true)))
      #expect(error.reason == .noEntries)
      #expect(error.location == InputLocation(file: "test.tsv", line: line, column: 0))
      #expect(error.message == message)
    }
  }
}
