import SwipeDictFormat

/// One line of a counted list: `word<TAB>count` or `word count`, optionally followed by a
/// TAB and the word's marks: `word<TAB>count<TAB>possibly_offensive`.
///
/// The line splits at its last run of spaces and TABs; the word before it may contain no
/// whitespace, the count after it follows ``CountField``. A third column after a TAB holds
/// marks, comma-separated: `possibly_offensive` (accepted, never suggested) and
/// `abbreviation`, AOSP's names for them (``WordMarks``). Any other third column
/// (`word<TAB>count<TAB>noun`, common in TSV exports) is an error, as is a fourth.
enum CountedLine {
  static let countHint = "counts are non-negative integers or decimals (word<TAB>count)"
  static let marksHint =
    "a third column holds the word's marks, separated by commas: possibly_offensive,"
    + " abbreviation (word<TAB>count<TAB>possibly_offensive); remove any other column"
    + " (for example: cut -f1,2 in.tsv > out.tsv)"
  /// The marks a third column may name, by name.
  static let markNames: [(name: [UInt8], mark: WordMarks)] = [
    (Array("possibly_offensive".utf8), .possiblyOffensive), (Array("abbreviation".utf8), .abbreviation),
  ]

  /// Parses a data line of a counted list.
  /// - Parameters:
  ///   - line: the line, checked by ``LineText/check(_:)``, trailing spaces trimmed.
  ///   - isASCII: whether the line is plain ASCII.
  /// - Returns: the word's byte range, the count and the marks of a third column.
  /// - Throws: ``LineProblem`` for an extra or unknown column, a missing count, an empty word,
  ///   whitespace in the word or a bad count.
  /// - Parameter pair: the word field is two words and one space (`w1 w2<TAB>count`): the
  ///   count must follow a TAB, and the range returned spans both words; no marks.
  static func parse(
    _ line: ArraySlice<UInt8>, isASCII: Bool, pair: Bool = false
  ) throws(LineProblem) -> (word: Range<Int>, count: Double, marks: WordMarks) {
    let start = line.startIndex
    let end = line.endIndex
    var countStart = end
    while countStart > start && !LineText.isSpaceOrTab(line[countStart - 1]) { countStart -= 1 }
    var separator = countStart
    while separator > start && LineText.isSpaceOrTab(line[separator - 1]) { separator -= 1 }
    if pair {
      let (word, count) = try parsePair(line, countStart: countStart, separator: separator, isASCII: isASCII)
      return (word, count, [])
    }
    // A third column of marks: it follows a TAB, starts with a letter (no count does), and
    // the line has two columns before it.
    if countStart < end, countStart > start, separator > start,
      (0x41...0x5A).contains(line[countStart] & 0xDF),
      line[separator..<countStart].contains(LineText.tab),
      line[start..<separator].contains(where: LineText.isSpaceOrTab)
    {
      let marks = try parseMarks(line[countStart..<end])
      let (word, count, _) = try parse(line[start..<separator], isASCII: isASCII)
      return (word, count, marks)
    }
    let beforeSeparator = line[start..<separator]
    if countStart == end && beforeSeparator.contains(where: LineText.isSpaceOrTab) {
      // Trailing spaces are trimmed, so the line ends with a TAB after word<TAB>count.
      throw extraColumn(at: separator, "a TAB after the count starts an empty third column")
    }
    guard countStart > start && countStart < end else {
      throw LineProblem(
        reason: .missingCount, index: end, message: "missing count: expected word<TAB>count",
        hint: "this file is read as word<TAB>count because its first data line has a count;"
          + " add a count or remove the line")
    }
    guard separator > start else {
      throw LineProblem(
        reason: .emptyWord, index: start, message: "empty word: the line starts with whitespace",
        hint: "remove the spaces or TABs before the word")
    }
    if let (index, scalar) = LineText.firstWhitespace(in: beforeSeparator, isASCII: isASCII) {
      if beforeSeparator.contains(LineText.tab) {
        throw extraColumn(at: separator, "extra column after the count")
      }
      throw LineProblem(
        reason: .whitespaceInWord, index: index,
        message: "word contains \(LineText.describeWhitespace(scalar))",
        hint: "the count follows the last space or TAB and everything before it is the word;"
          + " words cannot contain whitespace (multi-word phrases are not supported)")
    }
    let count = try CountField.parse(line[countStart..<end], name: "count", hint: countHint)
    return (start..<separator, count, [])
  }

  /// The marks of a third column: known mark names separated by commas, each once.
  private static func parseMarks(_ field: ArraySlice<UInt8>) throws(LineProblem) -> WordMarks {
    var marks: WordMarks = []
    var index = field.startIndex
    for name in field.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
      guard let known = markNames.first(where: { $0.name.elementsEqual(name) }) else {
        let text = String(decoding: name, as: UTF8.self)
        throw LineProblem(
          reason: .extraColumn, index: name.isEmpty ? index : name.startIndex,
          message: name.isEmpty
            ? "empty mark in the third column \"\(String(decoding: field, as: UTF8.self))\""
            : "unknown mark \"\(text)\" in the third column (or an extra column after the count)",
          hint: marksHint)
      }
      marks.insert(known.mark)
      index = name.endIndex + 1
    }
    return marks
  }

  /// A bigram line: `w1 w2<TAB>count`, the words without whitespace, one space between them.
  private static func parsePair(
    _ line: ArraySlice<UInt8>, countStart: Int, separator: Int, isASCII: Bool
  ) throws(LineProblem) -> (word: Range<Int>, count: Double) {
    let start = line.startIndex
    let end = line.endIndex
    let pairHint =
      "a bigram list has lines w1 w2<TAB>count (or w1 w2 count): two words, one space between them, then the count"
    guard separator > start, !LineText.isSpaceOrTab(line[start]) else {
      throw LineProblem(
        reason: .emptyWord, index: start, message: "empty word: the line starts with whitespace",
        hint: "remove the spaces or TABs before the first word")
    }
    // The count is the last field: after a TAB, or the third of three space-separated fields.
    let hasTab = line[start..<countStart].contains(LineText.tab)
    let fields = line[start..<end].split(whereSeparator: LineText.isSpaceOrTab).count
    guard countStart > start, countStart < end, hasTab || fields == 3 else {
      throw LineProblem(
        reason: .missingCount, index: end, message: "missing count: expected w1 w2<TAB>count", hint: pairHint)
    }
    let words = line[start..<separator]
    guard let space = words.firstIndex(of: UInt8(ascii: " ")), space > start, space + 1 < separator else {
      throw LineProblem(
        reason: .malformedLine, index: start, message: "expected two words separated by a space", hint: pairHint)
    }
    for part in [line[start..<space], line[(space + 1)..<separator]] {
      if let (index, scalar) = LineText.firstWhitespace(in: part, isASCII: isASCII) {
        let message =
          part.contains(LineText.tab)
          ? "extra column: expected w1 w2<TAB>count" : "word contains \(LineText.describeWhitespace(scalar))"
        throw LineProblem(
          reason: part.contains(LineText.tab) ? .extraColumn : .whitespaceInWord, index: index, message: message,
          hint: pairHint)
      }
    }
    let count = try CountField.parse(line[countStart..<end], name: "count", hint: countHint)
    return (start..<separator, count)
  }

  private static func extraColumn(at index: Int, _ message: String) -> LineProblem {
    LineProblem(
      reason: .extraColumn, index: index, message: message,
      hint: "a counted line has exactly two columns, word<TAB>count; remove the extra"
        + " columns (for example: cut -f1,2 in.tsv > out.tsv)")
  }
}
