@_spi(SwipeDictInternals) import SwipeDictFormat

extension SwipeDictionary {
  /// Proves the `FEAT` and `PTRE` sections against the automaton and the layout: every
  /// record equals the one recomputed from the word's key path; every word lies in exactly
  /// one leaf, the leaf its first letters lead to; leaves are split by the Kännsch rule and
  /// rank their most frequent words in order; the top list holds the most frequent words in order,
  /// spelled as the automaton spells them.
  func verifySwipeSections() throws(FormatError) {
    guard featureView != nil || prefixTree != nil else { return }
    let facts = try wordFacts()
    if let features = featureView { try verify(features, facts: facts) }
    if let tree = prefixTree { try verify(tree, firstClasses: facts.firstClasses) }
  }

  /// What the swipe checks need of every word, from one depth-first walk.
  private struct WordFacts {
    /// The tree classes of each word's first `maxDepth` labels (`otherClass` past the end).
    var firstClasses: [UInt8]
    /// Each word's packed feature record as recomputed from its spelling (0 if the layout
    /// cannot type it).
    var records: [UInt32]
  }

  private func wordFacts() throws(FormatError) -> WordFacts {
    let depth = PrefixTreeLayout.maxDepth
    let classes = PrefixTreeLayout.labelClasses(alphabet, rule: treeClassRule)
    let layout = self.layout
    let centers = layout.keys.map { (x: $0.x, y: $0.y) }
    let labelKeys: [Int?] = alphabet.scalars.map { layout.key(for: $0) }
    var facts = WordFacts(
      firstClasses: [UInt8](repeating: UInt8(PrefixTreeLayout.otherClass), count: wordCount * depth),
      records: [UInt32](repeating: 0, count: wordCount))
    var cursor = WordCursor(dawg: dawg, range: 0..<wordCount)
    var seen = 0
    var path: [Int] = []
    while cursor.next() {
      let id = cursor.id
      for (d, label) in cursor.labels.prefix(depth).enumerated() {
        facts.firstClasses[id * depth + d] = classes[Int(label)]
      }
      path.removeAll(keepingCapacity: true)
      for label in cursor.labels { if let k = labelKeys[Int(label)], path.last != k { path.append(k) } }
      if !path.isEmpty, path.allSatisfy({ $0 < FeatureLayout.maxKeys }) {
        facts.records[id] = FeatureLayout.Record(path: path, centers: centers, keyWidth: layout.keyWidth).packed
      }
      seen += 1
    }
    guard seen == wordCount else {
      throw FormatError(.malformed("walked \(seen) words of \(wordCount)"), section: .dawg, offset: 0)
    }
    return facts
  }

  private func verify(_ features: FeatureView, facts: WordFacts) throws(FormatError) {
    let base = Int(contents.section(.features)!.offset) + FeatureLayout.headerSize
    for id in 0..<wordCount {
      // A narrow record holds all but the key count: compare it as a reader widens it.
      let expected =
        features.isNarrow ? FeatureLayout.widened(FeatureLayout.narrowed(facts.records[id])) : facts.records[id]
      guard features.record(id) != nil, features.packed(id) == expected else {
        throw FormatError(
          .malformed("record of word \(id) does not match its key path"), section: .features,
          offset: base + id * features.recordSize)
      }
    }
    if features.isNarrow, features.records.byte(at: features.records.count - 1) != 0 {
      throw FormatError(
        .malformed("the byte after the narrow records is not 0"), section: .features,
        offset: base + features.records.count - 1)
    }
  }

  private func verify(_ tree: PrefixTreeView, firstClasses: [UInt8]) throws(FormatError) {
    let offset = Int(contents.section(.prefixTree)!.offset)
    func fail(_ detail: String) -> FormatError {
      FormatError(.malformed(detail), section: .prefixTree, offset: offset)
    }
    let depthLimit = PrefixTreeLayout.maxDepth
    func precedes(_ a: Int, _ b: Int) -> Bool {
      let fa = frequencies.byte(at: a) ?? 0
      let fb = frequencies.byte(at: b) ?? 0
      return fa != fb ? fa > fb : a < b
    }
    guard case .node(0)? = tree.root else { throw fail("the root is not node 0") }
    var seenWords = [Bool](repeating: false, count: wordCount)
    var seenLeaves = [Bool](repeating: false, count: tree.leafCount)
    var seenNodes = [Bool](repeating: false, count: tree.nodeCount)
    // Depth-first; node indices only grow downwards, so this ends.
    var stack: [(node: Int, path: [Int])] = [(0, [])]
    while let (node, path) = stack.popLast() {
      guard !seenNodes[node] else { throw fail("node \(node) is reached twice") }
      seenNodes[node] = true
      for c in 0..<PrefixTreeLayout.fanout {
        switch tree.child(of: node, c) {
        case .node(let child)?:
          guard path.count + 1 < depthLimit else { throw fail("node \(child) is deeper than \(depthLimit)") }
          stack.append((child, path + [c]))
        case .leaf(let index)?:
          guard !seenLeaves[index], let leaf = tree.leaf(index) else {
            throw fail("leaf \(index) is damaged or reached twice")
          }
          seenLeaves[index] = true
          let childPath = path + [c]
          if childPath.count < depthLimit && leaf.count > PrefixTreeLayout.splitThreshold {
            throw fail("leaf \(index) holds \(leaf.count) words above depth \(depthLimit): it should split")
          }
          // Its words (the runs) each once, under their first letters; its ranked words the
          // first of them in frequency order, each named once.
          var ranked = Set<Int>()
          for rank in 0..<leaf.rankedCount {
            guard let id = leaf.id(atRank: rank), ranked.insert(id).inserted else {
              throw fail("leaf \(index) rank \(rank) names a missing or repeated word")
            }
          }
          for run in leaf.runs {
            for id in run {
              guard !seenWords[id] else { throw fail("word \(id) is in two leaves") }
              seenWords[id] = true
              for (d, c) in childPath.enumerated() where Int(firstClasses[id * depthLimit + d]) != c {
                throw fail("word \(id) is in leaf \(index), not under its first letters")
              }
            }
          }
          let order = leaf.runs.joined().sorted(by: precedes)
          for rank in 0..<leaf.rankedCount where leaf.id(atRank: rank) != order[rank] {
            throw fail("leaf \(index) is not in frequency order at rank \(rank)")
          }
        case nil:
          guard tree.rawChild(of: node, c) == 0 else { throw fail("node \(node) child \(c) is damaged") }
        }
      }
    }
    guard seenWords.allSatisfy({ $0 }) else { throw fail("some words are in no leaf") }
    guard seenLeaves.allSatisfy({ $0 }), seenNodes.allSatisfy({ $0 }) else {
      throw fail("some nodes or leaves are unreachable")
    }
    // Interior nodes below the root must hold more than the split threshold.
    // (Counted through the leaves: every word of a node is in a leaf below it.)
    try verifySplits(tree, fail: fail)
    try verifyTopList(tree, precedes: precedes, fail: fail)
    if let bestLists { try verify(bestLists, of: tree, precedes: precedes) }
  }

