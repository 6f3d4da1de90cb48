/// The entries by word, in shards, so that a snapshot and the store share all but what a
/// write touches.
///
/// A `UserWords` snapshot holds a copy of the table; the store keeps writing to its own.
/// One `[String: UserEntry]` would be copied whole (20,000 entries, about 0.3 ms) by the
/// first write after every snapshot; in 64 shards, a write copies the shard list and the one
/// shard it changes (about 300 entries).
struct UserTable: Sendable, Equatable {
  private static let shardCount = 64
  private var shards = [[String: UserEntry]](repeating: [:], count: shardCount)
  private(set) var count = 0

  private static func shard(of word: String) -> Int {
    // `hashValue` is the same for canonically equivalent strings, as `==` is.
    Int(UInt(bitPattern: word.hashValue) % UInt(shardCount))
  }

  subscript(word: String) -> UserEntry? {
    shards[Self.shard(of: word)][word]
  }

  /// Sets the entry of its word.
  /// - Returns: the entry it replaced.
  @discardableResult
  mutating func set(_ entry: UserEntry) -> UserEntry? {
    let old = shards[Self.shard(of: entry.word)].updateValue(entry, forKey: entry.word)
    if old == nil { count += 1 }
    return old
  }

  /// Removes the entry of `word`.
  /// - Returns: the entry removed.
  @discardableResult
  mutating func remove(_ word: String) -> UserEntry? {
    let old = shards[Self.shard(of: word)].removeValue(forKey: word)
    if old != nil { count -= 1 }
    return old
  }

  /// Every entry, in no particular order.
  var values: [UserEntry] { shards.flatMap(\.values) }

  static func == (lhs: UserTable, rhs: UserTable) -> Bool {
    lhs.count == rhs.count && lhs.shards.allSatisfy { shard in shard.allSatisfy { rhs[$0.key] == $0.value } }
  }
}
