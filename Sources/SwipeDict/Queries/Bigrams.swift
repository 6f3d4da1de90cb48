@_spi(SwipeDictInternals) import SwipeDictFormat

extension SwipeDictionary {
  /// Whether the blob has word pairs (a `BIGR` section, from `swipedict build --bigrams`).
  public var hasBigrams: Bool { bigramView != nil }

  /// How often word `next` follows word `previous` in the build's bigram lists: a frequency
  /// byte (1…255, log scale, relative to the most frequent pair), or `nil` when the pair
  /// was not listed (or the blob has no pairs).
  public func bigramFrequency(of next: Int, after previous: Int) -> UInt8? {
    bigramView?.frequency(of: next, after: previous)
  }

  /// The words that most often follow `previous`: next-word predictions after a space.
  ///
  /// `previous` is looked up as typed, then lowercased (a sentence's first word is often
  /// capitalized), then with a capital first letter ("i" finds "I"). Words that may not be
  /// suggested are left out.
  /// - Returns: suggestions by descending pair frequency (ties: the word's own frequency,
  ///   then ID); `score` is the pair's frequency byte (`BIGR`'s scale), `frequency` the
  ///   word's own, `distance` 0. Empty when
  ///   `previous` is no word of the blob or the blob has no pairs.
  public func nextWords(after previous: String, limit: Int = 10) -> [Suggestion] {
    guard limit > 0, let bigramView else { return [] }
    guard let first = previousWordID(previous) else { return [] }
    // The best `limit` only ("the" has ~10,000 followers): a bounded insertion.
    let limit = min(limit, wordCount)
    var chosen: [(id: Int, pair: UInt8, own: UInt8)] = []
    func precedes(_ a: (id: Int, pair: UInt8, own: UInt8), _ b: (id: Int, pair: UInt8, own: UInt8)) -> Bool {
      (a.pair, a.own, -a.id) > (b.pair, b.own, -b.id)
    }
    bigramView.forEachFollower(of: first) { id, pair in
      let follower = (id: id, pair: pair, own: frequencies.byte(at: id) ?? 0)
      guard chosen.count < limit || precedes(follower, chosen[chosen.count - 1]), isSuggestible(id) else { return true }
      var i = chosen.count
      while i > 0, precedes(follower, chosen[i - 1]) { i -= 1 }
      chosen.insert(follower, at: i)
      if chosen.count > limit { chosen.removeLast() }
      return true
    }
    let words = Dictionary(suggestions(chosen.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    return chosen.compactMap { follower in
      guard var suggestion = words[follower.id] else { return nil }
      suggestion.score = Int(follower.pair)
      return suggestion
    }
  }

  /// The words that most often follow `previous`: ``nextWords(after:limit:)`` under its
  /// first name, which read as if it completed a prefix.
  @available(*, deprecated, renamed: "nextWords(after:limit:)")
  public func completions(after previous: String, limit: Int = 10) -> [Suggestion] {
    nextWords(after: previous, limit: limit)
  }
}
