import SwipeDictFormat

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
///      word=ill,f=112,flags=,originalFreq=128
///       shortcut=I'll,f=whitelist
///      word=acomodate,f=0,not_a_word=true
///       shortcut=accommodate,f=whitelist
///      word=sex,f=135,flags=,originalFreq=135,possibly_offensive=true
///
/// An entry is a comma-separated list of `key=value` attributes that starts with `word=`,
/// as Android's dicttool expects. Attributes split at the first `=`, so words cannot
/// contain commas; empty attributes are skipped, unknown ones ignored, and the last of
/// repeated attributes wins. `word` is the word and `f` its frequency on AOSP's 0…255
/// logarithmic scale, read as the count `10^(f/32)` (``count(forFrequency:)``).
/// `possibly_offensive=true` and `flags=abbreviation` become ``WordMarks``;
/// `not_a_word=true` makes the entry a misspelling, kept only for its shortcuts. A
/// `shortcut=TARGET,f=F` line belongs to the entry above it; `f=whitelist` makes it a
/// whitelisted correction. Phrases (` word=parce que`) are not words a swipe types: they
/// are kept apart and counted (``Parsed/multiWord(word:)``). `bigram=` lines are ignored.
enum AOSPLine {
  /// What a line holds.
  enum Parsed {
    /// A word, the count its `f=` stands for, its marks, and whether it is a misspelling
    /// (`not_a_word=true`).
    case entry(word: Range<Int>, count: Double, marks: WordMarks, isMisspelling: Bool)
    /// A shortcut of the entry above: its target, whether it is whitelisted, its `f`.
    case shortcut(target: Range<Int>, isWhitelisted: Bool, frequency: UInt8)
    /// A bigram line.
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
  private static let offensiveKey: [UInt8] = Array("possibly_offensive".utf8)
  private static let flagsKey: [UInt8] = Array("flags".utf8)
  private static let abbreviationFlag: [UInt8] = Array("abbreviation".utf8)
  private static let trueValue: [UInt8] = Array("true".utf8)
  private static let shortcutKey: [UInt8] = Array("shortcut".utf8)
  private static let shortcutPrefix: [UInt8] = Array("shortcut=".utf8)
  private static let whitelistValue: [UInt8] = Array("whitelist".utf8)
  private static let ignoredPrefixes: [[UInt8]] = [Array("bigram=".utf8)]
  private static let lineHint =
    "after the dictionary= header, each line of an AOSP combined list is ' word=WORD,f=COUNT'"
    + " (optionally followed by shortcut= or bigram= lines)"

  /// Parses a line after the header.
  /// - Parameters:
  ///   - line: the line, checked by ``LineText/check(_:)``, trailing spaces trimmed.
  ///   - isASCII: whether the line is plain ASCII.
  /// - Returns: the entry, shortcut, phrase, or `.ignored`.
  /// - Throws: ``LineProblem`` for a line that is no entry, an attribute without `=`, an
  ///   empty or spaced word, a missing or bad `f=`.
  static func parse(_ line: ArraySlice<UInt8>, isASCII: Bool) throws(LineProblem) -> Parsed {
    let end = line.endIndex
    var start = line.startIndex
    while start < end && LineText.isSpaceOrTab(line[start]) { start += 1 }
    let body = line[start..<end]
    if ignoredPrefixes.contains(where: { body.starts(with: $0) }) { return .ignored }
    if body.starts(with: shortcutPrefix) { return try parseShortcut(line, from: start) }
    guard body.starts(with: entryPrefix) else {
      throw LineProblem(
        reason: .malformedLine, index: start,
        message: body.starts(with: header)
          ? "a second dictionary= header" : "expected an entry ' word=WORD,f=COUNT'",
        hint: lineHint)
    }
    let attributes = try Self.attributes(of: line, from: start)
    var notAWord = false
    var marks: WordMarks = []
    if let value = attributes.value(notAWordKey) { notAWord = line[value].elementsEqual(trueValue) }
    if let value = attributes.value(offensiveKey), line[value].elementsEqual(trueValue) {
      marks.insert(.possiblyOffensive)
    }
    if let value = attributes.value(flagsKey),
      line[value].split(whereSeparator: { !(0x61...0x7A).contains($0) && $0 != 0x5F })
        .contains(where: { $0.elementsEqual(abbreviationFlag) })
    {
      marks.insert(.abbreviation)
    }
    // `word` is set: the line starts with "word=".
    let wordRange = attributes.value(wordKey) ?? start..<start
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
    let frequency = attributes.value(frequencyKey)
    guard let frequency, !frequency.isEmpty else {
      throw LineProblem(
        reason: .missingCount, index: frequency?.lowerBound ?? end,
        message: frequency == nil ? "entry has no f= count" : "f= has no value",
        hint: "AOSP entries need f=COUNT (as in ' word=the,f=222'); add it or remove the line")
    }
    let f = try parseFrequency(line[frequency])
    return .entry(word: wordRange, count: count(forFrequency: f), marks: marks, isMisspelling: notAWord)
  }

