@_spi(SwipeDictInternals) import SwipeDictFormat

extension SwipeDictionary {
  /// The most frequent words of the dictionary, most frequent first (ties: lower ID first),
  /// from the top list (at most 1,000), without words that must not be suggested
  /// (``blocksOffensiveWords``).
  public func topWords(limit: Int = 10) -> [Suggestion] {
    guard let tree = prefixTree, limit > 0 else { return [] }
    var found: [Suggestion] = []
    for rank in 0..<tree.topCount {
      guard let id = tree.topID(rank), isSuggestible(id), let suggestion = suggestion(id) else { continue }
      found.append(suggestion)
      if found.count == limit { break }
    }
    return found
  }

  /// The words that start with `prefix` ignoring case and accents (`"uber"` completes to
  /// `"Über"` and `"überall"`), most frequent first; ties by ID. Letters typed as two
  /// count as the letter ("strass" completes to "Straße", "oeuv" to "œuvre"; see
  /// ``ids(matchingFolded:limit:)``). Words that must not be suggested
  /// (``blocksOffensiveWords``) are left out.
  ///
  /// Walks the prefix tree along the prefix's folded letters and reads its leaves, which rank
  /// their most frequent words; the automaton supplies the exact set of matching IDs (a few ID
  /// ranges), so the answer is exact even below the tree's depth of three letters.
  /// - Parameters:
  ///   - prefix: what the user typed so far; `""` gives the top words.
  ///   - limit: the most suggestions to return.
  /// - Complexity: O(limit × log leaves) for short prefixes, O(leaf size) at worst for long
  ///   ones; with a limit above 16, O(words with the prefix) when a leaf's ranked words run
  ///   out before the limit is reached.
  public func completions(prefix: String, limit: Int = 10) -> [Suggestion] {
    // Nothing longer than `BlobFormat.maxWordLength` is a prefix of a word of a blob.
    guard limit > 0, prefix.unicodeScalars.count <= BlobFormat.maxWordLength else { return [] }
    return userLayer.isEmpty
      ? blobCompletions(prefix: prefix, limit: limit) : completions(prefix: prefix, context: .empty, limit: limit)
  }

  /// ``completions(prefix:limit:)`` of the blob's words alone, by their own frequencies.
  func blobCompletions(prefix: String, limit: Int) -> [Suggestion] {
    guard prefix.unicodeScalars.count <= 4 * dawg.longestWord + 16 else { return [] }
    return blobCompletions(spellings: foldedSpellings(of: prefix), limit: limit)
  }

  /// ``blobCompletions(prefix:limit:)`` of the prefix's spellings (``foldedSpellings(of:)``).
  private func blobCompletions(spellings: [[Range<Int>]], limit: Int) -> [Suggestion] {
    guard spellings.count > 1 else { return spellings.first.map { completions(of: $0, limit: limit) } ?? [] }
    // "strass" completes to Straße and to strassenbahn: every spelling's best, merged.
    var seen = Set<Int>()
    let merged = spellings.flatMap { completions(of: $0, limit: limit) }
      .filter { seen.insert($0.id).inserted }
      .sorted { $0.frequency != $1.frequency ? $0.frequency > $1.frequency : $0.id < $1.id }
    return Array(merged.prefix(limit))
  }

