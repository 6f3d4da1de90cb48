import SwipeDict

/// Where a word went when a swipe was decoded: which filter dropped it and by how much, or
/// its distance, prior and rank against the winners. The answer to a keyboard developer's
/// first question, "why not my word?" (``SwipeDecoder/explain(_:word:)``).
public struct SwipeExplanation: Sendable, Hashable {
  /// What happened to one dictionary form of the word.
  public enum Verdict: Sendable, Hashable {
    /// Shown at this place of the result, from 1.
    case shown(place: Int)
    /// A candidate, but outranked: more words than the result holds score higher.
    case outranked
    /// A candidate that the ranking score would show, left out by the search: the search
    /// keeps its ``SwipeDecoder/Options/candidatePool`` best words by its linear score
    /// (``SwipeDecoder/Options/frequencyWeight``) and did not keep this one.
    case displaced
    /// Shown in the place of a case or apostrophe variant with the same key path (the
    /// more frequent form takes the place).
    case merged(into: String)
    /// Dropped by a filter before any matching (the first failing filter).
    case filtered(SwipeFilterReport.Stage)
    /// A candidate whose perfect swipe cannot be matched within the DTW's locality band:
    /// the swipe is far shorter or longer than the word's along the way.
    case outsideBand
    /// Never suggested: the word list marks it possibly offensive and the dictionary blocks
    /// offensive words (``SwipeDictionary/blocksOffensiveWords``).
    case blocked
  }

  /// One dictionary form of the word (its case, accent and apostrophe variants each count).
  public struct Form: Sendable, Hashable {
    /// The word's ID.
    public var id: Int
    /// The word as stored.
    public var word: String
    /// Its frequency byte.
    public var frequency: UInt8
    /// Each filter's verdict with the measured values.
    public var filters: SwipeFilterReport
    /// The DTW distance (mean squared distance, key widths²), or `nil` outside the band.
    public var distance: Float?
    /// The shape channel's distance (``SwipeRanking``), or `nil` outside the band.
    public var shapeDistance: Float?
    /// ln(swiped ÷ expected length) within −1…1, or `nil` outside the band.
    public var lengthRatio: Float?
    /// The prior by which the words are ranked: ln(count) plus the context's part
    /// (``SwipeRanking``; `frequencyWeight × ln(count)` plus it when the ranking is the
    /// search's).
    public var prior: Float
    /// The score by which the words are ranked, or `nil` outside the band.
    public var score: Float?
    /// Its rank among the candidates by that score (1: best), counting the words that score
    /// strictly higher other than its own case and apostrophe variants, whether or not this
    /// form passed the filters (what its rank would be had it passed). `nil` outside the band.
    public var rank: Int?
    /// What happened to it.
    public var verdict: Verdict
  }

  /// The decoding itself, as ``SwipeDecoder/decode(_:context:deadline:)`` returns it.
  public var decoding: SwipeDecoding
  /// The filters measured from the swipe.
  public var filter: SwipeFilter
  /// The word's forms in the dictionary, best rank first; empty when the dictionary does
  /// not have the word in any form.
  public var forms: [Form]
}

extension SwipeDecoder {
  /// Decodes `points` and explains where `word` went.
  ///
  /// The forms of `word` are the dictionary words equal to it when case, accents and
  /// apostrophes are ignored ("im" finds "I'm", "neosho" finds "Neosho"). For each: the four
  /// filters' verdicts, the DTW distance against the swipe, the prior, and the rank it has
  /// among every candidate under the final ranking.
  ///
  /// Costs a whole decoding plus one scan of the candidates (pruned by the form's score);
  /// meant for tools and debugging, not for a keyboard's hot path.
  /// - Parameters:
  ///   - points: the swipe.
  ///   - word: the word to explain.
  ///   - context: the previous word, as for ``decode(_:context:deadline:)``.
  ///   - deadline: as for ``decode(_:context:deadline:)``; the decoding is done again, so with a
  ///     deadline it may differ from an earlier one of the same points.
  public func explain(
    _ points: some Sequence<SwipePoint>, word: String, context: WordContext = .empty,
    deadline: ContinuousClock.Instant? = nil
  ) -> SwipeExplanation {
    let points = Array(points)
    let decoding = decode(points, context: context, deadline: deadline)
    var measurement = SwipeFilterMeasurement(keyWidth: dictionary.keyWidth)
    var reducer = PointReducer(options: options.reduction, keyWidth: dictionary.keyWidth)
    for point in points where point.x.isFinite && point.y.isFinite {
      measurement.add(LayoutPoint(x: point.x, y: point.y))
      reducer.add(x: point.x, y: point.y)
    }
    let filter = measurement.filter(options.filter)
    let reduced = reducer.points
    let swipeLength = measurement.length / dictionary.keyWidth
    guard !reduced.isEmpty else {
      return SwipeExplanation(decoding: decoding, filter: filter, forms: [])
    }
    let candidates = dictionary.candidates(for: filter).filter(dictionary.isSuggestible)
    var search = WordSearch(decoder: self, points: reduced, context: context)
    let swipe = search.shapeSample
    let shown = decoding.words.map { variantKey($0.word) }
    var forms: [SwipeExplanation.Form] = []
    for id in variantIDs(of: word, in: dictionary) {
      guard let stored = dictionary.word(for: id), let report = dictionary.filterReport(for: id, filter: filter),
        let keys = reader.keyPath(of: id)
      else { continue }
      let frequency = dictionary.personalFrequency(of: id) ?? 0
      let prior = search.prior(of: id, frequency)
      let distance = search.distance(keys: keys)
      let ranked = distance.map {
        search.rankingScore(of: id, frequency, keys: keys, distance: $0, swipe: swipe, swipeLength: swipeLength)
      }
      let key = variantKey(stored)
      let rank = ranked.map {
        1 + search.count(scoringAbove: $0.score, among: candidates, exceptVariantsOf: key, swipeLength: swipeLength)
      }
      let verdict: SwipeExplanation.Verdict
      if let place = decoding.words.firstIndex(where: { $0.id == id }) {
        verdict = .shown(place: place + 1)
      } else if !dictionary.isSuggestible(id) {
        verdict = .blocked
      } else if let failed = report.checks.first(where: { !$0.passes }) {
        verdict = .filtered(failed.stage)
      } else if distance == nil {
        verdict = .outsideBand
      } else if let place = shown.firstIndex(of: key), decoding.words[place].distance == distance {
        verdict = .merged(into: decoding.words[place].word)
      } else if let rank, rank <= options.resultCount {
        verdict = .displaced
      } else {
        verdict = .outranked
      }
      forms.append(
        .init(
          id: id, word: stored, frequency: frequency, filters: report, distance: distance,
          shapeDistance: ranked?.shape, lengthRatio: ranked?.lengthRatio, prior: prior, score: ranked?.score,
          rank: rank, verdict: verdict))
    }
    forms.sort { ($0.rank ?? .max, $0.id) < ($1.rank ?? .max, $1.id) }
    return SwipeExplanation(decoding: decoding, filter: filter, forms: forms)
  }

}
