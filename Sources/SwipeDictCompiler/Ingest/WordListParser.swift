/// Turns the lines of one word list into entries: skips comments and blank lines, decides
/// the format from the first data line, and reports or counts bad lines.
///
/// Lines are numbered from 1 (a byte-order mark is already gone: ``WordListStream`` drops
/// it). Trailing spaces are ignored in every format.
import SwipeDictFormat

struct WordListParser {
  let file: String
  let options: WordListReadOptions
  private(set) var format: WordListFormat?
  private(set) var lines = 0
  /// Lines that are neither comments nor blank, including invalid and too-long ones.
  private(set) var dataLines = 0
  private(set) var entries = 0
  private(set) var skipped = 0
  private(set) var ignored = 0
  /// AOSP phrases kept apart, and the first few of them.
  private(set) var multiWord = 0
  private(set) var multiWordExamples: [String] = []
  /// AOSP misspellings (`not_a_word=true`) and shortcuts attached to entries.
  private(set) var misspellings = 0
  private(set) var shortcuts = 0
  private(set) var warnings: [WordListError] = []
  /// The last AOSP entry, held until the line after it so its `shortcut=` lines join it.
  private var pending: WordListEntry?
  /// Whether `shortcut=` lines now belong to no entry: a phrase (kept apart with it) or a
  /// line skipped as invalid; they must not join the entry before.
  private var shortcutsHaveNoEntry = false

  static let maxWarnings = 100
  private static let comment = UInt8(ascii: "#")

  init(file: String, options: WordListReadOptions) {
    self.file = file
    self.options = options
  }

  /// Handles one line from the ``LineSplitter``.
  /// - Parameters:
  ///   - event: the line.
  ///   - body: receives the entry on the line, if any.
  /// - Throws: ``WordListError`` for a bad line unless `skipInvalid`; whatever `body` throws.
  mutating func consume(
    _ event: LineSplitter.Event, _ body: (WordListEntry) throws -> Void
  ) throws {
    lines += 1
    switch event {
    case .line(let line):
      try consumeLine(line, body)
    case .tooLong(let length, let prefix):
      if prefix.first == Self.comment { return }
      dataLines += 1
      try report(
        LineProblem(
          reason: .lineTooLong, index: options.maxLineBytes,
          message: "line is \(length) bytes long, over the limit of \(options.maxLineBytes)",
          hint: "check that the file has one entry per line, or raise the line limit"
            + " (maxLineBytes)"),
        lineStart: 0)
    }
  }

  /// Hands over the entry held for its shortcuts, at the end of the file.
  mutating func flush(_ body: (WordListEntry) throws -> Void) throws {
    if let entry = pending {
      pending = nil
      try body(entry)
    }
  }

  /// Checks that the file had an entry, at its end (after ``flush(_:)``).
  /// - Throws: ``WordListError`` with reason `.noEntries`.
  func finish() throws(WordListError) {
    guard entries == 0 else { return }
    let message: String
    if lines == 0 {
      message = "the file is empty"
    } else if dataLines == 0 {
      message = "no entries: the file has only comments and blank lines"
    } else if skipped == dataLines {
      // Say why: the first lines' errors, which --skip-invalid would otherwise only count.
      let first = warnings.prefix(3).map { "\n  \($0.location): \($0.message)" }.joined()
      let more = skipped > 3 ? "\n  … and \(skipped - 3) more" : ""
      message = "no entries: all \(dataLines) data lines are invalid, for example:\(first)\(more)"
    } else if format == .aosp && dataLines == 1 {
      message = "no entries: the AOSP list has a header and no word= lines"
    } else if multiWord > 0 && ignored == 0 {
      message = "no entries: every entry is a phrase of several words (\(multiWord) kept apart)"
    } else {
      message = "no entries: every line is a bigram or shortcut line, or a phrase"
    }
    throw WordListError(
      location: InputLocation(file: file, line: lines, column: 0), reason: .noEntries,
      message: message,
      hint: "a word list has an entry per line: word<TAB>count, a bare word, or an AOSP"
        + " ' word=WORD,f=COUNT' line after its dictionary= header")
  }

