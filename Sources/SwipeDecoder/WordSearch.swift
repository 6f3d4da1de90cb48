import SwipeDict

/// Matches a reduced swipe against candidate words and keeps the best few (steps 3 and 4 of
/// ``SwipeDecoder``).
struct WordSearch {
  private let decoder: SwipeDecoder
  /// The previous word: each word's log count gains its boost.
  private let context: WordContext
  private let contextWeight: Float
  private var dtw: SegmentDTW
  private var best: [Entry] = []
  /// `ln(count)` per frequency byte.
  private let logCounts: [Float]
  /// How many candidates were matched.
  private(set) var matched = 0
  /// How many of the best words the search keeps for the final ranking.
  private let poolSize: Int

  /// Words kept beyond the result count for the final ranking, whose frequency weight
  /// depends on the best distance and can reorder them.
  static let poolExtra = 8
  /// The place (from 0) that goes to the search's best word not shown above it.
  static let frequentPlace = 2

  private struct Entry {
    var id: Int
    var score: Float
    var distance: Float
    var frequency: UInt8
    /// What the context adds to the score: ``SwipeDecoder/Options/contextWeight`` × the
    /// word's boost.
    var contextPrior: Float

    /// Best first: higher score, then higher frequency, then lower ID.
    func precedes(_ other: Entry) -> Bool {
      if score != other.score { return score > other.score }
      if frequency != other.frequency { return frequency > other.frequency }
      return id < other.id
    }
  }

  /// Candidates matched between deadline checks.
  private static let checkEvery = 32
  /// The most frequent candidates, matched first so that a deadline leaves good words.
  private static let firstTier = 1024

  init(decoder: SwipeDecoder, points: [(x: Float, y: Float)], context: WordContext = .empty) {
    self.decoder = decoder
    self.context = context
    let weight = decoder.options.contextWeight
    contextWeight = weight.isFinite ? weight : 0
    let count = decoder.options.resultCount
    poolSize = count > 0 ? count + Self.poolExtra : 0
    let band = decoder.options.band
    dtw = SegmentDTW(
      points: points, centers: decoder.centers,
      band: SegmentDTW.Band(ratio: band.ratio, slack: band.slack), cap: Self.cap(decoder.options.maximumPointCost))
    let scale = Float(decoder.dictionary.frequencyScale)
    logCounts = (0..<256).map { Float($0) / 255 * scale }
  }

  /// Matches `candidates` (ascending IDs) until done, past `deadline` or after `matchLimit`
  /// of them. Returns whether every candidate was matched.
  mutating func run(
    _ candidates: some Sequence<Int>, deadline: ContinuousClock.Instant?, matchLimit: Int = .max
  ) -> Bool {
    guard poolSize > 0 else { return true }
    let dictionary = decoder.dictionary
    // The first tier: the candidates whose frequency byte is at least that of the
    // `firstTier`-th most frequent one.
    var histogram = [Int](repeating: 0, count: 256)
    for id in candidates { histogram[Int(dictionary.personalFrequency(of: id) ?? 0)] += 1 }
    var threshold = 256
    var taken = 0
    while threshold > 0, taken < Self.firstTier {
      threshold -= 1
      taken += histogram[threshold]
    }
    guard taken > 0 else { return true }
    let first = candidates.lazy.filter { Int(dictionary.personalFrequency(of: $0) ?? 0) >= threshold }
    let rest = candidates.lazy.filter { Int(dictionary.personalFrequency(of: $0) ?? 0) < threshold }
    guard match(first, deadline: deadline, limit: matchLimit) else { return false }
    return match(rest, deadline: deadline, limit: matchLimit)
  }

  /// Matches one ascending list; `false` when the deadline passed first.
  private mutating func match(
    _ ids: some Sequence<Int>, deadline: ContinuousClock.Instant?, limit matchLimit: Int
  ) -> Bool {
    let rows = Float(dtw.rows)
    let weight = decoder.options.frequencyWeight
    let limit = poolSize
    var cursor = decoder.reader.makeCursor()
    for id in ids {
      // The clock is read before the first candidate and every `checkEvery` after it.
      if let deadline, matched % Self.checkEvery == 0, ContinuousClock.now >= deadline {
        return false
      }
      if matched == matchLimit { return false }
      matched += 1
      let frequency = decoder.dictionary.personalFrequency(of: id) ?? 0
      let contextPrior = contextPrior(of: id)
      let prior = weight * logCounts[Int(frequency)] + contextPrior
      // The cost above which the word cannot beat the last of a full list (widened by a
      // rounding margin: a loose bound costs time, never a result).
      var bound = Float.infinity
      if best.count == limit, let last = best.last {
        let exact = (prior - last.score) * rows
        bound = exact + abs(exact) * 1e-5 + 1e-6
        // Before reading the key path: the bound of the first, second and last keys.
        if let record = decoder.dictionary.featureRecord(of: id),
          dtw.lowerBound(record) > bound
        {
          continue
        }
      }
      guard cursor.move(to: id) else { return true }
      guard let cost = dtw.cost(keys: cursor.keys, bound: bound) else { continue }
      let distance = cost / rows
      insert(
        Entry(
          id: id, score: prior - distance, distance: distance, frequency: frequency, contextPrior: contextPrior),
        limit: limit)
    }
    return true
  }

