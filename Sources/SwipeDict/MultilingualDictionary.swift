#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Several dictionaries typed on one keyboard, as a bilingual user types: lookups,
/// completions and corrections over all of them, each word carrying its language.
///
/// ```swift
/// let both = try MultilingualDictionary([
///   .init(language: "en", dictionary: english),
///   .init(language: "de", dictionary: german, weight: 0.5),   // German half as likely
/// ])
/// both.completions(prefix: "hau")   // "Haus" (de), "haul" (en), …
/// ```
///
/// A language's **weight** multiplies its words' counts: 1 treats the languages alike
/// (counts per billion words are comparable across the project's lists), 0.5 halves a
/// language's prior. The dictionaries must share one layout (the swipe decoder's
/// `MultilingualDecoder` matches one swipe against all of them). A word in several
/// languages is suggested once, by its best language.
///
/// The user's words (``userWords``) and the previous word (``context(after:pairWeight:)``)
/// reach every language, as they reach a single ``SwipeDictionary``:
///
/// ```swift
/// var both = try MultilingualDictionary([...])
/// both.userWords = store.words                 // added, learned and blocked words, in all
/// both.completions(prefix: "y", context: both.context(after: "new"))
/// ```
public struct MultilingualDictionary: Sendable {
  /// One language: its name, its dictionary and its weight.
  public struct Member: Sendable {
    /// The language's name, as the keyboard shows it ("en", "de").
    public var language: String
    /// The dictionary.
    public var dictionary: SwipeDictionary
    /// The factor on its words' counts (positive, finite).
    public var weight: Double

    /// A language.
    public init(language: String, dictionary: SwipeDictionary, weight: Double = 1) {
      self.language = language
      self.dictionary = dictionary
      self.weight = weight
    }
  }

  /// Why languages cannot be used together.
  public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
    /// No member given.
    case empty
    /// A weight that is not positive and finite.
    case invalidWeight(language: String, weight: Double)
    /// Two dictionaries built for different layouts.
    case layoutMismatch(language: String, layout: String, expected: String)
    /// A language named twice.
    case duplicateLanguage(String)

