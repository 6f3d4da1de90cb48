import SwipeDict

/// Draws word IDs from a dictionary, uniformly or in proportion to the words' counts, from a
/// seed: the test sets and benchmark sets for swipe decoders.
///
/// ```swift
/// let sampler = WordSampler(dictionary: dictionary, weighting: .frequency)
/// let ids = sampler.sample(1000, seed: 7)                   // with replacement
/// let words = ids.compactMap { dictionary.word(for: $0) }
/// ```
///
/// Frequency weighting gives each word a weight equal to the count its frequency byte
/// stands for (``SwipeDictionary/approximateCount(forFrequency:)``), so "the" comes up about
/// as often as in running text. Words sharing a byte share a weight, so the sampler keeps the
/// IDs grouped by byte (4 bytes per word) and a cumulative table over the 256 bytes: a draw
/// picks a byte by binary search, then an ID within it uniformly.
/// Building the table reads every frequency once: O(words).
public struct WordSampler: Sendable {
  /// How words are weighted.
  public enum Weighting: String, Sendable, Hashable, CaseIterable {
    /// Every ID equally likely.
    case uniform
    /// Each word in proportion to its (approximate) count.
    case frequency
  }

  /// The weighting the sampler was built with.
  public let weighting: Weighting
  /// The number of words drawn from.
  public let wordCount: Int
  /// IDs grouped by frequency byte (only for `.frequency`).
  private let ids: [UInt32]
  /// Per byte with a positive weight: its IDs' range in `ids`, and the cumulative weight of
  /// the buckets up to and including it.
  private let buckets: [(ids: Range<Int>, cumulative: Double)]

  /// Prepares a sampler over every word of `dictionary`.
  /// - Parameters:
  ///   - dictionary: the dictionary.
  ///   - weighting: uniform over IDs, or by frequency. When every word has frequency 0 the
  ///     frequency weighting falls back to uniform.
  public init(dictionary: SwipeDictionary, weighting: Weighting) {
    self.weighting = weighting
    wordCount = dictionary.wordCount
    guard weighting == .frequency, wordCount > 0 else {
      ids = []
      buckets = []
      return
    }
    // Counting sort of the IDs by frequency byte.
    var counts = [Int](repeating: 0, count: 256)
    for id in 0..<wordCount { counts[Int(dictionary.frequency(of: id) ?? 0)] += 1 }
    var starts = [Int](repeating: 0, count: 256)
    for q in 1..<256 { starts[q] = starts[q - 1] + counts[q - 1] }
    var grouped = [UInt32](repeating: 0, count: wordCount)
    var next = starts
    for id in 0..<wordCount {
      let q = Int(dictionary.frequency(of: id) ?? 0)
      grouped[next[q]] = UInt32(truncatingIfNeeded: id)
      next[q] += 1
    }
    var table: [(ids: Range<Int>, cumulative: Double)] = []
    var total = 0.0
    for q in 0..<256 where counts[q] > 0 {
      let weight = dictionary.approximateCount(forFrequency: UInt8(q)) * Double(counts[q])
      guard weight > 0, weight.isFinite else { continue }
      total += weight
      table.append((starts[q]..<(starts[q] + counts[q]), total))
    }
    ids = grouped
    buckets = table
  }

  /// Draws `count` IDs, with replacement.
  /// - Parameters:
  ///   - count: how many IDs to draw.
  ///   - seed: the random seed: the same seed and dictionary give the same IDs.
  /// - Returns: `count` IDs in `0..<wordCount` in draw order; empty if the dictionary is.
  public func sample(_ count: Int, seed: UInt64) -> [Int] {
    guard wordCount > 0, count > 0 else { return [] }
    // A stream of its own, so that samples and swipes from one seed are independent.
    var random = SeededGenerator(seed: seed, stream: .max)
    var out: [Int] = []
    out.reserveCapacity(count)
    for _ in 0..<count { out.append(draw(using: &random)) }
    return out
  }

  /// Draws one ID with `random`, for callers that interleave draws with other random choices.
  /// - Parameter random: the generator.
  /// - Returns: an ID in `0..<wordCount`; 0 when the dictionary is empty.
  package func draw(using random: inout SeededGenerator) -> Int {
    guard wordCount > 0 else { return 0 }
    guard let total = buckets.last?.cumulative else {
      return Int(random.below(UInt64(wordCount)))
    }
    let r = random.unit() * total
    // The first bucket whose cumulative weight exceeds r.
    var low = 0
    var high = buckets.count - 1
    while low < high {
      let mid = (low + high) / 2
      if buckets[mid].cumulative > r { high = mid } else { low = mid + 1 }
    }
    let bucket = buckets[low]
    return Int(ids[bucket.ids.lowerBound + Int(random.below(UInt64(bucket.ids.count)))])
  }
}