  /// Parses `shortcut=TARGET,f=F` (F a frequency or `whitelist`).
  private static func parseShortcut(_ line: ArraySlice<UInt8>, from start: Int) throws(LineProblem) -> Parsed {
    let attributes = try Self.attributes(of: line, from: start)
    // `shortcut` is set: the line starts with "shortcut=".
    let target = attributes.value(shortcutKey) ?? start..<start
    guard !target.isEmpty else {
      throw LineProblem(
        reason: .emptyWord, index: target.lowerBound, message: "empty shortcut: shortcut= has no value",
        hint: "write the replacement after shortcut=, or remove the line")
    }
    guard let frequency = attributes.value(frequencyKey), !frequency.isEmpty else {
      throw LineProblem(
        reason: .missingCount, index: line.endIndex, message: "shortcut has no f=",
        hint: "AOSP shortcuts need f=FREQUENCY or f=whitelist (as in '  shortcut=I'll,f=whitelist')")
    }
    if line[frequency].elementsEqual(whitelistValue) {
      return .shortcut(target: target, isWhitelisted: true, frequency: UInt8(largestFrequency))
    }
    let f = try parseFrequency(line[frequency])
    return .shortcut(target: target, isWhitelisted: false, frequency: UInt8(f.rounded()))
  }

  /// The attributes of an entry or shortcut line: key and value ranges, the last of a
  /// repeated key winning.
  private struct Attributes {
    var pairs: [(key: Range<Int>, value: Range<Int>)] = []
    let line: ArraySlice<UInt8>
    func value(_ key: [UInt8]) -> Range<Int>? {
      pairs.last(where: { line[$0.key].elementsEqual(key) })?.value
    }
  }

  private static func attributes(of line: ArraySlice<UInt8>, from start: Int) throws(LineProblem) -> Attributes {
    let end = line.endIndex
    var result = Attributes(line: line)
    var fieldStart = start
    while fieldStart <= end {
      let fieldEnd = line[fieldStart...].firstIndex(of: UInt8(ascii: ",")) ?? end
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
      let keyRange: Range<Int> = fieldStart..<equals
      let valueRange: Range<Int> = (equals + 1)..<fieldEnd
      result.pairs.append((key: keyRange, value: valueRange))
      fieldStart = fieldEnd + 1
    }
    return result
  }

  /// Parses an `f=` value on the 0…255 scale (AOSP writes whole numbers; decimals are read).
  private static func parseFrequency(_ value: ArraySlice<UInt8>) throws(LineProblem) -> Double {
    let f = try CountField.parse(
      value, name: "frequency f=",
      hint: "f= is AOSP's frequency from 0 to 255 (as in ' word=the,f=222')")
    guard f <= Self.largestFrequency else {
      throw LineProblem(
        reason: .countTooLarge, index: value.startIndex,
        message: "f=\(LineText.excerpt(value)) is beyond AOSP's 0…255 frequency scale",
        hint: "AOSP frequencies run from 0 to 255 (log scale); for counts use a word<TAB>count list")
    }
    return f
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