  /// Matches the user's words the blob lacks that passed the filters (IDs from the
  /// dictionary's word count up), after the blob's candidates.
  mutating func run(userWords: [(id: Int, keys: [UInt8], frequency: UInt8)]) {
    guard poolSize > 0 else { return }
    let rows = Float(dtw.rows)
    let weight = decoder.options.frequencyWeight
    for word in userWords {
      matched += 1
      let contextPrior = contextPrior(of: word.id)
      let prior = weight * logCounts[Int(word.frequency)] + contextPrior
      var bound = Float.infinity
      if best.count == poolSize, let last = best.last {
        let exact = (prior - last.score) * rows
        bound = exact + abs(exact) * 1e-5 + 1e-6
      }
      guard let cost = dtw.cost(keys: word.keys, bound: bound) else { continue }
      let distance = cost / rows
      insert(
        Entry(
          id: word.id, score: prior - distance, distance: distance, frequency: word.frequency,
          contextPrior: contextPrior),
        limit: poolSize)
    }
  }

  private mutating func insert(_ entry: Entry, limit: Int) {
    guard best.count < limit || entry.precedes(best[best.count - 1]) else { return }
    // Words with the same key path match at exactly the same distance; those that differ
    // only by case or apostrophes ("Neosho" and "neosho", "im" and "I'm") take one place,
    // kept by the better (more frequent) one.
    // Several words may share the distance ("to", "too", "Too"): compare with each.
    if best.contains(where: { $0.distance == entry.distance }), let word = decoder.dictionary.word(for: entry.id) {
      let key = variantKey(word)
      if let twin = best.firstIndex(where: { other in
        other.distance == entry.distance && decoder.dictionary.word(for: other.id).map(variantKey) == key
      }) {
        guard entry.precedes(best[twin]) else { return }
        best.remove(at: twin)
      }
    }
    var i = best.count
    while i > 0, entry.precedes(best[i - 1]) { i -= 1 }
    best.insert(entry, at: i)
    if best.count > limit { best.removeLast() }
  }

  /// What the search's context adds to word `id`'s score: the context weight × its boost.
  private func contextPrior(of id: Int) -> Float {
    context.isEmpty ? 0 : contextWeight * context.boost(of: id)
  }

  /// The prior of word `id`, whose frequency byte is `frequency`, with frequency weight
  /// `weight`: `weight × ln(count)` plus the context's part.
  func prior(of id: Int, _ frequency: UInt8, weight: Float) -> Float {
    weight * logCounts[Int(frequency)] + contextPrior(of: id)
  }

  /// The DTW distance of a key path against the swipe (mean squared distance), or `nil`
  /// when it cannot be matched within the locality band.
  mutating func distance(keys: [UInt8]) -> Float? {
    dtw.cost(keys: keys, bound: .infinity).map { $0 / Float(dtw.rows) }
  }

  /// How many of `candidates` (ascending IDs), other than the words whose ``variantKey(_:)``
  /// is `key`, score more than `target` with frequency weight `weight`; pruned like the search.
  mutating func count(
    scoringAbove target: Float, weight: Float, among candidates: [Int], exceptVariantsOf key: String
  ) -> Int {
    let rows = Float(dtw.rows)
    var count = 0
    var cursor = decoder.reader.makeCursor()
    for id in candidates {
      let prior = prior(of: id, decoder.dictionary.personalFrequency(of: id) ?? 0, weight: weight)
      // Scoring above the target means a distance below prior − target.
      let limit = (prior - target) * rows
      guard limit > 0 else { continue }
      if let record = decoder.dictionary.featureRecord(of: id), dtw.lowerBound(record) >= limit { continue }
      guard cursor.move(to: id) else { break }
      if let cost = dtw.cost(keys: cursor.keys, bound: limit), cost < limit,
        decoder.dictionary.word(for: id).map(variantKey) != key
      {
        count += 1
      }
    }
    return count
  }


