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
/// 32  32    reserved (0)
/// 64  8×F   first words, ascending ID: word ID u32, offset u32 of its followers in the entries
///     E     entries: per first word, its followers by ascending ID, each a varint (the ID
///           less the previous follower's ID + 1; the first: the ID) and a frequency byte
/// ```
///
/// A follower's frequency byte is `round(255 · ln(1 + count) / scale)`, at least 1: the same
/// log scale as `FREQ`, relative to the list's most frequent pair. A first word's followers
/// run from its offset to the next first word's (or to E). Opening checks the header and that
/// the parts fill the section; every later read is bounds-checked; verifying checks the
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

  /// The section's bytes.
  /// - Parameters:
  ///   - wordCount: the automaton's word count.
  ///   - followers: per first word (ascending ID, each with at least one follower), its
  ///     followers by ascending ID with their frequency bytes.
  ///   - scale: `ln(1 + the largest bigram count)`.
  package static func encode(
    wordCount: Int, followers: [(first: Int, next: [(id: Int, frequency: UInt8)])], scale: Double
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
    out.pad(toMultipleOf: headerSize)
    out.append(contentsOf: records.bytes)
    out.append(contentsOf: entries.bytes)
    return out.bytes
  }
}
