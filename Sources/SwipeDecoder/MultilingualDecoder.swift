import SwipeDict

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One swipe decoded against several languages at once, as a bilingual user swipes: the
/// words of every language compete in one ranking, each carrying its language.
///
/// ```swift
/// let both = try MultilingualDictionary([
///   .init(language: "en", dictionary: english), .init(language: "de", dictionary: german),
/// ])
/// let decoder = MultilingualDecoder(dictionary: both)
/// let result = decoder.decode(points)
/// result.words.first.map { "\($0.word) (\(both.members[$0.language].language))" }
/// ```
///
/// Each language's ``SwipeDecoder`` filters and matches the swipe against its own words
/// (sessions share the points); the candidates then meet in the ranking a single
/// dictionary uses (``SwipeRanking``), a language's weight added to its words' log counts as
/// `ln(weight)`, and one place per word and its case and apostrophe variants, whatever their
/// language. Each language brings its ``SwipeDecoder/Options/candidatePool`` best words. The wait is the sum of the
/// languages' waits. With a context (``MultilingualDictionary/context(after:pairWeight:)``),
/// each language's words gain their boost in that language's context, as a single
/// dictionary's do (``SwipeDecoder/Options/contextWeight``).
public struct MultilingualDecoder: Sendable {
  /// The languages.
  public let dictionary: MultilingualDictionary
  /// One decoder per language, in the dictionary's order.
  let decoders: [SwipeDecoder]
  /// The options every language decodes with (each brings its whole candidate pool to the
  /// merged ranking).
  public let options: SwipeDecoder.Options

  /// A decoder over the languages of `dictionary`.
  public init(dictionary: MultilingualDictionary, options: SwipeDecoder.Options = .init()) {
    self.dictionary = dictionary
    self.options = options
    // Each language brings more words than the result holds, for the merged ranking.
    var each = options
    each.resultCount = max(options.resultCount, options.candidatePool)
    decoders = dictionary.members.map { SwipeDecoder(dictionary: $0.dictionary, options: each) }
    resultCount = options.resultCount
  }

  /// The number of words a decoding shows.
  let resultCount: Int

  /// Starts decoding a swipe point by point.
  public func makeSession() -> MultilingualSession { MultilingualSession(decoder: self) }

  /// Decodes a whole swipe: the same as feeding its points to a session one by one.
  public func decode(
    _ points: some Sequence<SwipePoint>, context: MultilingualDictionary.Context = .empty,
    deadline: ContinuousClock.Instant? = nil
  ) -> MultilingualDecoding {
    var session = makeSession()
    for point in points { session.add(point) }
    return session.end(context: context, deadline: deadline)
  }

  /// Merges the languages' decodings into one ranking, each word's prior with its boost in
  /// its language's context.
  func merge(_ decodings: [SwipeDecoding], context: MultilingualDictionary.Context) -> MultilingualDecoding {
    struct Entry {
      var candidate: SwipeDecoding.Candidate
      var language: Int
      var logCount: Float
      /// What the context adds to the score (``SwipeDecoder/Options/contextWeight`` × boost).
      var contextPrior: Float
      var score: Float
      var key: String
    }
    var entries: [Entry] = []
    let contextWeight = options.contextWeight.isFinite ? options.contextWeight : 0
    for (language, decoding) in decodings.enumerated() {
      let member = dictionary.members[language]
      let scale = Float(member.dictionary.frequencyScale)
      let boost = Float(log(member.weight))
      let wordContext = context.context(of: language)
      for candidate in decoding.words {
        let contextPrior = wordContext.isEmpty ? 0 : contextWeight * wordContext.boost(of: candidate.id)
        let logCount = Float(candidate.frequency) / 255 * scale + boost
        let score = WordSearch.rankingScore(
          options: options, logCount: logCount, contextPrior: contextPrior, distance: candidate.distance,
          shapeDistance: candidate.shapeDistance, lengthRatio: candidate.lengthRatio)
        entries.append(
          Entry(
            candidate: candidate, language: language, logCount: logCount, contextPrior: contextPrior, score: score,
            key: variantKey(candidate.word)))
      }
    }
    let byScore = entries.sorted {
      $0.score != $1.score ? $0.score > $1.score : ($0.language, $0.candidate.id) < ($1.language, $1.candidate.id)
    }
    var ranked: [Entry] = []
    var keys = Set<String>()
    for entry in byScore where ranked.count < resultCount && !keys.contains(entry.key) {
      keys.insert(entry.key)
      ranked.append(entry)
    }
    let words = ranked.map { entry in
      var candidate = entry.candidate
      candidate.score = entry.score
      return MultilingualDecoding.Candidate(language: entry.language, candidate: candidate)
    }
    return MultilingualDecoding(words: words, decodings: decodings)
  }
}