  /// The point cost cap to use: `maximumPointCost`, or none when it is not a positive number.
  static func cap(_ maximumPointCost: Float) -> Float {
    maximumPointCost > 0 ? maximumPointCost : .infinity  // NaN compares false: no cap
  }

  /// The frequency weight of the final ranking for a swipe whose best candidate lies at
  /// `distance`: ``SwipeDecoder/Options/weightPerDistance`` × `distance`, within
  /// ``SwipeDecoder/Options/weightRange``; ``SwipeDecoder/Options/frequencyWeight`` when
  /// that is off.
  static func finalWeight(bestDistance distance: Float, options: SwipeDecoder.Options) -> Float {
    guard options.weightPerDistance > 0 else { return options.frequencyWeight }
    let range = options.weightRange
    let weight = min(range.upperBound, max(range.lowerBound, options.weightPerDistance * distance))
    return weight.isFinite ? weight : options.frequencyWeight
  }

  /// The best words, best first, by the frequency weight that fits this swipe's noise
  /// (``finalWeight(bestDistance:options:)``): a clean swipe is trusted for its shape, a
  /// sloppy one leans on frequency. One place, the third, goes to the search's best word
  /// (by ``SwipeDecoder/Options/frequencyWeight``) not shown above it: people's alternatives
  /// are common words, and a clean swipe of a rare word keeps its first two places.
  func results() -> (words: [SwipeDecoding.Candidate], weight: Float) {
    guard let least = best.map(\.distance).min() else { return ([], 0) }
    let weight = Self.finalWeight(bestDistance: least, options: decoder.options)
    let byNoise = best.map { entry in
      var entry = entry
      entry.score = weight * logCounts[Int(entry.frequency)] + entry.contextPrior - entry.distance
      return entry
    }.sorted { $0.precedes($1) }
    let count = min(decoder.options.resultCount, best.count)
    var ranked: [Entry] = []
    while ranked.count < count {
      // `best` is in the search's order, with the search's scores.
      let source = ranked.count == Self.frequentPlace ? best : byNoise
      guard let pick = source.first(where: { entry in !ranked.contains { $0.id == entry.id } }) else { break }
      // Every word carries its score by the ranking's weight, whichever order placed it.
      ranked.append(byNoise.first { $0.id == pick.id } ?? pick)
    }
    let words = ranked.compactMap { entry in
      decoder.dictionary.word(for: entry.id).map {
        SwipeDecoding.Candidate(
          id: entry.id, word: $0, score: entry.score, distance: entry.distance,
          frequency: entry.frequency)
      }
    }
    return (words, weight)
  }
}

/// `word` lowercased without apostrophes: what its case and apostrophe variants share
/// ("I'm" and "im", "Neosho" and "neosho"). The decoder shows one word per key; data sets
/// label their swipes this way.
package func variantKey(_ word: String) -> String {
  var scalars = String.UnicodeScalarView()
  scalars.append(contentsOf: word.lowercased().unicodeScalars.filter { $0 != "'" && $0 != "\u{2019}" })
  return String(scalars)
}

/// The IDs of the words of `dictionary` that equal `label` when case, accents and
/// apostrophes are ignored, ascending: the stored forms of a data set's label ("im" finds
/// "I'm" and "im", "dont" finds "don't", "neosho" finds "Neosho"). An apostrophe (`'` or `’`)
/// may stand before any letter but the first. Labels over 64 characters find nothing.
package func variantIDs(of label: String, in dictionary: SwipeDictionary) -> [Int] {
  let bare = label.unicodeScalars.filter { $0 != "'" && $0 != "\u{2019}" }
  guard !bare.isEmpty, bare.count <= 64 else { return [] }
  var spellings = [String(String.UnicodeScalarView(bare))]
  for apostrophe: Unicode.Scalar in ["'", "\u{2019}"] {
    for i in 1..<bare.count {
      var scalars = String.UnicodeScalarView(bare.prefix(i))
      scalars.append(apostrophe)
      scalars.append(contentsOf: bare.dropFirst(i))
      spellings.append(String(scalars))
    }
  }
  var ids = Set<Int>()
  for spelling in spellings { ids.formUnion(dictionary.ids(matchingFolded: spelling, limit: 16)) }
  return ids.sorted()
}
