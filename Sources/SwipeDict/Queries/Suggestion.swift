@_spi(SwipeDictInternals) import SwipeDictFormat

/// A word offered to the user: by completion, correction or the top list.
public struct Suggestion: Sendable, Hashable {
  /// The word's ID.
  public var id: Int
  /// The word.
  public var word: String
  /// Its quantized frequency (0…255, log scale): the blob's, raised by the user's uses
  /// (``SwipeDictionary/personalFrequency(of:)``) in completions.
  public var frequency: UInt8
  /// How far the word is from the input (0 for completions and exact words): for the typing
  /// corrector, the edits' cost in ``TypingCosts`` units (1/32 decade); for the Kännsch
  /// corrector, its adjusted Levenshtein distance.
  public var distance: Int
  /// The ranking score, higher is better: the frequency byte less the distance's penalty in
  /// the blob's frequency steps (so it is often negative for corrections, and not
  /// `frequency − distance`: the typing corrector converts its cost to the blob's steps);
  /// for next-word predictions (``SwipeDictionary/nextWords(after:limit:)``), the pair's
  /// frequency byte.
  public var score: Int

  /// Creates a suggestion.
  public init(id: Int, word: String, frequency: UInt8, distance: Int = 0, score: Int? = nil) {
    self.id = id
    self.word = word
    self.frequency = frequency
    self.distance = distance
    self.score = score ?? Int(frequency)
  }
}

// What completion and correction share: the ID ranges and tree classes of a folded prefix,
// the most frequent words among them, and the suggestions their IDs make.
extension SwipeDictionary {
  /// Suggestions for IDs (words and frequencies), in the order given; IDs that are not words
  /// are left out. The words are read in ascending ID order with one cursor, so IDs below a
  /// common prefix share its descent.
  func suggestions(_ ids: [Int]) -> [Suggestion] {
    var words = [String?](repeating: nil, count: ids.count)
    var speller = DAWGView.Speller(dawg: dawg)
    var previous = -1
    for index in ids.indices.sorted(by: { ids[$0] < ids[$1] }) where ids[index] > previous {
      previous = ids[index]
      if speller.spell(ids[index]) { words[index] = string(speller.labels) }
    }
    return ids.indices.compactMap { index in
      guard let word = words[index], let frequency = frequency(of: ids[index]) else { return nil }
      return Suggestion(id: ids[index], word: word, frequency: frequency)
    }
  }

  /// A suggestion for an ID (word and frequency), or `nil` if it is not a word.
  func suggestion(_ id: Int) -> Suggestion? {
    guard let word = word(for: id), let frequency = frequency(of: id) else { return nil }
    return Suggestion(id: id, word: word, frequency: frequency)
  }

  /// How this blob's tree classes its letters (by its header flag).
  var treeClassRule: PrefixTreeLayout.ClassRule { PrefixTreeLayout.ClassRule(headerFlags: contents.header.flags) }

  /// The tree class of a folding class (they are whole folding classes, so one label tells).
  func prefixClass(_ labels: Range<Int>) -> Int {
    PrefixTreeLayout.treeClass(ofFolded: alphabet.folds[labels.lowerBound], rule: treeClassRule)
  }

  /// The ID ranges of the words whose first characters fold like `classes` (one range per
  /// spelling variant of the prefix), ascending. Bounded work on any blob.
  func idRanges(matchingFolded classes: [Range<Int>]) -> [Range<Int>] {
    guard classes.count <= dawg.longestWord else { return [] }
    var ranges: [Range<Int>] = []
    var budget = 1 << 14
    // A node's words are the IDs from the output sum of its path (`output`) up to the next
    // transition's of its parent (`end`): no walk below it is needed to count them.
    func search(_ address: Int, _ depth: Int, _ output: Int, _ end: Int) {
      if depth == classes.count {
        if output < end, end <= wordCount { ranges.append(output..<end) }
        return
      }
      guard budget > 0, let node = dawg.node(at: address) else { return }
      budget -= 1
      let wanted = classes[depth]
      var i = dawg.firstIndex(ofLabelAtLeast: wanted.lowerBound, in: node)
      while i < node.count, Int(dawg.label(node, i)) < wanted.upperBound {
        guard let next = dawg.target(node, i) else { return }
        let start = output &+ dawg.output(node, i)
        let stop = i &+ 1 < node.count ? output &+ dawg.output(node, i &+ 1) : end
        // Outputs ascend on a valid automaton; a damaged one must not widen a range.
        guard start >= output, start <= stop, stop <= end else { return }
        search(next, depth + 1, start, stop)
        i += 1
      }
    }
    search(dawg.root, 0, 0, wordCount)
    return ranges
  }

  /// The `limit` most frequent suggestible IDs in `ranges` (ties by ID), most frequent first.
  func mostFrequent(in ranges: [Range<Int>], limit: Int) -> [Int] {
    var best: [(frequency: UInt8, id: Int)] = []
    for range in ranges {
      for id in range {
        guard let f = frequencies.byte(at: id) else { break }
        if best.count == limit, let last = best.last, f <= last.frequency { continue }
        guard isSuggestible(id) else { continue }
        var i = best.count
        while i > 0, best[i - 1].frequency < f { i -= 1 }
        best.insert((f, id), at: i)
        if best.count > limit { best.removeLast() }
      }
    }
    return best.map(\.id)
  }

  /// Calls `body` with the IDs below the tree node reached by `path` (tree classes; it stops
  /// at a leaf), most frequent first (ties by ID), until `body` returns `false`.
  /// - Parameter rankedOnly: stop where a leaf's ranked words run out (format 1.5) rather
  ///   than order the rest of that leaf.
  /// - Returns: `false` if it stopped there, with IDs left that `body` did not decline.
  @discardableResult
  func forEachByFrequency(below path: [Int], rankedOnly: Bool = false, _ body: (Int) -> Bool) -> Bool {
    guard let tree = prefixTree, var reference = tree.root else { return true }
    for treeClass in path.prefix(PrefixTreeLayout.maxDepth) {
      guard case .node(let node) = reference else { break }
      guard let child = tree.child(of: node, treeClass) else { return true }
      reference = child
    }
    // The leaves below, merged by (frequency descending, ID ascending) with a binary heap.
    // A valid tree is three levels deep and names each leaf once; on a damaged one, deeper
    // nodes and repeated leaves are ignored and at most `wordCount` IDs come out.
    var leaves: [PrefixTreeView.Leaf] = []
    var seen = Set<Int>()
    func collect(_ reference: PrefixTreeView.Reference, depth: Int) {
      switch reference {
      case .leaf(let index):
        if seen.insert(index).inserted, let leaf = tree.leaf(index), leaf.count > 0 { leaves.append(leaf) }
      case .node(let node):
        guard depth < PrefixTreeLayout.maxDepth else { return }
        for c in 0..<PrefixTreeLayout.fanout {
          if let child = tree.child(of: node, c) { collect(child, depth: depth + 1) }
        }
      }
    }
    collect(reference, depth: min(path.count, PrefixTreeLayout.maxDepth))
    var merge = FrequencyMerge(leaves: leaves, frequencies: frequencies, rankedOnly: rankedOnly)
    var emitted = 0
    while emitted < wordCount, let id = merge.next() {
      emitted += 1
      if !body(id) { return true }
    }
    return !merge.ranOutOfRanks
  }
}