  private mutating func consumeLine(
    _ rawLine: ArraySlice<UInt8>, _ body: (WordListEntry) throws -> Void
  ) throws {
    guard let first = rawLine.first, first != Self.comment else { return }
    let line = LineText.trimmingTrailingSpaces(rawLine)
    if LineText.isBlank(line) { return }
    dataLines += 1
    let format = self.format ?? decideFormat(line)
    var word = 0..<0
    var count = 0.0
    var marks: WordMarks = []
    var previous: WordListEntry?
    do throws(LineProblem) {
      let isASCII = try LineText.check(line)
      switch format {
      case .counted:
        (word, count, marks) = try CountedLine.parse(line, isASCII: isASCII, pair: options.wordPairs)
      case .bare:
        try BareLine.check(line, isASCII: isASCII)
        (word, count) = (line.startIndex..<line.endIndex, BareLine.count(rank: dataLines))
      case .aosp:
        if dataLines == 1 { return }  // the dictionary= header
        switch try AOSPLine.parse(line, isASCII: isASCII) {
        case .entry(let entryWord, let entryCount, let marks, let isMisspelling):
          try Self.checkLength(line[entryWord])
          var entry = WordListEntry(
            word: String(decoding: line[entryWord], as: UTF8.self), count: entryCount, line: lines)
          entry.marks = marks
          entry.isMisspelling = isMisspelling
          if isMisspelling { misspellings += 1 }
          entries += 1
          shortcutsHaveNoEntry = false
          previous = pending
          pending = entry
        case .shortcut(let target, let isWhitelisted, let frequency):
          guard pending != nil, !shortcutsHaveNoEntry else {
            ignored += 1
            return
          }
          shortcuts += 1
          pending!.shortcuts.append(
            Shortcut(
              target: String(decoding: line[target], as: UTF8.self), isWhitelisted: isWhitelisted,
              frequency: frequency))
          return
        case .ignored:
          ignored += 1
          return
        case .multiWord(let phrase):
          multiWord += 1
          shortcutsHaveNoEntry = true
          if multiWordExamples.count < 5 { multiWordExamples.append(String(decoding: line[phrase], as: UTF8.self)) }
          return
        }
      }
      if format != .aosp { try Self.checkLength(line[word]) }
    } catch {
      try report(utf16Aware(headerless(error, line, format), line), lineStart: line.startIndex)
      return
    }
    if format == .aosp {
      // An AOSP entry waits for its shortcut= lines; the one before it is complete.
      if let previous { try body(previous) }
      return
    }
    entries += 1
    var entry = WordListEntry(word: String(decoding: line[word], as: UTF8.self), count: count, line: lines)
    entry.marks = marks
    try body(entry)
  }

  /// Decides the format from the first data line: AOSP after a `dictionary=` header,
  /// counted when the line has a space or TAB (after trailing spaces are trimmed), else bare.
  private mutating func decideFormat(_ line: ArraySlice<UInt8>) -> WordListFormat {
    let format: WordListFormat
    if options.wordPairs {
      format = .counted  // a bigram list is always w1 w2<TAB>count
    } else if line.starts(with: AOSPLine.header) {
      format = .aosp
    } else if line.contains(where: LineText.isSpaceOrTab) {
      format = .counted
    } else {
      format = .bare
    }
    self.format = format
    return format
  }

  /// Refuses a word longer than `BlobFormat.maxWordLength` Unicode scalars.
  private static func checkLength(_ word: ArraySlice<UInt8>) throws(LineProblem) {
    // Scalars are the bytes that do not continue a UTF-8 sequence (the line is valid UTF-8).
    guard word.count > BlobFormat.maxWordLength else { return }
    let scalars = word.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    guard scalars > BlobFormat.maxWordLength else { return }
    throw LineProblem(
      reason: .wordTooLong, index: word.startIndex,
      message: "a word of \(scalars) characters, longer than the \(BlobFormat.maxWordLength) a blob holds",
      hint: "remove the line (or build with --skip-invalid to skip such lines, counted)")
  }

  /// Says an AOSP entry line came without the list's header, rather than what the counted
  /// format makes of it (a word starting with whitespace).
  private func headerless(_ problem: LineProblem, _ line: ArraySlice<UInt8>, _ format: WordListFormat) -> LineProblem {
    guard format != .aosp, line.drop(while: LineText.isSpaceOrTab).starts(with: Array("word=".utf8)) else {
      return problem
    }
    return LineProblem(
      reason: .malformedLine, index: problem.index,
      message: "an AOSP entry (word=…) without the list's dictionary= header line",
      hint: "an AOSP combined list starts with a header such as dictionary=main:en,locale=en,version=1;"
        + " give the list as it ships, with its header")
  }

  /// Names UTF-16 when line 1 starts with its byte-order mark (FF FE or FE FF).
  private func utf16Aware(_ problem: LineProblem, _ line: ArraySlice<UInt8>) -> LineProblem {
    guard lines == 1, problem.index == line.startIndex,
      line.starts(with: [0xFF, 0xFE]) || line.starts(with: [0xFE, 0xFF])
    else { return problem }
    return LineProblem(
      reason: .invalidUTF8, index: problem.index,
      message: "the file is UTF-16 (it starts with the byte-order mark"
        + " \(LineText.hex(line[line.startIndex])) \(LineText.hex(line[line.startIndex + 1])))",
      hint: "convert it to UTF-8, for example: iconv -f utf-16 -t utf-8 in.txt > out.txt")
  }

  /// Throws a line's problem, or counts it when skipping invalid lines.
  private mutating func report(_ problem: LineProblem, lineStart: Int) throws(WordListError) {
    shortcutsHaveNoEntry = true
    let error = WordListError(
      location: InputLocation(file: file, line: lines, column: problem.index - lineStart + 1),
      reason: problem.reason, message: problem.message, hint: problem.hint)
    guard options.skipInvalid else { throw error }
    skipped += 1
    if warnings.count < Self.maxWarnings { warnings.append(error) }
  }
}