    public var description: String {
      switch self {
      case .empty: return "no language given"
      case .invalidWeight(let language, let weight):
        return "\(language): weight \(weight) must be positive and finite"
      case .layoutMismatch(let language, let layout, let expected):
        return "\(language): built for layout \(layout), the others for \(expected);"
          + " build every language's blob with the same layout"
      case .duplicateLanguage(let language): return "\(language): given twice"
      }
    }
  }

  /// A suggestion and the language it comes from.
  public struct LanguageSuggestion: Sendable, Hashable {
    /// The suggestion in its own dictionary (ID, word, frequency, distance, score).
    public var suggestion: SwipeDict.Suggestion
    /// The index of its language in ``members``.
    public var language: Int
    /// The score the languages were ranked by: the word's count times its language's
    /// weight, as a frequency byte on the languages' common scale (completions), less the
    /// correction's distance penalty (corrections).
    public var score: Double
  }

  /// A suggestion and its language: ``LanguageSuggestion`` under its first name, which
  /// shadowed the one-language ``SwipeDict/Suggestion`` it wraps.
  @available(*, deprecated, renamed: "LanguageSuggestion")
  public typealias Suggestion = LanguageSuggestion

  /// The languages, in the order given.
  public private(set) var members: [Member]

  /// The user's words in every language: ``SwipeDictionary/userWords`` of each member's
  /// dictionary. A blocked word is blocked in all; uses raise a word in every language that
  /// has it; a word the user added or learned that no language has becomes a word of each
  /// (suggested once, by its best language), one that some language has is that
  /// language's only. Make the ``MultilingualDecoder`` after setting it.
  public var userWords: UserWords {
    get { members[0].dictionary.userWords }
    set {
      let blobs = members.map(\.dictionary)
      for i in members.indices {
        members[i].dictionary.setUserWords(newValue) { word in
          blobs.indices.contains { $0 != i && blobs[$0].id(of: word) != nil }
        }
      }
    }
  }

  /// The previous word in every language (``SwipeDictionary/context(after:pairWeight:)`` of
  /// each member's dictionary): what completion, correction and the decoder rank the next
  /// word by. A language whose dictionary has no pairs, or lacks the previous word, ranks by
  /// frequency alone.
  public struct Context: Sendable {
    /// One context per language, in ``MultilingualDictionary/members`` order; empty for none.
    public let contexts: [WordContext]

    /// No previous word.
    public static let empty = Context(contexts: [])

    /// Whether no language has a context.
    public var isEmpty: Bool { contexts.allSatisfy(\.isEmpty) }

    /// The context of language `index` (empty past the end).
    public func context(of index: Int) -> WordContext {
      index >= 0 && index < contexts.count ? contexts[index] : .empty
    }
  }

  /// The context for ranking the word after `previous`, in every language. O(followers):
  /// make it once per committed word.
  public func context(after previous: String, pairWeight: Double = WordContext.defaultPairWeight) -> Context {
    Context(contexts: members.map { $0.dictionary.context(after: previous, pairWeight: pairWeight) })
  }

  /// Languages typed on one layout.
  /// - Throws: ``Error`` for no member, a bad weight, a repeated name or different layouts.
  public init(_ members: [Member]) throws(Error) {
    guard let first = members.first else { throw .empty }
    var names = Set<String>()
    for member in members {
      guard member.weight.isFinite, member.weight > 0 else {
        throw .invalidWeight(language: member.language, weight: member.weight)
      }
      guard names.insert(member.language).inserted else { throw .duplicateLanguage(member.language) }
      guard member.dictionary.layout == first.dictionary.layout else {
        throw .layoutMismatch(
          language: member.language, layout: member.dictionary.layout.name, expected: first.dictionary.layout.name)
      }
    }
    self.members = members
  }

  /// The largest frequency scale, `ln(1 + maxCount)`, of the languages: the common scale
  /// their frequency bytes are put on.
  var commonScale: Double { members.map(\.dictionary.frequencyScale).max() ?? 0 }

  /// A frequency byte of member `index` on the common scale, with the language's weight:
  /// `255 × (ln(count) + ln(weight)) / commonScale`, where `ln(count) = byte / 255 × scale`.
  /// Each blob's bytes are relative to its own most frequent word; this makes them counts
  /// again, comparable across languages.
  func weightedFrequency(_ frequency: UInt8, of index: Int) -> Double {
    weightedFrequency(Double(frequency), of: index)
  }

  /// ``weightedFrequency(_:of:)`` of a score in the blob's frequency steps (a completion's in
  /// a context may pass 255).
  func weightedFrequency(_ frequency: Double, of index: Int) -> Double {
    let member = members[index]
    let common = commonScale
    guard common > 0 else { return frequency }
    return 255 * (frequency / 255 * member.dictionary.frequencyScale + log(member.weight)) / common
  }

  /// The languages that have `word` (exactly, after NFC), with its ID in each.
  public func lookUp(_ word: String) -> [(language: Int, id: Int)] {
    members.indices.compactMap { i in members[i].dictionary.id(of: word).map { (i, $0) } }
  }

  /// Completions of `prefix` from every language, by weighted frequency (see
  /// ``SwipeDictionary/completions(prefix:context:limit:)``: in a `context`, by the count in
  /// context); a word in several languages once.
  public func completions(prefix: String, context: Context = .empty, limit: Int = 10) -> [LanguageSuggestion] {
    merge(limit: limit) { i in
      members[i].dictionary.completions(prefix: prefix, context: context.context(of: i), limit: limit).map {
        LanguageSuggestion(suggestion: $0, language: i, score: weightedFrequency(Double($0.score), of: i))
      }
    }
  }

  /// Corrections of `input` from every language, by weighted score (see
  /// ``SwipeDictionary/corrections(for:context:limit:model:)``); a word in several
  /// languages once. Makes a corrector per language for this one call: keep a
  /// ``makeCorrector(model:)`` when you correct after every keystroke.
  public func corrections(
    for input: String, context: Context = .empty, limit: Int = 10, model: CorrectionModel = .typing()
  ) -> [LanguageSuggestion] {
    makeCorrector(model: model).corrections(for: input, context: context, limit: limit)
  }

  /// A reusable corrector over every language (one ``Corrector`` each, set up once).
  public func makeCorrector(model: CorrectionModel = .typing()) -> MultilingualCorrector {
    MultilingualCorrector(dictionary: self, correctors: members.map { $0.dictionary.makeCorrector(model: model) })
  }

  /// The words that most often follow `previous`, from every language whose blob has word
  /// pairs (``SwipeDictionary/nextWords(after:limit:)``), ranked by each language's pair
  /// frequency byte plus its weight's share (`255 × ln(weight) / scale`); a word in several
  /// languages once. Empty when no language has pairs or knows `previous`.
  public func nextWords(after previous: String, limit: Int = 10) -> [LanguageSuggestion] {
    let common = commonScale
    return merge(limit: limit) { i in
      let member = members[i]
      let shift = common > 0 ? 255 * log(member.weight) / common : 0
      return member.dictionary.nextWords(after: previous, limit: limit).map {
        LanguageSuggestion(suggestion: $0, language: i, score: Double($0.score) + shift)
      }
    }
  }

  /// Every language's suggestions, best first (ties: language order, then frequency, then
  /// word), each word once.
  func merge(limit: Int, _ suggestions: (Int) -> [LanguageSuggestion]) -> [LanguageSuggestion] {
    guard limit > 0 else { return [] }
    let all = members.indices.flatMap(suggestions).enumerated().sorted { a, b in
      a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
    }
    var seen = Set<String>()
    var merged: [LanguageSuggestion] = []
    for (_, suggestion) in all where seen.insert(suggestion.suggestion.word).inserted {
      merged.append(suggestion)
      if merged.count == limit { break }
    }
    return merged
  }
}

/// Correction over several languages, ready to run after every keystroke
/// (``MultilingualDictionary/makeCorrector(model:)``): each language's ``Corrector``, their
/// suggestions merged by weighted score as ``MultilingualDictionary/corrections(for:context:limit:model:)``
/// merges them.
public struct MultilingualCorrector: Sendable {
  /// The languages.
  public let dictionary: MultilingualDictionary
  /// One corrector per language, in the dictionary's order.
  let correctors: [Corrector]

  /// The best corrections of `input` in every language, by weighted score; a word in several
  /// languages once.
  public func corrections(
    for input: String, context: MultilingualDictionary.Context = .empty, limit: Int = 10
  ) -> [MultilingualDictionary.LanguageSuggestion] {
    let common = dictionary.commonScale
    return dictionary.merge(limit: limit) { i in
      let scale = dictionary.members[i].dictionary.frequencyScale
      return correctors[i].corrections(for: input, context: context.context(of: i), limit: limit).map {
        // The score is the frequency byte less the distance's penalty, in the blob's steps:
        // keep the penalty, on the common scale.
        let penalty = Double(Int($0.frequency) - $0.score) * (common > 0 ? scale / common : 1)
        return MultilingualDictionary.LanguageSuggestion(
          suggestion: $0, language: i, score: dictionary.weightedFrequency($0.frequency, of: i) - penalty)
      }
    }
  }
}
