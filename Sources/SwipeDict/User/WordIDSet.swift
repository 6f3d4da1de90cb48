/// A set of a blob's word IDs as one bit per word: membership without hashing, for the
/// queries that ask it of every word they consider (``UserLayer/blocked``).
///
/// It takes ⌈n / 64⌉ words of 8 bytes for a blob of n words once it holds an ID (39 KB for
/// the 311,049 words of en), nothing while it is empty.
struct WordIDSet: Sendable {
  private var bits: [UInt64] = []
  /// How many IDs it holds.
  private(set) var count = 0

  /// An empty set.
  init() {}

  /// The IDs of `ids` in `0..<wordCount` (others are left out).
  init(_ ids: some Sequence<Int>, wordCount: Int) {
    for id in ids where id >= 0 && id < wordCount {
      if bits.isEmpty { bits = [UInt64](repeating: 0, count: (wordCount + 63) >> 6) }
      let mask: UInt64 = 1 << UInt64(id & 63)
      if bits[id >> 6] & mask == 0 {
        bits[id >> 6] |= mask
        count += 1
      }
    }
  }

  var isEmpty: Bool { count == 0 }

  func contains(_ id: Int) -> Bool {
    let word = id >> 6
    guard id >= 0, word < bits.count else { return false }
    return bits[word] & (1 << UInt64(id & 63)) != 0
  }

  /// Calls `body` with each ID, ascending.
  func forEach(_ body: (Int) -> Void) {
    for (index, word) in bits.enumerated() where word != 0 {
      var rest = word
      while rest != 0 {
        body(index << 6 | rest.trailingZeroBitCount)
        rest &= rest &- 1
      }
    }
  }
}