/// A swipe being decoded against several languages, fed point by point.
public struct MultilingualSession: Sendable {
  private let decoder: MultilingualDecoder
  private var sessions: [SwipeSession]

  init(decoder: MultilingualDecoder) {
    self.decoder = decoder
    sessions = decoder.decoders.map { $0.makeSession() }
  }

  /// The number of points added so far.
  public var count: Int { sessions.first?.count ?? 0 }

  /// What the first language's session knows of the swipe so far (the languages share the
  /// points): for tools that show the decoder at work.
  package var progress: SwipeProgress? { sessions.first?.progress }

  /// The four filters as measured from the points so far (``SwipeSession/filter``).
  package var filter: SwipeFilter? { sessions.first?.filter }

  /// Adds the next point of the swipe to every language's session.
  public mutating func add(_ point: SwipePoint) {
    for i in sessions.indices { sessions[i].add(point) }
  }

  /// Ends the swipe: every language's decoding, merged; the session is empty again.
  /// - Parameters:
  ///   - context: the previous word (``MultilingualDictionary/context(after:pairWeight:)``,
  ///     made once when the user committed it); none by default.
  ///   - deadline: when the last language stops matching (`nil`: never). The languages run
  ///     one after another, each with an even share of the time left, so the first cannot
  ///     use up the others' time.
  public mutating func end(
    context: MultilingualDictionary.Context = .empty, deadline: ContinuousClock.Instant? = nil
  ) -> MultilingualDecoding {
    var decodings: [SwipeDecoding] = []
    for i in sessions.indices {
      let share = deadline.map { deadline in
        let now = ContinuousClock.now
        return now + (deadline - now) / (sessions.count - i)
      }
      decodings.append(sessions[i].end(context: context.context(of: i), deadline: share))
    }
    return decoder.merge(decodings, context: context)
  }
}

/// The words a swipe most likely spells, over several languages.
public struct MultilingualDecoding: Sendable, Hashable {
  /// One decoded word and its language.
  public struct Candidate: Sendable, Hashable {
    /// The index of the word's language in the dictionary's members.
    public var language: Int
    /// The word as its language's dictionary has it (ID, word, distances, frequency), its
    /// score the merged ranking's: ``SwipeRanking``'s with `ln(count) + ln(language weight)`,
    /// plus the context's part in a context.
    public var candidate: SwipeDecoding.Candidate
    /// The word.
    public var word: String { candidate.word }
  }

  /// The best words, best first.
  public var words: [Candidate]
  /// Each language's own decoding, in the dictionary's order.
  public var decodings: [SwipeDecoding]
  /// Whether every language matched all its candidates.
  public var isComplete: Bool { decodings.allSatisfy(\.isComplete) }

  /// The merged words as one ``SwipeDecoding`` (counts summed over the languages), for
  /// tools that measure decodings.
  package var merged: SwipeDecoding {
    SwipeDecoding(
      words: words.map(\.candidate), candidateCount: decodings.reduce(0) { $0 + $1.candidateCount },
      matchedCount: decodings.reduce(0) { $0 + $1.matchedCount }, isComplete: isComplete,
      pointCount: decodings.first?.pointCount ?? 0, reducedPointCount: decodings.first?.reducedPointCount ?? 0)
  }
}
