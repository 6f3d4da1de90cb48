@_spi(SwipeDictInternals) import SwipeDictFormat

/// The best `limit` candidates so far, by (score, frequency) descending then ID ascending;
/// with a `margin`, none scoring more than that below the best (both correction models).
struct RankedSuggestions {
  struct Entry {
    var id: Int
    var distance: Int
    var score: Int
    var frequency: Int
  }

  let limit: Int
  let frequencies: UnsafeByteView
  /// Scores more than this below the best are not kept (`nil`: no margin).
  let margin: Int?
  private(set) var entries: [Entry] = []

  init(limit: Int, frequencies: UnsafeByteView, margin: Int? = nil) {
    self.limit = limit
    self.frequencies = frequencies
    self.margin = margin
    entries.reserveCapacity(limit + 1)
  }

  /// The entries without those that fell more than `margin` below the best found later.
  var kept: [Entry] {
    guard let first = entries.first, let margin else { return entries }
    return entries.filter { $0.score >= first.score - margin }
  }

  private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
    if a.score != b.score { return a.score > b.score }
    if a.frequency != b.frequency { return a.frequency > b.frequency }
    return a.id < b.id
  }

  /// Whether a word of this frequency could enter at distance 0 (its best possible score).
  func admits(_ frequency: Int, _ id: Int) -> Bool {
    admits(Entry(id: id, distance: 0, score: frequency, frequency: frequency))
  }

  /// Whether some word scoring at most `bound` could still enter (ties may, by frequency or ID).
  func admits(bound: Int) -> Bool {
    admits(Entry(id: -1, distance: 0, score: bound, frequency: .max))
  }

  private func admits(_ best: Entry) -> Bool {
    if let first = entries.first, let margin, best.score < first.score - margin { return false }
    guard entries.count == limit, let last = entries.last else { return true }
    return Self.precedes(best, last)
  }

  /// Records a candidate; a word already present keeps its better score.
  mutating func insert(id: Int, distance: Int, score: Int) {
    let frequency = Int(frequencies.byte(at: id) ?? 0)
    let entry = Entry(id: id, distance: distance, score: score, frequency: frequency)
    // An entry that cannot beat the last cannot beat an earlier copy of itself either.
    if entries.count == limit, let last = entries.last, !Self.precedes(entry, last) { return }
    if let existing = entries.firstIndex(where: { $0.id == id }) {
      guard Self.precedes(entry, entries[existing]) else { return }
      entries.remove(at: existing)
    }
    guard entries.count < limit || Self.precedes(entry, entries[entries.count - 1]) else { return }
    var i = entries.count
    while i > 0, Self.precedes(entry, entries[i - 1]) { i -= 1 }
    entries.insert(entry, at: i)
    if entries.count > limit { entries.removeLast() }
  }
}
