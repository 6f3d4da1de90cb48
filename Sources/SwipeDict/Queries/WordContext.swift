#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The previous word, prepared for ranking the next one by the blob's word pairs (`BIGR`):
/// how much more (or less) likely each word is after it than on its own.
///
/// Make one when the user commits a word and pass it to the decoder, completion or
/// correction until the next word is committed:
///
/// ```swift
/// let context = dictionary.context(after: "depends")
/// decoder.decode(points, context: context)            // "on" before "in"
/// dictionary.completions(prefix: "o", context: context)
/// ```
///
/// The model interpolates the pair's share of the previous word's followers with the word's
/// own share of all words (Jelinek–Mercer smoothing):
///
///     P(w | previous) = λ · c(previous, w) / c(previous) + (1 − λ) · c(w) / N
///
/// where c(previous, w) is what the pair's `BIGR` byte stands for, c(previous) the sum over
/// the previous word's listed followers, c(w) what the word's `FREQ` byte stands for and N
/// the sum over all words (stored in `BIGR`). A word's ``boost(of:)`` is
/// `ln(P(w | previous) / P(w))`: for a word that never followed the previous word in the
/// lists it is `ln(1 − λ)`, the same for all of them, so their order stays their own
/// frequency's; a listed pair raises its word by as much as the lists saw it follow.
///
/// Without a previous word, on a blob without pairs, or when the previous word has no
/// listed followers, the context is empty and every boost is 0. A `WordContext` holds its
/// own arrays (no blob memory): keep it as long as you like; it belongs to the dictionary
/// that made it.
public struct WordContext: Sendable, Hashable {
  /// The previous word's ID in the dictionary that made the context, when it was found and
  /// has listed followers; `nil` for an empty context.
  public let previousID: Int?
  /// The interpolation weight λ of the pairs (0…0.999).
  public let pairWeight: Double
  /// The previous word's listed followers, ascending ID, and their boosts.
  private let followers: [Int32]
  private let followerBoosts: [Float]
  /// The boost of every other word: `ln(1 − λ)`.
  private let unlistedBoost: Float
  /// The indices (into `followers`) of the followers with the highest count in context
  /// (`ln(1 + count) + boost`), best first (ties: lower ID), at most ``topCapacity``: the
  /// next-word completions of an empty prefix without a scan.
  let topFollowers: [Int32]
  /// The largest boost of any word (0 in an empty context): a bound for skipping words by
  /// their frequency alone.
  let maxBoost: Float

  /// How many of the best followers a context keeps ranked.
  static let topCapacity = 32

  /// λ when none is given: measured on English sentences (`docs/context.md`).
  public static let defaultPairWeight = 0.8

  /// The empty context: no previous word; every boost is 0.
  public static let empty = WordContext(
    previousID: nil, pairWeight: 0, followers: [], followerBoosts: [], unlistedBoost: 0, topFollowers: [])

  private init(
    previousID: Int?, pairWeight: Double, followers: [Int32], followerBoosts: [Float], unlistedBoost: Float,
    topFollowers: [Int32]
  ) {
    self.previousID = previousID
    self.pairWeight = pairWeight
    self.followers = followers
    self.followerBoosts = followerBoosts
    self.unlistedBoost = unlistedBoost
    self.topFollowers = topFollowers
    maxBoost = max(unlistedBoost, followerBoosts.max() ?? 0)
  }

  /// Whether the context changes nothing (no previous word with listed followers).
  public var isEmpty: Bool { previousID == nil }

  /// How many of the previous word's followers the pairs list.
  public var followerCount: Int { followers.count }

  /// `ln(P(w | previous) / P(w))` for word `id`: what the context adds to the natural log of
  /// the word's count (0 in an empty context).
  public func boost(of id: Int) -> Float {
    guard !followers.isEmpty else { return 0 }
    let lo = followers.firstIndex(notBelow: id)
    return lo < followers.count && Int(followers[lo]) == id ? followerBoosts[lo] : unlistedBoost
  }

  /// Calls `body` with each listed follower in `range` (word IDs), its ID and boost, by
  /// ascending ID: a binary search, then only the followers inside.
  func forEachFollower(in range: Range<Int>, _ body: (Int, Float) -> Void) {
    var lo = followers.firstIndex(notBelow: range.lowerBound)
    while lo < followers.count, Int(followers[lo]) < range.upperBound {
      body(Int(followers[lo]), followerBoosts[lo])
      lo &+= 1
    }
  }

  /// The follower at `index` of ``topFollowers``: its ID and boost.
  func follower(at index: Int32) -> (id: Int, boost: Float) {
    (Int(followers[Int(index)]), followerBoosts[Int(index)])
  }

  /// Whether ``topFollowers`` holds every listed follower.
  var ranksEveryFollower: Bool { topFollowers.count == followers.count }

