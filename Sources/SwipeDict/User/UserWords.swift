/// An immutable snapshot of a user dictionary: what a query or the decoder consults.
///
/// A value: take it from ``UserDictionary/words`` and use it from any thread for as long as
/// you like; later writes (yours or another process's) do not change it. Lookups are exact
/// (case kept) and insensitive to normalization (`"e\u{301}"` finds `é`), like
/// `SwipeDictionary.contains(_:)`.
///
/// ```swift
/// let words = store.words
/// if words.isBlocked(candidate) { continue }        // never suggest it
/// let bonus = words.entry(for: candidate)?.uses ?? 0  // the user's own count
/// ```
public struct UserWords: Sendable {
  private var table: UserTable
  /// The sequence number of the last write this snapshot includes (0 for a new store).
  /// Two snapshots of one file with the same sequence hold the same entries.
  public private(set) var sequence: UInt64
  /// The most entries the store keeps; beyond it the least recently used are evicted.
  public let capacity: Int

  init(table: UserTable, sequence: UInt64, capacity: Int) {
    self.table = table
    self.sequence = sequence
    self.capacity = capacity
  }

  /// An empty snapshot.
  public init() { self.init(table: UserTable(), sequence: 0, capacity: UserDictionary.defaultCapacity) }

  /// The number of entries (added, learned and blocked).
  public var count: Int { table.count }

  /// Whether there are no entries.
  public var isEmpty: Bool { table.count == 0 }

  /// The entry of `word`, or `nil` if the user dictionary has none.
  /// - Complexity: O(length of `word`) on average (one hash lookup).
  public func entry(for word: String) -> UserEntry? { table[word] }

  /// Whether the user blocked `word` (it must never be suggested).
  public func isBlocked(_ word: String) -> Bool { table[word]?.kind == .blocked }

  /// Every entry, least recently used first (import restores this order).
  /// - Complexity: O(n log n): it sorts; keep the result if you need it more than once.
  public var entries: [UserEntry] { table.values.sorted { $0.lastUse < $1.lastUse } }

  /// The entries of one kind, least recently used first.
  /// - Complexity: O(n log n).
  public func entries(of kind: UserEntry.Kind) -> [UserEntry] {
    table.values.filter { $0.kind == kind }.sorted { $0.lastUse < $1.lastUse }
  }
}

extension UserWords: Equatable {
  /// Whether two snapshots hold the same entries (sequence and capacity aside).
  public static func == (lhs: UserWords, rhs: UserWords) -> Bool { lhs.table == rhs.table }
}

extension UserWords {
  /// Applies `change` to the entry of `word` in this snapshot only, by the rules the store
  /// writes by (``UserDictionary/learn(_:)``, `unlearn`, `block`, `add`), evicting as it does
  /// beyond ``capacity``: for a keyboard whose store cannot be written (no Full Access, a busy
  /// lock), so that what the user typed counts until it can be.
  /// - Parameter word: a word that passed ``UserWordRules/validate(_:)``.
  /// - Returns: the entry after the change, `nil` when there is none.
  @discardableResult
  package mutating func apply(_ change: UserEntryChange, to word: String) -> UserEntry? {
    let old = table[word]
    switch change.outcome(from: old) {
    case .unchanged:
      return old
    case .remove:
      sequence &+= 1
      table.remove(word)
      return nil
    case .set(let kind, let uses):
      if old == nil && table.count >= capacity {
        let victims = table.values.filter { $0.word != word }
        let learned = victims.filter { $0.kind == .learned }
        if let victim = (learned.isEmpty ? victims : learned).min(by: { $0.lastUse < $1.lastUse }) {
          table.remove(victim.word)
        }
      }
      sequence &+= 1
      let entry = UserEntry(word: word, kind: kind, uses: uses, lastUse: sequence)
      table.set(entry)
      return entry
    }
  }
}
