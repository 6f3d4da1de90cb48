/// One line of a counted list: `word<TAB>count` or `word count`.
///
/// The line splits at its last run of spaces and TABs; the word before it may contain no
/// whitespace, the count after it follows ``CountField``. A TAB before that run means a
/// third column (`word<TAB>count<TAB>tag`, common in TSV exports), which is an error.
enum CountedLine {
  static let countHint = "counts are non-negative integers or decimals (word<TAB>count)"

  /// Parses a data line of a counted list.
  /// - Parameters:
  ///   - line: the line, checked by ``LineText/check(_:)``, trailing spaces trimmed.
  ///   - isASCII: whether the line is plain ASCII.
  /// - Returns: the word's byte range and the count.
  /// - Throws: ``LineProblem`` for an extra column, a missing count, an empty word,
  ///   whitespace in the word or a bad count.
  /// - Parameter pair: the word field is two words and one space (`w1 w2<TAB>count`): the
  ///   count must follow a TAB, and the range returned spans both words.
  static func parse(
    _ line: ArraySlice<UInt8>, isASCII: Bool, pair: Bool = false
  ) throws(LineProblem) -> (word: Range<Int>, count: Double) {
    let start = line.startIndex
    let end = line.endIndex
    var countStart = end
    while countStart > start && !LineText.isSpaceOrTab(line[countStart - 1]) { countStart -= 1 }
    var separator = countStart
    while separator > start && LineText.isSpaceOrTab(line[separator - 1]) { separator -= 1 }
    if pair { return try parsePair(line, countStart: countStart, separator: separator, isASCII: isASCII) }
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
    return (start..<separator, count)
  }

  /// A bigram line: `w1 w2<TAB>count`, the words without whitespace, one space between them.
  private static func parsePair(
    _ line: ArraySlice<UInt8>, countStart: Int, separator: Int, isASCII: Bool
  ) throws(LineProblem) -> (word: Range<Int>, count: Double) {
    let start = line.startIndex
    let end = line.endIndex
    let pairHint = "a bigram list has lines w1 w2<TAB>count (or w1 w2 count): two words, one space between them, then the count"
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
      throw LineProblem(reason: .malformedLine, index: start, message: "expected two words separated by a space", hint: pairHint)
    }
    for part in [line[start..<space], line[(space + 1)..<separator]] {
      if let (index, scalar) = LineText.firstWhitespace(in: part, isASCII: isASCII) {
        let message = part.contains(LineText.tab)
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