  /// The context after word `previous` of `dictionary`.
  init(dictionary: SwipeDictionary, previous: Int, bigrams: BigramView, pairWeight: Double) {
    // λ in 0…0.999: NaN and values outside mean none, or almost all, weight on the pairs.
    let lambda = pairWeight.isNaN ? 0 : min(max(pairWeight, 0), 0.999)
    var ids: [Int32] = []
    var pairLogs: [Double] = []
    bigrams.forEachFollower(of: previous) { id, byte in
      ids.append(Int32(truncatingIfNeeded: id))
      pairLogs.append(Double(byte) / 255 * bigrams.scale)
      return true
    }
    guard lambda > 0, !ids.isEmpty else {
      self = .empty
      return
    }
    // c(previous, w) = e^(ln(1 + c)) − 1; their sum, factored by the largest.
    let largest = pairLogs.max()!
    let total = pairLogs.reduce(0.0) { $0 + expm1($1) * exp(-largest) }
    let frequencyScale = dictionary.frequencyScale
    let unlisted = log1p(-lambda)
    var boosts: [Float] = []
    boosts.reserveCapacity(ids.count)
    // The best followers in completion's order, kept by a bounded insertion.
    let steps = Self.steps(frequencyScale: frequencyScale)
    var top: [Completion] = []
    for (id, pairLog) in zip(ids, pairLogs) {
      // ln(λ · N · c(previous, w) / c(previous)) against ln((1 − λ) · c(w)), on the
      // decoder's scale of ln(1 + count); their sum less ln c(w) is the boost.
      let own = Double(dictionary.frequency(of: Int(id)) ?? 0) / 255 * frequencyScale
      let share = log(expm1(pairLog) * exp(-largest) / total)
      let pair = log(lambda) + bigrams.unigramTotal + share
      let mixed = Self.logAdd(pair, own + unlisted)
      let boost = Float(mixed - own)
      boosts.append(boost)
      let frequency = dictionary.frequency(of: Int(id)) ?? 0
      // Ranked by index, which orders the followers as their IDs do.
      let entry = Completion(
        id: boosts.count - 1, score: Self.score(frequency, boost, steps: steps), frequency: frequency)
      if top.count < Self.topCapacity || entry.precedes(top[top.count - 1]) {
        var i = top.count
        while i > 0, entry.precedes(top[i - 1]) { i -= 1 }
        top.insert(entry, at: i)
        if top.count > Self.topCapacity { top.removeLast() }
      }
    }
    self.init(
      previousID: previous, pairWeight: lambda, followers: ids, followerBoosts: boosts,
      unlistedBoost: Float(unlisted), topFollowers: top.map { Int32($0.id) })
  }

  /// A word ranked for completion in context: by ``score(_:_:steps:)``, then frequency,
  /// then lower ID.
  struct Completion {
    var id: Int
    var score: Int
    var frequency: UInt8

    func precedes(_ other: Completion) -> Bool {
      (score, frequency, -id) > (other.score, other.frequency, -other.id)
    }
  }

  /// A blob's frequency steps per e-fold of count.
  static func steps(frequencyScale: Double) -> Double {
    frequencyScale > 0 ? 255 / frequencyScale : 255
  }

  /// A word's count in context as a frequency byte: its byte plus its boost in the blob's
  /// steps, rounded (clamped far inside `Int`).
  static func score(_ frequency: UInt8, _ boost: Float, steps: Double) -> Int {
    let value = (Double(frequency) + Double(boost) * steps).rounded()
    return Int(max(-1e9, min(1e9, value)))
  }

  /// `ln(eᵃ + eᵇ)` without overflow.
  private static func logAdd(_ a: Double, _ b: Double) -> Double {
    let (high, low) = a > b ? (a, b) : (b, a)
    return high + log1p(exp(low - high))
  }
}

extension SwipeDictionary {
  /// The context for ranking the word after `previous` (see ``WordContext``).
  ///
  /// `previous` is looked up as typed, then lowercased (a sentence's first word is often
  /// capitalized), then with a capital first letter ("i" finds "I").
  /// - Parameters:
  ///   - previous: the word before the one being typed or swiped.
  ///   - pairWeight: the interpolation weight λ of the pairs, 0…0.999 (other values are
  ///     clamped; NaN is 0).
  /// - Returns: an empty context when the blob has no pairs, `previous` is no word of the
  ///   blob, or it has no listed followers. O(followers): make it once per committed word.
  public func context(after previous: String, pairWeight: Double = WordContext.defaultPairWeight) -> WordContext {
    guard let bigramView, let id = previousWordID(previous) else { return .empty }
    return WordContext(dictionary: self, previous: id, bigrams: bigramView, pairWeight: pairWeight)
  }

  /// The ID of a previous word: as typed, then lowercased, then with a capital first letter.
  func previousWordID(_ previous: String) -> Int? {
    let lowered = previous.lowercased()
    let capitalized = lowered.prefix(1).uppercased() + lowered.dropFirst()
    return id(of: previous) ?? id(of: lowered) ?? id(of: capitalized)
  }
}

extension [Int32] {
  /// The index of the first ID not below `id` in these ascending word IDs (`count` if none):
  /// a binary search.
  func firstIndex(notBelow id: Int) -> Int {
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      if Int(self[mid]) < id { lo = mid &+ 1 } else { hi = mid }
    }
    return lo
  }
}
