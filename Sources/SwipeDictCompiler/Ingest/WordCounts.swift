/// Distinct words and their summed counts, as UTF-8 in one byte buffer: the table a build
/// merges its word lists into.
///
/// An open-addressing hash table over entry numbers; entries keep the order they were first
/// added in. A word costs its bytes plus about 30 bytes, with no `String` per word (the
/// `[String: Double]` this replaces took twice the time and memory on a 2M-word list).
///
/// Words are placed in batches: finding a word's slot is a cache miss on a large table, and
/// a batch first loads all its slots, so the misses overlap instead of following each other.
/// Call ``placePending()`` after the last ``add(_:count:)``, before reading the table.
struct WordCounts {
  /// Every entry's bytes, one after the other.
  private var arena: [UInt8] = []
  /// Entry i's bytes are `arena[starts[i]..<starts[i + 1]]`.
  private var starts: [Int] = [0]
  /// Entry i's summed count.
  private var sums: [Double] = []
  /// The table: per slot, 0 when empty, else the entry's hash in the high 32 bits and its
  /// number + 1 in the low ones (one load tells most words apart, and growing needs no
  /// rehashing). The count is a power of two; the table is at most three quarters full
  /// (linear probing then reads about two slots, mostly in the same cache line). Empty once
  /// ``removeIndex()`` freed it.
  private var slots = [UInt64](repeating: 0, count: 1024)

  /// Words added but not placed yet: their bytes (ending at `pendingEnds`) and counts.
  private var pendingBytes: [UInt8] = []
  private var pendingEnds: [Int] = []
  private var pendingCounts: [Double] = []
  /// The words placed together.
  private static let batchSize = 32
  /// What the batch's early loads read, kept so that the loads are not optimized away.
  private var touched: UInt64 = 0

  init() {}

  /// The number of distinct words.
  /// - Precondition: no word is pending (``placePending()``).
  var count: Int {
    precondition(pendingEnds.isEmpty, "words pending: call placePending() first")
    return starts.count - 1
  }

  /// Each entry's summed count.
  /// - Precondition: no word is pending (``placePending()``).
  var counts: [Double] {
    precondition(pendingEnds.isEmpty, "words pending: call placePending() first")
    return sums
  }

  /// Adds `count` to `word`'s entry, making it if it is new (in the next batch).
  /// - Parameter word: the word, already normalized (equal words must have equal bytes).
  mutating func add(_ word: String, count: Double) {
    var word = word
    word.withUTF8 { add($0, count: count) }
  }

