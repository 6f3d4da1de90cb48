#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `BIGR` section: how often one word follows another (a bigram list), for next-word
/// prediction (and, next, for ranking a swipe's or a typed word's candidates by the previous
/// word).
///
/// Written only when the build is given a bigram list (`swipedict build … --bigrams FILE`);
/// readers that predate it ignore it, as they ignore every tag they do not know.
///
/// ```
/// 0   8     word count (the automaton's)
/// 8   4     first-word count F (words with at least one follower)
/// 12  4     bigram count B
/// 16  4     entry byte count E
/// 20  4     reserved (0)
/// 24  8     scale: ln(1 + the largest bigram count), float64
/// 32  8     unigram total: ln Σ (1 + count) over the blob's words, float64, each count
///           what its `FREQ` byte stands for (ln(1 + count) = byte / 255 × FREQ's scale)
/// 40  24    reserved (0)
/// 64  8×F   first words, ascending ID: word ID u32, offset u32 of its followers in the entries
///     E     entries: per first word, its followers by ascending ID, each a varint (the ID
///           less the previous follower's ID + 1; the first: the ID) and a frequency byte
/// ```
///
/// A follower's frequency byte is `round(255 · ln(1 + count) / scale)`, at least 1: the same
/// log scale as `FREQ`, relative to the list's most frequent pair. A first word's followers
/// run from its offset to the next first word's (or to E). Opening checks the header and that
/// the parts fill the section (and that the scale and total are finite, not negative);
/// every later read is bounds-checked; verifying checks the
/// order of the first words, the offsets, every follower ID and that the entries decode to
/// exactly B followers.
@_spi(SwipeDictInternals) public enum BigramLayout {
  /// The size of the section header.
  @_spi(SwipeDictInternals) public static let headerSize = 64
  /// The size of one first-word record.
  @_spi(SwipeDictInternals) public static let firstRecordSize = 8

  /// The frequency byte of a pair's count on `scale` (`ln(1 + max count)`): 1…255, as
  /// `FrequencyLayout.quantize` (pairs of count 0 are not stored).
  package static func quantize(_ count: Double, scale: Double) -> UInt8 {
    max(1, FrequencyLayout.quantize(count, scale: scale))
  }

  /// `ln Σ (1 + count)` over the words whose `FREQ` bytes are `frequencies` on FREQ's
  /// `scale`: the total that turns a count into a probability, computed from the bytes so
  /// that it is exactly what the counts the blob stands for add up to.
  package static func unigramTotal(frequencies: some Sequence<UInt8>, scale: Double) -> Double {
    var histogram = [Int](repeating: 0, count: 256)
    for byte in frequencies { histogram[Int(byte)] += 1 }
    // ln Σ eˣ, factored by the largest exponent so that nothing overflows.
    guard let top = histogram.lastIndex(where: { $0 > 0 }) else { return 0 }
    let largest = Double(top) / 255 * scale
    var sum = 0.0
    for (byte, count) in histogram.enumerated() where count > 0 {
      sum += Double(count) * exp(Double(byte) / 255 * scale - largest)
    }
    return largest + log(sum)
  }

  /// The section's bytes.
  /// - Parameters:
  ///   - wordCount: the automaton's word count.
  ///   - followers: per first word (ascending ID, each with at least one follower), its
  ///     followers by ascending ID with their frequency bytes.
  ///   - scale: `ln(1 + the largest bigram count)`.
  ///   - unigramTotal: ``unigramTotal(frequencies:scale:)`` of the blob's `FREQ` bytes.
  package static func encode(
    wordCount: Int, followers: [(first: Int, next: [(id: Int, frequency: UInt8)])], scale: Double,
    unigramTotal: Double
  ) -> [UInt8] {
    var entries = ByteWriter()
    var records = ByteWriter()
    var bigrams = 0
    for (first, next) in followers {
      records.append(UInt32(first))
      records.append(UInt32(entries.count))
      precondition(!next.isEmpty, "a first word has at least one follower")
      var previous = -1
      for (id, frequency) in next {
        precondition(id > previous, "followers ascend")
        entries.appendVarint(UInt64(id - previous - 1))
        entries.append(frequency)
        previous = id
        bigrams += 1
      }
    }
    var out = ByteWriter()
    out.append(UInt64(wordCount))
    out.append(UInt32(followers.count))
    out.append(UInt32(bigrams))
    out.append(UInt32(entries.count))
    out.append(UInt32(0))
    out.append(scale)
    out.append(unigramTotal)
    out.pad(toMultipleOf: headerSize)
    out.append(contentsOf: records.bytes)
    out.append(contentsOf: entries.bytes)
    return out.bytes
  }
}
