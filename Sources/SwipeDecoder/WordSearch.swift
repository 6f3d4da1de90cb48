import SwipeDict

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// The swipe (reduced, key widths), for the shape channel.
  private let points: [(x: Float, y: Float)]
  /// The key paths of the user's words the search matched (their IDs are past the blob's).
  private var userKeys: [Int: [UInt8]] = [:]

  private struct Entry {
    var id: Int
    var score: Float
    var distance: Float
    var frequency: UInt8
    /// What the context adds to the score: ``SwipeDecoder/Options/contextWeight`` × the
    /// word's boost.
    var contextPrior: Float
    /// The shape channel's distance and ln(swiped ÷ expected length), set for the ranking.
    var shapeDistance: Float = 0
    var lengthRatio: Float = 0

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
    poolSize = count > 0 ? max(count, decoder.options.candidatePool) : 0
    self.points = points
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
      userKeys[word.id] = word.keys
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

  /// The prior of word `id`, whose frequency byte is `frequency`, as the ranking counts it:
  /// ln(count) plus the context's e-folds (``SwipeRanking``), or `frequencyWeight × ln(count)`
  /// plus the context's part when ranking by the search's score.
  func prior(of id: Int, _ frequency: UInt8) -> Float {
    let options = decoder.options
    let context = contextPrior(of: id)
    guard options.ranking != nil else { return options.frequencyWeight * logCounts[Int(frequency)] + context }
    return logCounts[Int(frequency)] + (options.frequencyWeight > 0 ? context / options.frequencyWeight : 0)
  }

  /// The DTW distance of a key path against the swipe (mean squared distance), or `nil`
  /// when it cannot be matched within the locality band.
  mutating func distance(keys: [UInt8]) -> Float? {
    dtw.cost(keys: keys, bound: .infinity).map { $0 / Float(dtw.rows) }
  }

  /// The ranking's score of a key path matched at `distance`, for word `id`.
  func rankingScore(
    of id: Int, _ frequency: UInt8, keys: [UInt8], distance: Float, swipe: ShapeSample, swipeLength: Float
  ) -> (score: Float, shape: Float, lengthRatio: Float) {
    let (shape, ratio) = Self.shapeFeatures(
      keys: keys, swipe: swipe, swipeLength: swipeLength, centers: decoder.centers)
    let score = Self.rankingScore(
      options: decoder.options, logCount: logCounts[Int(frequency)], contextPrior: contextPrior(of: id),
      distance: distance, shapeDistance: shape, lengthRatio: ratio)
    return (score, shape, ratio)
  }

  /// The swipe's shape sample (``SwipeRanking``).
  var shapeSample: ShapeSample { ShapeSample(points) }

  /// How many of `candidates` (ascending IDs), other than the words whose ``variantKey(_:)``
  /// is `key`, the ranking scores above `target`; pruned by a bound of the distance that
  /// score needs.
  mutating func count(
    scoringAbove target: Float, among candidates: [Int], exceptVariantsOf key: String, swipeLength: Float
  ) -> Int {
    let rows = Float(dtw.rows)
    let options = decoder.options
    let swipe = shapeSample
    var count = 0
    var cursor = decoder.reader.makeCursor()
    for id in candidates {
      let frequency = decoder.dictionary.personalFrequency(of: id) ?? 0
      let prior = prior(of: id, frequency)
      // The largest distance at which the word could still score above the target: the
      // shape channel at its best (0) and the length at its most (1).
      var limit = Float.infinity
      if let ranking = options.ranking {
        let floor = max(ranking.noiseFloor, 1e-6)
        if ranking.locationWeight > 0 {
          let best = prior - ranking.shapeWeight * SwipeRanking.ln(floor) + abs(ranking.lengthWeight) - target
          limit = (Float(exp(Double(best / ranking.locationWeight))) - floor) * rows
        }
      } else {
        limit = (prior - target) * rows
      }
      guard limit > 0 else { continue }
      if let record = decoder.dictionary.featureRecord(of: id), dtw.lowerBound(record) >= limit { continue }
      guard cursor.move(to: id) else { break }
      guard let cost = dtw.cost(keys: cursor.keys, bound: limit), cost < limit else { continue }
      let score = rankingScore(
        of: id, frequency, keys: cursor.keys, distance: cost / rows, swipe: swipe, swipeLength: swipeLength
      ).score
      if score > target, decoder.dictionary.word(for: id).map(variantKey) != key { count += 1 }
    }
    return count
  }

  /// The point cost cap to use: `maximumPointCost`, or none when it is not a positive number.
  static func cap(_ maximumPointCost: Float) -> Float {
    maximumPointCost > 0 ? maximumPointCost : .infinity  // NaN compares false: no cap
  }

  /// The ranking score of a word (see ``SwipeRanking``): the model's, or the search's when
  /// ``SwipeDecoder/Options/ranking`` is `nil`.
  /// - Parameters:
  ///   - logCount: ln(count), with the language's weight.
  ///   - contextPrior: ``SwipeDecoder/Options/contextWeight`` × the word's boost.
  static func rankingScore(
    options: SwipeDecoder.Options, logCount: Float, contextPrior: Float, distance: Float, shapeDistance: Float,
    lengthRatio: Float
  ) -> Float {
    guard let ranking = options.ranking else { return options.frequencyWeight * logCount + contextPrior - distance }
    // The context's e-folds relative to the count's, as in the search.
    let context = options.frequencyWeight > 0 ? contextPrior / options.frequencyWeight : 0
    return ranking.score(
      logCount: logCount + context, distance: distance, shapeDistance: shapeDistance, lengthRatio: lengthRatio)
  }

  /// The shape distance and ln(swiped ÷ expected length) of a key path against the swipe.
  static func shapeFeatures(
    keys: [UInt8], swipe: ShapeSample, swipeLength: Float, centers: [(x: Float, y: Float)]
  ) -> (shape: Float, lengthRatio: Float) {
    let path = keys.compactMap { Int($0) < centers.count ? centers[Int($0)] : nil }
    guard !path.isEmpty else { return (.infinity, 0) }
    let template = ShapeSample(path)
    // A one-key word's perfect swipe has no length: compare with half a key width.
    let ratio = SwipeRanking.ln(max(swipeLength, 0.5) / max(template.length, 0.5))
    return (swipe.distance(to: template), min(1, max(-1, ratio)))
  }

  /// The best words, best first, by the ranking (``SwipeDecoder/Options/ranking``).
  /// - Parameter swipeLength: the swipe's length in key widths (the filters' measurement).
  mutating func results(swipeLength: Float) -> [SwipeDecoding.Candidate] {
    guard !best.isEmpty else { return [] }
    let options = decoder.options
    let sample = ShapeSample(points)
    var ranked = best
    for i in ranked.indices {
      let id = ranked[i].id
      let keys = userKeys[id] ?? decoder.reader.keyPath(of: id) ?? []
      let (shape, ratio) = Self.shapeFeatures(
        keys: keys, swipe: sample, swipeLength: swipeLength, centers: decoder.centers)
      ranked[i].shapeDistance = shape
      ranked[i].lengthRatio = ratio
      ranked[i].score = Self.rankingScore(
        options: options, logCount: logCounts[Int(ranked[i].frequency)], contextPrior: ranked[i].contextPrior,
        distance: ranked[i].distance, shapeDistance: shape, lengthRatio: ratio)
    }
    ranked.sort { $0.precedes($1) }
    return ranked.prefix(options.resultCount).compactMap { entry in
      decoder.dictionary.word(for: entry.id).map {
        SwipeDecoding.Candidate(
          id: entry.id, word: $0, score: entry.score, distance: entry.distance, shapeDistance: entry.shapeDistance,
          lengthRatio: entry.lengthRatio, frequency: entry.frequency)
      }
    }
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