  /// Adds `count` to the entry of the word whose UTF-8 is `bytes`, making it if it is new
  /// (in the next batch).
  /// - Precondition: ``removeIndex()`` was not called.
  mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, count: Double) {
    precondition(!slots.isEmpty, "the word index was removed")
    pendingBytes.append(contentsOf: bytes)
    pendingEnds.append(pendingBytes.count)
    pendingCounts.append(count)
    if pendingEnds.count == Self.batchSize { placePending() }
  }

  /// Places the words added since the last batch.
  mutating func placePending() {
    guard !pendingEnds.isEmpty else { return }
    // Room for the whole batch first, so that no slot moves during it.
    while (sums.count + pendingEnds.count) * 4 > slots.count * 3 { grow() }
    let mask = slots.count - 1
    var hashes: [UInt32] = []
    hashes.reserveCapacity(pendingEnds.count)
    pendingBytes.withUnsafeBufferPointer { all in
      var start = 0
      for end in pendingEnds {
        hashes.append(Self.hash(UnsafeBufferPointer(rebasing: all[start..<end])))
        start = end
      }
    }
    // Independent loads: the processor has them all in flight at once.
    var touched = self.touched
    for hash in hashes { touched |= slots[Int(hash) & mask] }
    self.touched = touched
    let pending = pendingBytes
    pending.withUnsafeBufferPointer { all in
      var start = 0
      for (i, end) in pendingEnds.enumerated() {
        place(UnsafeBufferPointer(rebasing: all[start..<end]), hash: hashes[i], count: pendingCounts[i])
        start = end
      }
    }
    pendingBytes.removeAll(keepingCapacity: true)
    pendingEnds.removeAll(keepingCapacity: true)
    pendingCounts.removeAll(keepingCapacity: true)
  }

  /// Adds `count` to the entry of `bytes`, making it if it is new.
  /// - Precondition: the table has room for one more entry.
  private mutating func place(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt32, count: Double) {
    let (slot, found) = find(bytes, hash: hash)
    if let found {
      sums[found] += count
      return
    }
    precondition(sums.count < Int(UInt32.max), "more than 2^32 - 1 distinct words")
    slots[slot] = UInt64(hash) << 32 | UInt64(sums.count + 1)
    arena.append(contentsOf: bytes)
    starts.append(arena.count)
    sums.append(0 + count)  // as summing into 0 does: -0.0 counts as +0.0
  }

  /// Frees the hash table (a third of the memory) once no word is added or looked up
  /// any more; the entries stay.
  /// - Precondition: no word is pending (``placePending()``).
  mutating func removeIndex() {
    precondition(pendingEnds.isEmpty, "words pending: call placePending() first")
    slots = []
  }

  /// Frees the summed counts once they are read (``counts`` is empty after); the words
  /// stay.
  /// - Precondition: ``removeIndex()`` was called (no word is added after this).
  mutating func removeCounts() {
    precondition(slots.isEmpty, "words can still be added: call removeIndex() first")
    sums = []
  }

  /// The entry number of `word`, if it has one.
  /// - Precondition: ``removeIndex()`` was not called.
  func index(of word: String) -> Int? {
    precondition(!slots.isEmpty, "the word index was removed")
    precondition(pendingEnds.isEmpty, "words pending: call placePending() first")
    var word = word
    return word.withUTF8 { find($0, hash: Self.hash($0)).found }
  }

  /// Calls `body` with entry `index`'s UTF-8 bytes.
  func withBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    let range = starts[index]..<starts[index + 1]
    return try arena.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
  }

  /// Entry `index`'s word.
  func word(at index: Int) -> String {
    String(decoding: arena[starts[index]..<starts[index + 1]], as: UTF8.self)
  }

  /// Whether entry `a`'s bytes precede entry `b`'s (lexicographic UTF-8 order, which is
  /// code-point order).
  func bytesPrecede(_ a: Int, _ b: Int) -> Bool {
    arena[starts[a]..<starts[a + 1]].lexicographicallyPrecedes(arena[starts[b]..<starts[b + 1]])
  }

  /// The slot `bytes` sits in, or the empty slot where it would go.
  private func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt32) -> (slot: Int, found: Int?) {
    let mask = slots.count - 1
    var slot = Int(hash) & mask
    return arena.withUnsafeBufferPointer { arena in
      while true {
        let value = slots[slot]
        if value == 0 { return (slot, nil) }
        if UInt32(truncatingIfNeeded: value >> 32) == hash {
          let entry = Int(truncatingIfNeeded: value & 0xFFFF_FFFF) - 1
          let start = starts[entry]
          let length = starts[entry + 1] - start
          if length == bytes.count
            && UnsafeBufferPointer(rebasing: arena[start..<start + length]).elementsEqual(bytes)
          {
            return (slot, entry)
          }
        }
        slot = (slot + 1) & mask
      }
    }
  }

  /// Doubles the slots and places every entry again.
  private mutating func grow() {
    let old = slots
    slots = [UInt64](repeating: 0, count: old.count * 2)
    let mask = slots.count - 1
    for value in old where value != 0 {
      var slot = Int(truncatingIfNeeded: value >> 32) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = value
    }
  }

  /// FNV-1a over the bytes, then ``murmurFinalized(_:)`` (FNV's low bits depend on the
  /// bytes' low bits only: similar words would crowd neighboring slots). Not randomly
  /// seeded: the table never leaves the process, and build time must not depend on a seed.
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return UInt32(truncatingIfNeeded: murmurFinalized(h))
  }
}

/// The scalars of UTF-8 that is known to be valid (the bytes of a Swift `String`), without
/// making a `String`.
enum UTF8Scalars {
  /// Calls `body` with each scalar of `bytes` in order, until it returns `false`.
  /// - Precondition: `bytes` is valid UTF-8 (invalid bytes read as U+FFFD, never trap).
  static func forEach(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Unicode.Scalar) -> Bool) {
    var i = 0
    let n = bytes.count
    while i < n {
      let lead = bytes[i]
      if lead < 0x80 {
        if !body(Unicode.Scalar(lead)) { return }
        i += 1
        continue
      }
      let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
      guard lead >= 0xC0, i + length <= n else {
        if !body("\u{FFFD}") { return }
        i += 1
        continue
      }
      var value = UInt32(lead & (0x7F >> length))
      for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
      if !body(Unicode.Scalar(value) ?? "\u{FFFD}") { return }
      i += length
    }
  }
}
