#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One line of an Android (AOSP) combined word list, after its `dictionary=…` header.
///
///     dictionary=main:en,locale=en,description=English,date=1414726273,version=54
///      word=the,f=222,flags=,originalFreq=222
///       shortcut=thé,f=whitelist
///      word=xyzzy,f=0,not_a_word=true
///
/// An entry is a comma-separated list of `key=value` attributes that starts with `word=`,
/// as Android's dicttool expects. Attributes split at the first `=`, so words cannot
/// contain commas; empty attributes are skipped. Phrases (` word=parce que`) are not words
/// a swipe types: they are kept apart and counted (``Parsed/multiWord(word:)``). `word` is the word and `f` its frequency
/// on AOSP's 0…255 logarithmic scale, read as the count `10^(f/32)` (``count(forFrequency:)``);
/// unknown attributes are ignored, and the last of repeated attributes wins. `shortcut=`
/// and `bigram=` lines and entries with `not_a_word=true` carry no entry: they are counted
/// as ignored.
enum AOSPLine {
  /// What a line holds.
  enum Parsed {
    /// A word and the count its `f=` stands for.
    case entry(word: Range<Int>, count: Double)
    /// A shortcut, bigram or not-a-word line.
    case ignored
    /// An entry of several words separated by spaces (` word=parce que`): a phrase, not a
    /// word a swipe types; kept apart and counted.
    case multiWord(word: Range<Int>)
  }

  static let header: [UInt8] = Array("dictionary=".utf8)
  private static let wordKey: [UInt8] = Array("word".utf8)
  private static let entryPrefix: [UInt8] = Array("word=".utf8)
  private static let frequencyKey: [UInt8] = Array("f".utf8)
  private static let notAWordKey: [UInt8] = Array("not_a_word".utf8)
  private static let trueValue: [UInt8] = Array("true".utf8)
  private static let ignoredPrefixes: [[UInt8]] = [Array("shortcut=".utf8), Array("bigram=".utf8)]
  private static let lineHint =
    "after the dictionary= header, each line of an AOSP combined list is ' word=WORD,f=COUNT'"
    + " (optionally followed by shortcut= or bigram= lines)"

  /// Parses a line after the header.
  /// - Parameters:
  ///   - line: the line, checked by ``LineText/check(_:)``, trailing spaces trimmed.
  ///   - isASCII: whether the line is plain ASCII.
  /// - Returns: the entry, or `.ignored`.
  /// - Throws: ``LineProblem`` for a line that is no entry, an attribute without `=`, an
  ///   empty or spaced word, a missing or bad `f=`.
  static func parse(_ line: ArraySlice<UInt8>, isASCII: Bool) throws(LineProblem) -> Parsed {
    let end = line.endIndex
    var start = line.startIndex
    while start < end && LineText.isSpaceOrTab(line[start]) { start += 1 }
    let body = line[start..<end]
    if ignoredPrefixes.contains(where: { body.starts(with: $0) }) { return .ignored }
    guard body.starts(with: entryPrefix) else {
      throw LineProblem(
        reason: .malformedLine, index: start,
        message: body.starts(with: header)
          ? "a second dictionary= header" : "expected an entry ' word=WORD,f=COUNT'",
        hint: lineHint)
    }
    var word: Range<Int>?
    var frequency: Range<Int>?
    var notAWord = false
    var fieldStart = start
    while fieldStart <= end {
      let fieldEnd = body[fieldStart...].firstIndex(of: UInt8(ascii: ",")) ?? end
      let field = line[fieldStart..<fieldEnd]
      if field.isEmpty {  // "a,,b" or a trailing comma
        fieldStart = fieldEnd + 1
        continue
      }
      guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else {
        throw LineProblem(
          reason: .malformedLine, index: fieldStart,
          message: "attribute \"\(LineText.excerpt(field))\" is not key=value", hint: lineHint)
      }
      let key = line[fieldStart..<equals]
      let value = (equals + 1)..<fieldEnd
      if key.elementsEqual(wordKey) {
        word = value
      } else if key.elementsEqual(frequencyKey) {
        frequency = value
      } else if key.elementsEqual(notAWordKey) {
        notAWord = line[value].elementsEqual(trueValue)
      }
      fieldStart = fieldEnd + 1
    }
    if notAWord { return .ignored }
    // `word` is set: the line starts with "word=".
    let wordRange = word ?? start..<start
    guard !wordRange.isEmpty else {
      throw LineProblem(
        reason: .emptyWord, index: wordRange.lowerBound, message: "empty word: word= has no value",
        hint: "write the word after word=, or remove the line")
    }
    if Self.isPhrase(line[wordRange], isASCII: isASCII) { return .multiWord(word: wordRange) }
    if let (index, scalar) = LineText.firstWhitespace(in: line[wordRange], isASCII: isASCII) {
      throw LineProblem(
        reason: .whitespaceInWord, index: index,
        message: "word contains \(LineText.describeWhitespace(scalar))",
        hint: "AOSP words cannot contain whitespace; remove it or the line")
    }
    guard let frequency, !frequency.isEmpty else {
      throw LineProblem(
        reason: .missingCount, index: frequency?.lowerBound ?? end,
        message: frequency == nil ? "entry has no f= count" : "f= has no value",
        hint: "AOSP entries need f=COUNT (as in ' word=the,f=222'); add it or remove the line")
    }
    let f = try CountField.parse(
      line[frequency], name: "frequency f=",
      hint: "f= is AOSP's frequency from 0 to 255 (as in ' word=the,f=222')")
    guard f <= Self.largestFrequency else {
      throw LineProblem(
        reason: .countTooLarge, index: frequency.lowerBound,
        message: "f=\(f) is beyond AOSP's 0…255 frequency scale",
        hint: "AOSP frequencies run from 0 to 255 (log scale); for counts use a word<TAB>count list")
    }
    return .entry(word: wordRange, count: count(forFrequency: f))
  }

  /// Whether `word` is words separated by single spaces, as AOSP lists write phrases
  /// ("parce que", "a priori"): only U+0020, never at either end or twice in a row, and no
  /// other whitespace.
  static func isPhrase(_ word: ArraySlice<UInt8>, isASCII: Bool) -> Bool {
    let space = UInt8(ascii: " ")
    guard let first = word.first, let last = word.last, first != space, last != space,
      word.contains(space)
    else { return false }
    var previous: UInt8 = 0
    for byte in word {
      if byte == space, previous == space { return false }
      previous = byte
    }
    // No whitespace but the single spaces (a TAB or a no-break space is an error).
    let words = word.split(separator: space)
    return words.allSatisfy { LineText.firstWhitespace(in: $0, isASCII: isASCII) == nil }
  }

  /// The top of AOSP's frequency scale.
  static let largestFrequency = 255.0
  /// Frequency steps per factor of ten in counts.
  static let stepsPerDecade = 32.0

  /// The count an AOSP frequency `f` (0…255, logarithmic) stands for: `10^(f/32)`.
  ///
  /// AOSP lists rank words on a logarithmic scale, not by counts: reading `f` as a count
  /// flattened them (f 222 and 150 became frequency bytes 255 and 237). As a power, the
  /// blob's frequency byte is linear in `f` again (`f / max f × 255`), so a list's order
  /// and spacing survive into completion, correction and the decoder's prior. 32 steps a
  /// decade put the top of the scale near 10⁸, the range of counts per billion words that
  /// the project's other lists (wordfreq's) have and that the decoder's frequency weight was
  /// tuned on; f 0 is a count of 1.
  static func count(forFrequency f: Double) -> Double {
    pow(10, f / stepsPerDecade)
  }
}