  /// The words that start with `prefix` (as ``completions(prefix:limit:)``), ranked by their
  /// count in `context`: the word's own count raised by ``WordContext/boost(of:)``, so that
  /// after "new" the prefix "y" completes to "york" first.
  ///
  /// Exact: a word that never followed the previous word keeps its own order, so the best
  /// are among the `limit` most frequent completions and the previous word's followers that
  /// start with `prefix`; only the chosen ones are spelled.
  /// - Parameters:
  ///   - prefix: what the user typed so far; `""` gives next-word predictions mixed with the
  ///     top words.
  ///   - context: the previous word (``context(after:pairWeight:)``).
  ///   - limit: the most suggestions to return.
  /// - Returns: suggestions best first (ties: frequency, then ID); `score` is the word's
  ///   count in context as a frequency byte (`ln(count) + boost` in this blob's steps, so it
  ///   may pass 255).
  ///
  /// With ``userWords``, a word's count is its ``personalFrequency(of:)`` and the user's
  /// words the blob lacks complete too (their IDs from ``wordCount`` up).
  public func completions(prefix: String, context: WordContext, limit: Int = 10) -> [Suggestion] {
    // No word is longer than the longest one, the blob's or the user's.
    guard limit > 0, prefix.unicodeScalars.count <= 4 * max(dawg.longestWord, userLayer.longestExtra) + 16
    else { return [] }
    let spellings = foldedSpellings(of: prefix)
    let plain = blobCompletions(spellings: spellings, limit: limit)
    guard !context.isEmpty || !userLayer.isEmpty else { return plain }
    if context.isEmpty { return personalCompletions(plain: plain, prefix: prefix, spellings: spellings, limit: limit) }
    // The best, by a bounded insertion: the plain completions, then the followers that
    // match the prefix, then the user's words.
    var chosen = ChosenCompletions(
      limit: min(limit, wordCount + userLayer.extras.count),
      steps: WordContext.steps(frequencyScale: frequencyScale))
    for suggestion in plain {
      chosen.consider(
        suggestion.id, personalFrequency(suggestion.id, suggestion.frequency), context.boost(of: suggestion.id))
    }
    // The prefix's ID ranges (one per spelling variant), found when a scan needs them.
    var foundRanges: [Range<Int>]?
    func ranges() -> [Range<Int>] {
      if let foundRanges { return foundRanges }
      let found = spellings.flatMap { $0.isEmpty ? [0..<wordCount] : idRanges(matchingFolded: $0) }
      foundRanges = found
      return found
    }
    if !context.isEmpty { considerFollowers(context, spellings: spellings, ranges: ranges, into: &chosen) }
    if !userLayer.isEmpty {
      considerUserWords(
        context, plain: plain, prefix: prefix, spellings: spellings, ranges: ranges, into: &chosen)
    }
    return suggestions(chosen, plain: plain)
  }

  /// The best `limit` completions in context so far, best first (ties: frequency, then ID).
  private struct ChosenCompletions {
    let limit: Int
    let steps: Double
    private(set) var chosen: [WordContext.Completion] = []
    // A word met twice (a completion and a follower, or two spellings' ranges) scores the
    // same: it is kept once. Small limits test the few chosen; large ones keep a set.
    private var chosenIDs = Set<Int>()
    let large: Bool

    init(limit: Int, steps: Double) {
      self.limit = limit
      self.steps = steps
      large = limit > 32
    }

    /// Inserts word `id`, of `frequency` and `boost`, if it places.
    mutating func consider(_ id: Int, _ frequency: UInt8, _ boost: Float) {
      let candidate = WordContext.Completion(
        id: id, score: WordContext.score(frequency, boost, steps: steps), frequency: frequency)
      guard chosen.count < limit || candidate.precedes(chosen[chosen.count - 1]),
        large ? !chosenIDs.contains(id) : !chosen.contains(where: { $0.id == id })
      else { return }
      // Binary search for the place: O(log limit) comparisons.
      var lo = 0
      var hi = chosen.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if chosen[mid].precedes(candidate) { lo = mid + 1 } else { hi = mid }
      }
      chosen.insert(candidate, at: lo)
      if large { chosenIDs.insert(id) }
      if chosen.count > limit, let dropped = chosen.popLast(), large { chosenIDs.remove(dropped.id) }
    }

