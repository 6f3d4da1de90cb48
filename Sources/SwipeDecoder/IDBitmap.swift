/// A set of word IDs as one bit per word of the dictionary: the candidates of a swipe, held
/// in a fixed 1 bit per word (270 KB for 2.16M words) however many of them pass the
/// filters, where an array of IDs took 8 bytes per candidate and grew with the swipe.
/// Iterates in ascending order.
struct IDBitmap: Sequence {
  private var words: [UInt64] = []
  /// The range of `words` that may hold set bits, so that clearing touches only that.
  private var touched = 0..<0
  /// How many IDs are in the set.
  private(set) var count = 0
  /// IDs are below this.
  private(set) var limit = 0

  /// Empties the set and makes room for IDs below `limit` (keeps the storage when it fits).
  mutating func reset(limit: Int) {
    let needed = (Swift.max(0, limit) + 63) / 64
    if words.count != needed {
      words = [UInt64](repeating: 0, count: needed)
    } else {
      for i in touched { words[i] = 0 }
    }
    self.limit = Swift.max(0, limit)
    touched = 0..<0
    count = 0
  }

  /// Adds `id` (ignored outside `0..<limit`).
  mutating func insert(_ id: Int) {
    guard id >= 0, id < limit else { return }
    let word = id >> 6
    let bit = UInt64(1) << UInt64(id & 63)
    if words[word] & bit == 0 {
      words[word] |= bit
      count += 1
    }
    if touched.isEmpty {
      touched = word..<(word + 1)
    } else if word < touched.lowerBound {
      touched = word..<touched.upperBound
    } else if word >= touched.upperBound {
      touched = touched.lowerBound..<(word + 1)
    }
  }

  /// Removes `id` if it is in the set.
  mutating func remove(_ id: Int) {
    guard id >= 0, id < limit else { return }
    let bit = UInt64(1) << UInt64(id & 63)
    if words[id >> 6] & bit != 0 {
      words[id >> 6] &= ~bit
      count -= 1
    }
  }

  /// Removes the IDs for which `remove` is true.
  mutating func removeAll(where remove: (Int) -> Bool) {
    for w in touched where words[w] != 0 {
      var bits = words[w]
      var kept = bits
      while bits != 0 {
        let bit = bits.trailingZeroBitCount
        bits &= bits - 1
        if remove(w << 6 | bit) {
          kept &= ~(UInt64(1) << UInt64(bit))
          count -= 1
        }
      }
      words[w] = kept
    }
  }

  func makeIterator() -> Iterator { Iterator(words: words, range: touched) }

  /// Walks the set bits in ascending order.
  struct Iterator: IteratorProtocol {
    private let words: [UInt64]
    private var index: Int
    private let end: Int
    private var bits: UInt64 = 0

    fileprivate init(words: [UInt64], range: Range<Int>) {
      self.words = words
      index = range.lowerBound
      end = range.upperBound
      bits = index < end ? words[index] : 0
    }

    mutating func next() -> Int? {
      while bits == 0 {
        index += 1
        guard index < end else { return nil }
        bits = words[index]
      }
      let bit = bits.trailingZeroBitCount
      bits &= bits - 1
      return index << 6 | bit
    }
  }
}
