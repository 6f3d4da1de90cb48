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
  static func parse(
    _ line: ArraySlice<UInt8>, isASCII: Bool
  ) throws(LineProblem) -> (word: Range<Int>, count: Double) {
    let start = line.startIndex
    let end = line.endIndex
    var countStart = end
    while countStart > start && !LineText.isSpaceOrTab(line[countStart - 1]) { countStart -= 1 }
    var separator = countStart
    while separator > start && LineText.isSpaceOrTab(line[separator - 1]) { separator -= 1 }
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

  private static func extraColumn(at index: Int, _ message: String) -> LineProblem {
    LineProblem(
      reason: .extraColumn, index: index, message: message,
      hint: "a counted line has exactly two columns, word<TAB>count; remove the extra"
        + " columns (for example: cut -f1,2 in.tsv > out.tsv)")
  }
}