    /// Whether a word of frequency byte `best` with boost `maxBoost` could place.
    func wanted(_ best: UInt8, maxBoost: Float) -> Bool {
      guard chosen.count == limit, let last = chosen.last else { return true }
      let bound = WordContext.Completion(
        id: -1, score: WordContext.score(best, maxBoost, steps: steps), frequency: best)
      return bound.precedes(last) || bound.score == last.score
    }
  }

  /// A word's frequency byte as the user's uses raised it, else `own`.
  private func personalFrequency(_ id: Int, _ own: UInt8) -> UInt8 {
    userLayer.personalFrequency(of: id) ?? own
  }

  /// Offers the context's followers that match the prefix.
  private func considerFollowers(
    _ context: WordContext, spellings: [[Range<Int>]], ranges: () -> [Range<Int>],
    into chosen: inout ChosenCompletions
  ) {
    func scanFollowers(in ranges: [Range<Int>]) {
      for range in ranges {
        context.forEachFollower(in: range) { id, boost in
          guard let frequency = frequencies.byte(at: id), isSuggestible(id) else { return }
          chosen.consider(id, personalFrequency(id, frequency), boost)
        }
      }
    }
    // No spelling: a letter the alphabet lacks, no word of the blob (not "after a space").
    if !spellings.isEmpty, spellings.allSatisfy(\.isEmpty), chosen.limit <= WordContext.topCapacity {
      // After a space: the context's best followers, ranked when it was made (by their own
      // frequencies; raised ones come below). Exact when `limit` of them may be suggested,
      // or when they are all the followers.
      var usable = 0
      for index in context.topFollowers {
        let (id, boost) = context.follower(at: index)
        guard isSuggestible(id), let frequency = frequencies.byte(at: id) else { continue }
        usable += 1
        chosen.consider(id, personalFrequency(id, frequency), boost)
      }
      if usable < chosen.limit, !context.ranksEveryFollower { scanFollowers(in: ranges()) }
    } else {
      // One range per spelling variant of the prefix: a few.
      scanFollowers(in: ranges())
    }
  }

  /// Offers the words whose uses raised them, and the user's words the blob lacks; a block
  /// of them whose best byte, with the context's best boost, cannot place is skipped.
  private func considerUserWords(
    _ context: WordContext, plain: [Suggestion], prefix: String, spellings: [[Range<Int>]],
    ranges: () -> [Range<Int>], into chosen: inout ChosenCompletions
  ) {
    let maxBoost = context.maxBoost
    // Fewer plain completions than asked are all the blob has: the raised ones among them.
    if !userLayer.raisedIDs.isEmpty, plain.count == chosen.limit,
      chosen.wanted(userLayer.raisedMaximum, maxBoost: maxBoost)
    {
      for range in ranges() {
        userLayer.forEachRaised(in: range, wanted: { chosen.wanted($0, maxBoost: maxBoost) }) { id, raised in
          guard isSuggestible(id) else { return }
          chosen.consider(id, raised, context.boost(of: id))
        }
      }
    }
    // Their boosts are all the same (no pair lists them), so after a space their most
    // frequent `limit` are enough.
    if userLayer.extras.isEmpty || !chosen.wanted(userLayer.extrasMaximum, maxBoost: maxBoost) {
      // None can place.
    } else if prefix.isEmpty {
      for index in userLayer.extrasByFrequency.prefix(chosen.limit).map(Int.init) {
        chosen.consider(wordCount + index, userLayer.extras[index].frequency, context.boost(of: wordCount + index))
      }
    } else {
      for key in userKeys(prefix: prefix, spellings: spellings) {
        userLayer.forEachExtra(
          in: userLayer.extras(withFoldedPrefix: key), wanted: { chosen.wanted($0, maxBoost: maxBoost) }
        ) { index in
          chosen.consider(wordCount + index, userLayer.extras[index].frequency, context.boost(of: wordCount + index))
        }
      }
    }
  }

  /// The chosen words as suggestions, their spellings from the plain completions, else
  /// read. Small limits search the few; large ones hash.
  private func suggestions(_ choice: ChosenCompletions, plain: [Suggestion]) -> [Suggestion] {
    let (chosen, large) = (choice.chosen, choice.large)
    let plainByID = large ? Dictionary(plain.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) : [:]
    func plainSuggestion(_ id: Int) -> Suggestion? { large ? plainByID[id] : plain.first { $0.id == id } }
    let spelled = suggestions(chosen.map(\.id).filter { id in id < wordCount && plainSuggestion(id) == nil })
    let spelledByID = large ? Dictionary(spelled.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) : [:]
    return chosen.compactMap { entry in
      var found = plainSuggestion(entry.id) ?? (large ? spelledByID[entry.id] : spelled.first { $0.id == entry.id })
      if found == nil, let extra = userExtra(entry.id) {
        found = Suggestion(id: entry.id, word: extra.word, frequency: extra.frequency)
      }
      guard var suggestion = found else { return nil }
      suggestion.frequency = entry.frequency
      suggestion.score = entry.score
      return suggestion
    }
  }

  /// ``completions(prefix:context:limit:)`` with the user's words and no context: the plain
  /// completions by their personal frequencies, and the raised words and the user's words
  /// the blob lacks that can take one of their places. A word outside the plain ones is no
  /// more frequent than the last of them (ties: a higher ID) unless raised, so for most
  /// short prefixes the plain ones are the answer.
  private func personalCompletions(plain: [Suggestion], prefix: String, spellings: [[Range<Int>]], limit: Int)
    -> [Suggestion]
  {
    let layer = userLayer
    func precedes(_ a: Suggestion, _ b: Suggestion) -> Bool { (a.frequency, b.id) > (b.frequency, a.id) }
    var best = plain
    var raised = false
    for i in best.indices {
      if let personal = layer.personalFrequency(of: best[i].id), personal != best[i].frequency {
        best[i].frequency = personal
        best[i].score = Int(personal)
        raised = true
      }
    }
    if raised { best.sort(by: precedes) }
    // What a word must beat to place: nothing while fewer than `limit` are found. Fewer
    // plain completions than asked are all the blob has (the raised ones among them).
    let full = best.count >= limit
    let last = full ? best.last : nil
    func places(_ frequency: UInt8) -> Bool { last.map { frequency >= $0.frequency } ?? true }
    var more: [Suggestion] = []
    if full, !layer.raisedIDs.isEmpty, places(layer.raisedMaximum) {
      let ranges = spellings.flatMap { $0.isEmpty ? [0..<wordCount] : idRanges(matchingFolded: $0) }
      for range in ranges {
        layer.forEachRaised(in: range, wanted: places) { id, frequency in
          guard places(frequency), isSuggestible(id), !best.contains(where: { $0.id == id }) else { return }
          more.append(Suggestion(id: id, word: "", frequency: frequency))
        }
      }
    }
    if !layer.extras.isEmpty, places(layer.extrasMaximum) {
      if prefix.isEmpty {
        for index in layer.extrasByFrequency.prefix(limit).map(Int.init) {
          more.append(
            Suggestion(id: wordCount + index, word: layer.extras[index].word, frequency: layer.extras[index].frequency))
        }
      } else {
        for key in userKeys(prefix: prefix, spellings: spellings) {
          layer.forEachExtra(in: layer.extras(withFoldedPrefix: key), wanted: places) { index in
            let extra = layer.extras[index]
            guard places(extra.frequency) else { return }
            more.append(Suggestion(id: wordCount + index, word: extra.word, frequency: extra.frequency))
          }
        }
      }
    }
    guard !more.isEmpty else { return best }
    // Each word once: the raised ones are outside `best`, and an extra matches one
    // spelling's key only (the keys differ where a spelling reads two letters as one).
    let chosen = Array((best + more).sorted(by: precedes).prefix(limit))
    // The raised words that place, spelled.
    let unspelled = chosen.filter { $0.id < wordCount && $0.word.isEmpty }.map(\.id)
    guard !unspelled.isEmpty else { return chosen }
    let spelled = suggestions(unspelled)
    return chosen.map { suggestion in
      guard suggestion.word.isEmpty, let word = spelled.first(where: { $0.id == suggestion.id })?.word else {
        return suggestion
      }
      var suggestion = suggestion
      suggestion.word = word
      return suggestion
    }
  }

  /// The user's words' keys for a prefix: each of its spellings ("strass" is also "straß"),
  /// folded as the user's words are, in UTF-8; the prefix as typed, folded, when the
  /// alphabet lacks one of its letters.
  private func userKeys(prefix: String, spellings: [[Range<Int>]]) -> [[UInt8]] {
    if spellings.isEmpty { return [Array(UserLayer.fold(prefix, alphabet: alphabet, layout: layout).utf8)] }
    var keys: [[UInt8]] = []
    for classes in spellings {
      var key: [UInt8] = []
      for letter in classes { key.append(contentsOf: UTF8.encode(alphabet.folds[letter.lowerBound])!) }
      if !keys.contains(key) { keys.append(key) }
    }
    return keys
  }

  /// ``completions(prefix:limit:)`` of one spelling of the prefix, as folding classes.
  private func completions(of classes: [Range<Int>], limit: Int) -> [Suggestion] {
    guard limit > 0 else { return [] }
    // No more completions than words: a huge limit must not overflow or allocate.
    let limit = min(limit, wordCount)
    if classes.isEmpty {
      // The top list holds the 1,000 most frequent words: past them (a huge limit, or
      // words that must not be suggested among them), every word is ranked.
      let top = topWords(limit: limit)
      guard top.count < limit, (prefixTree?.topCount ?? 0) < wordCount else { return top }
      return suggestions(mostFrequent(in: [0..<wordCount], limit: limit))
    }
    // The tree answers most prefixes: one or two letters from the best list of the node they
    // lead to (format 1.3), a prefix that ends at a leaf from the leaf. Before format 1.3 the
    // most frequent words of one or two letters are nearly always among the top words.
    if let found = treeCompletions(classes, limit: limit) { return found }
    if bestLists == nil, classes.count <= 2, let found = topCompletions(classes, limit: limit) {
      return found
    }
    let ranges = idRanges(matchingFolded: classes)
    let total = ranges.reduce(0) { $0 + $1.count }
    if total == 0 { return [] }
    if total > 512, prefixTree != nil {
      // The leaves' ranked words, merged, answer when `limit` of them match; past a leaf's
      // ranked words (format 1.5), scanning the ranges costs less than ordering the leaf.
      var ids: [Int] = []
      let matches = RangeSet(ranges)
      let complete = forEachByFrequency(below: classes.map { prefixClass($0) }, rankedOnly: true) { id in
        if matches.contains(id), isSuggestible(id) { ids.append(id) }
        return ids.count < limit
      }
      if complete || ids.count == limit { return suggestions(ids) }
    }
    return suggestions(mostFrequent(in: ranges, limit: limit))
  }

  /// The `limit` most frequent words whose first letters fold like `classes`, from the tree:
  /// the best list of the interior node they lead to, or the leaf they end at, when every
  /// word in it starts so. `nil` when the tree cannot tell: the letters go past a leaf, a
  /// letter shares its tree class with another (an apostrophe, a letter of another script),
  /// the blob has no best lists, or a best list holds fewer such words than `limit` and is
  /// not all its node holds. Exact: a leaf ranks its most frequent words (and orders the rest
  /// from FREQ when a limit goes past them), and every word below a node that its list leaves
  /// out comes after the list's last word (frequency, then ID).
  func treeCompletions(_ classes: [Range<Int>], limit: Int) -> [Suggestion]? {
    guard let tree = prefixTree, case .node(var node)? = tree.root else { return nil }
    for (depth, letter) in classes.enumerated() {
      switch tree.child(of: node, prefixClass(letter)) {
      case .node(let child)?: node = child
      case .leaf(let index)?:
        guard depth + 1 == classes.count, let leaf = tree.leaf(index) else { return nil }
        for letter in classes where !isAloneInTreeClass(letter) { return nil }
        // The leaf's ranked words, then (rarely: a large limit, or words that must not be
        // suggested among them) the rest in order.
        var ids: [Int] = []
        for rank in 0..<leaf.rankedCount {
          guard let id = leaf.id(atRank: rank) else { return suggestions(ids) }
          guard isSuggestible(id) else { continue }
          ids.append(id)
          if ids.count == limit { return suggestions(ids) }
        }
        if leaf.count > leaf.rankedCount {
          for id in leaf.idsByFrequency(frequencies: frequencies).dropFirst(leaf.rankedCount) where isSuggestible(id) {
            ids.append(id)
            if ids.count == limit { break }
          }
        }
        return suggestions(ids)
      // No word starts so (or the tree is damaged: a short answer).
      case nil: return []
      }
    }
    guard let lists = bestLists else { return nil }
    var found: [Suggestion] = []
    var sound = true
    let read = lists.forEachEntry(of: node) { entry in
      let labels = entry.labels
      guard labels.count >= classes.count,
        // safe: every index is below classes.count <= labels.count, checked above.
        classes.indices.allSatisfy({ classes[$0].contains(Int(labels.uncheckedByte(at: $0))) }),
        isSuggestible(entry.id)
      else { return true }
      guard let frequency = frequencies.byte(at: entry.id), let word = labels.withUnsafeBytes({ string($0) }) else {
        sound = false
        return false
      }
      found.append(Suggestion(id: entry.id, word: word, frequency: frequency))
      return found.count < limit
    }
    guard let read, sound, found.count == limit || read < lists.listLength else { return nil }
    return found
  }

  /// Whether the labels `letter` are all of their tree class, so that the words below that
  /// child of a tree node are exactly those whose letter there is one of them: a whole
  /// folding class (not œ alone, which a typed "oe" stands for, where œ folds like o), of
  /// a…z in a blob whose tree puts other scripts in "other", or of a letter no other one
  /// shares its code point mod 26 with, in one that spreads them.
  func isAloneInTreeClass(_ letter: Range<Int>) -> Bool {
    let folds = alphabet.folds
    guard !letter.isEmpty, letter.upperBound <= folds.count else { return false }
    let fold = folds[letter.lowerBound]
    guard letter.lowerBound == 0 || folds[letter.lowerBound - 1] != fold,
      letter.upperBound == folds.count || folds[letter.upperBound] != fold
    else { return false }
    let rule = treeClassRule
    let treeClass = PrefixTreeLayout.treeClass(ofFolded: fold, rule: rule)
    guard treeClass != PrefixTreeLayout.otherClass else { return false }
    if rule == .latin { return true }
    return !folds.contains { $0 != fold && PrefixTreeLayout.treeClass(ofFolded: $0, rule: rule) == treeClass }
  }

  /// The `limit` most frequent words of the top list whose first letters fold like
  /// `classes`, or `nil` if the list has fewer. Exact: the top list holds the most frequent
  /// words in completion order (frequency, then ID), so every word outside it comes after
  /// every word in it.
  func topCompletions(_ classes: [Range<Int>], limit: Int) -> [Suggestion]? {
    guard let tree = prefixTree else { return nil }
    let spellings = tree.topSpellings
    var found: [Suggestion] = []
    var at = 0
    for rank in 0..<tree.topCount {
      guard let (m, size) = spellings.varint(at: at), m <= UInt64(spellings.count),
        let labels = spellings.slice(offset: at &+ size, length: Int(m))
      else { return nil }
      at &+= size &+ Int(m)
      guard labels.count >= classes.count else { continue }
      // safe: every index is below classes.count <= labels.count, checked above.
      guard classes.indices.allSatisfy({ classes[$0].contains(Int(labels.uncheckedByte(at: $0))) })
      else { continue }
      guard let id = tree.topID(rank), let frequency = frequencies.byte(at: id),
        let word = labels.withUnsafeBytes({ string($0) })
      else { return nil }
      guard isSuggestible(id) else { continue }
      found.append(Suggestion(id: id, word: word, frequency: frequency))
      if found.count == limit { return found }
    }
    return nil
  }
}