  /// Proves the `BEST` lists: each interior node lists its `listLength` most frequent words
  /// (all of them when it has fewer), in order, spelled as the automaton spells them. A node's
  /// best words are the best of its children's: a leaf's first ranks, a node's proven list
  /// (children have larger indices, so they are proven first).
  private func verify(
    _ lists: BestListView, of tree: PrefixTreeView, precedes: (Int, Int) -> Bool
  ) throws(FormatError) {
    let offset = Int(contents.section(.bestLists)!.offset)
    func fail(_ detail: String) -> FormatError {
      FormatError(.malformed(detail), section: .bestLists, offset: offset)
    }
    let k = lists.listLength
    var best = [[Int]](repeating: [], count: tree.nodeCount)
    for node in stride(from: tree.nodeCount - 1, through: 0, by: -1) {
      var candidates: [Int] = []
      for c in 0..<PrefixTreeLayout.fanout {
        switch tree.child(of: node, c) {
        case .node(let child)?: candidates += best[child]
        case .leaf(let index)?:
          // The tree is proven: its leaves decode.
          guard let leaf = tree.leaf(index) else { throw fail("leaf \(index) is damaged") }
          candidates += leaf.idsByFrequency(frequencies: frequencies).prefix(k)
        case nil: break
        }
      }
      best[node] = Array(candidates.sorted(by: precedes).prefix(k))
      var listed: [Int] = []
      var spelled = true
      let read = lists.forEachEntry(of: node) { entry in
        listed.append(entry.id)
        if entry.labels.withUnsafeBytes({ Array($0) }) != dawg.labels(of: entry.id) { spelled = false }
        return true
      }
      guard read != nil, listed == best[node] else { throw fail("node \(node) does not list its most frequent words") }
      guard spelled else { throw fail("node \(node) misspells a word") }
    }
  }

  private func verifySplits(_ tree: PrefixTreeView, fail: (String) -> FormatError) throws(FormatError) {
    var words = [Int](repeating: 0, count: tree.nodeCount)
    // Children have larger indices: sum from the last node up.
    for node in stride(from: tree.nodeCount - 1, through: 0, by: -1) {
      for c in 0..<PrefixTreeLayout.fanout {
        switch tree.child(of: node, c) {
        case .node(let child)?: words[node] += words[child]
        case .leaf(let index)?: words[node] += tree.leaf(index)?.count ?? 0
        case nil: break
        }
      }
      if node > 0 && words[node] <= PrefixTreeLayout.splitThreshold {
        throw fail("node \(node) holds \(words[node]) words: it should be a leaf")
      }
    }
  }

  private func verifyTopList(
    _ tree: PrefixTreeView, precedes: (Int, Int) -> Bool, fail: (String) -> FormatError
  ) throws(FormatError) {
    guard tree.topCount == min(PrefixTreeLayout.topCount, wordCount) else {
      throw fail("top list of \(tree.topCount) words")
    }
    var ids: [Int] = []
    var at = 0
    for rank in 0..<tree.topCount {
      guard let id = tree.topID(rank) else { throw fail("top list rank \(rank) is damaged") }
      if let last = ids.last, !precedes(last, id) { throw fail("top list is out of order at rank \(rank)") }
      ids.append(id)
      guard let (m, size) = tree.topSpellings.varint(at: at), m <= UInt64(tree.topSpellings.count),
        let spelled = tree.topSpellings.bytes(offset: at + size, length: Int(m)), spelled == dawg.labels(of: id)
      else { throw fail("top list spelling of rank \(rank) is wrong") }
      at += size + Int(m)
    }
    guard at == tree.topSpellings.count else { throw fail("top spellings have trailing bytes") }
    // No word outside the list may precede its last word.
    if let last = ids.last {
      let inList = Set(ids)
      for id in 0..<wordCount where !inList.contains(id) && precedes(id, last) {
        throw fail("word \(id) is more frequent than the top list's last word")
      }
    }
  }
}
