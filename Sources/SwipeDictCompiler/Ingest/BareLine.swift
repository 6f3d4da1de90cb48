/// One line of a bare list: a word and nothing else, most frequent first.
///
/// A bare list has no counts: the entry on the k-th data line (k = 1, 2, …; comments and
/// blank lines are not data lines, skipped invalid lines are) gets the count
/// `1_000_000 / k`, so the order of the file is the order of frequency.
enum BareLine {
  /// The count of the entry on the k-th data line.
  /// - Parameter rank: k, the 1-based index of the data line.
  /// - Returns: `1_000_000 / rank`.
  static func count(rank: Int) -> Double { 1_000_000 / Double(rank) }

  /// Checks a data line of a bare list.
  /// - Parameters:
  ///   - line: the line, checked by ``LineText/check(_:)``, trailing spaces trimmed.
  ///   - isASCII: whether the line is plain ASCII.
  /// - Throws: ``LineProblem`` for whitespace in the word.
  static func check(_ line: ArraySlice<UInt8>, isASCII: Bool) throws(LineProblem) {
    if let (index, scalar) = LineText.firstWhitespace(in: line, isASCII: isASCII) {
      throw LineProblem(
        reason: .whitespaceInWord, index: index,
        message: "word contains \(LineText.describeWhitespace(scalar))",
        hint: "this file is read as a bare list (one word per line) because its first data"
          + " line has no count; remove the whitespace, or give every line word<TAB>count")
    }
  }
}
