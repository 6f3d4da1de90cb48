@_spi(SwipeDictInternals) import SwipeDictFormat

/// Builds the `PTRE` section (see `PrefixTreeLayout`): the 27-ary prefix tree whose leaves
/// hold word IDs and rank their most frequent ones, and the top list; and the `BEST` section (`BestListLayout`):
/// each interior node's most frequent words, spelled.
enum PrefixTreeBuilder {
  /// Encodes the tree of a dictionary and its nodes' best lists.
  /// - Parameters:
  ///   - wordCount: the number of words (IDs `0..<wordCount`).
  ///   - classes: the tree class of each of the first `maxDepth` labels of each word, in ID
  ///     order, `maxDepth` bytes per word (`otherClass` past the end of a word).
  ///   - frequency: each word's FREQ byte, in ID order.
  ///   - spelling: the labels of a word ID (called for the top and best lists only).
  /// - Returns: the `PTRE` and `BEST` sections, and the header flag the tree needs:
  ///   `BlobFormat.rankedLeavesFlag` when a leaf has more words than it ranks, else 0.
  static func encode(
    wordCount: Int, classes: [UInt8], frequency: [UInt8], spelling: (Int) -> [UInt8]
  ) -> (tree: [UInt8], bestLists: [UInt8], headerFlags: UInt32) {
    precondition(classes.count == wordCount * PrefixTreeLayout.maxDepth && frequency.count == wordCount)
    var tree = TreeWriter(classes: classes, frequency: frequency)
    let all = (0..<Int32(wordCount)).map { $0 }
    let root = tree.makeNode(all, depth: 0)
    let top = tree.mostFrequent(all, count: PrefixTreeLayout.topCount)
    var spellings = ByteWriter()
    for id in top {
      let labels = spelling(Int(id))
      spellings.appendVarint(UInt64(labels.count))
      spellings.append(contentsOf: labels)
    }
    return (
      tree.section(wordCount: wordCount, root: root, top: top, spellings: spellings.bytes),
      encodeBestLists(tree.best, wordCount: wordCount, spelling: spelling),
      tree.ranksEveryWord ? 0 : BlobFormat.rankedLeavesFlag
    )
  }

  /// The `BEST` section of the interior nodes' lists (in node index order).
  private static func encodeBestLists(_ lists: [[Int32]], wordCount: Int, spelling: (Int) -> [UInt8]) -> [UInt8] {
    var data = ByteWriter()
    var offsets: [UInt32] = []
    for list in lists {
      offsets.append(UInt32(data.bytes.count))
      for id in list {
        let labels = spelling(Int(id))
        data.appendVarint(UInt64(id))
        data.appendVarint(UInt64(labels.count))
        data.append(contentsOf: labels)
      }
    }
    offsets.append(UInt32(data.bytes.count))
    var out = ByteWriter()
    out.append(UInt64(wordCount))
    out.append(UInt32(lists.count))
    out.append(UInt32(BestListLayout.listLength))
    out.append(UInt32(data.bytes.count))
    out.pad(toMultipleOf: BestListLayout.headerSize)
    for offset in offsets { out.append(offset) }
    out.append(contentsOf: data.bytes)
    return out.bytes
  }
}

/// The tree as it is built: interior nodes, their best lists, and the leaves' bytes.
private struct TreeWriter {
  /// Each word's tree class at each depth (`maxDepth` bytes per word), and its FREQ byte.
  let classes: [UInt8]
  let frequency: [UInt8]
  /// The child references of each interior node.
  private(set) var nodes: [[UInt32]] = []
  /// Each interior node's most frequent words, in order.
  private(set) var best: [[Int32]] = []
  private(set) var leafData = ByteWriter()
  private(set) var leafOffsets: [UInt32] = []
  /// Whether every leaf ranks all its words.
  private(set) var ranksEveryWord = true
  let ranked = PrefixTreeLayout.rankedPerLeaf

  init(classes: [UInt8], frequency: [UInt8]) {
    self.classes = classes
    self.frequency = frequency
  }

  /// Most frequent first, ties by ascending ID: the order of leaves and of the top list.
  func byFrequency(_ a: Int32, _ b: Int32) -> Bool {
    let fa = frequency[Int(a)]
    let fb = frequency[Int(b)]
    return fa != fb ? fa > fb : a < b
  }

  /// The `count` first of `ids` by frequency: one pass with a short sorted buffer.
  func mostFrequent(_ ids: [Int32], count: Int) -> [Int32] {
    var found: [Int32] = []
    found.reserveCapacity(count + 1)
    for id in ids {
      if found.count == count, let last = found.last, !byFrequency(id, last) { continue }
      var i = found.count
      while i > 0, byFrequency(id, found[i - 1]) { i -= 1 }
      found.insert(id, at: i)
      if found.count > count { found.removeLast() }
    }
    return found
  }

  /// The node of `ids` (ascending) at `depth`: split into the classes' buckets while it
  /// has more than `splitThreshold` words (the root always) above `maxDepth`, else a leaf.
  /// - Returns: its reference (0 for no words).
  mutating func makeNode(_ ids: [Int32], depth: Int) -> UInt32 {
    if ids.isEmpty { return 0 }
    let splits = depth == 0 || ids.count > PrefixTreeLayout.splitThreshold
    guard splits, depth < PrefixTreeLayout.maxDepth else { return makeLeaf(ids) }
    let index = nodes.count
    nodes.append([UInt32](repeating: 0, count: PrefixTreeLayout.fanout))
    best.append(mostFrequent(ids, count: BestListLayout.listLength))
    var buckets = [[Int32]](repeating: [], count: PrefixTreeLayout.fanout)
    for id in ids { buckets[Int(classes[Int(id) * PrefixTreeLayout.maxDepth + depth])].append(id) }
    for (c, bucket) in buckets.enumerated() {
      let child = makeNode(bucket, depth: depth + 1)
      nodes[index][c] = child
    }
    return UInt32(index)
  }

  /// Writes a leaf of `ids` (ascending): their runs, then the local indices of the
  /// `ranked` most frequent.
  private mutating func makeLeaf(_ ids: [Int32]) -> UInt32 {
    leafOffsets.append(UInt32(leafData.bytes.count))
    var runs: [(start: Int32, length: Int32)] = []
    for id in ids {  // ascending
      if let last = runs.last, last.start + last.length == id {
        runs[runs.count - 1].length += 1
      } else {
        runs.append((id, 1))
      }
    }
    leafData.appendVarint(UInt64(ids.count))
    leafData.appendVarint(UInt64(runs.count))
    var end: Int32 = 0
    for run in runs {
      leafData.appendVarint(UInt64(run.start - end))
      leafData.appendVarint(UInt64(run.length))
      end = run.start + run.length
    }
    // Local index of an ID = its position in the ascending list: the positions of the
    // `ranked` most frequent, in order. A reader orders the rest from FREQ.
    let width = PrefixTreeLayout.indexWidth(forLeafSize: ids.count)
    for position in ids.indices.sorted(by: { byFrequency(ids[$0], ids[$1]) }).prefix(ranked) {
      leafData.appendUnsigned(UInt64(position), width: width)
    }
    if ids.count > ranked { ranksEveryWord = false }
    return PrefixTreeLayout.leafFlag | UInt32(leafOffsets.count - 1)
  }

  /// The `PTRE` section: the header, the nodes, the leaf offsets (and the end's), the top
  /// list, the leaves and the top words' spellings.
  func section(wordCount: Int, root: UInt32, top: [Int32], spellings: [UInt8]) -> [UInt8] {
    var out = ByteWriter()
    out.append(UInt64(wordCount))
    out.append(UInt32(nodes.count))
    out.append(UInt32(leafOffsets.count))
    out.append(UInt32(top.count))
    out.append(root)
    out.append(UInt32(leafData.bytes.count))
    out.append(UInt32(spellings.count))
    out.append(UInt32(PrefixTreeLayout.splitThreshold))
    out.append(UInt32(PrefixTreeLayout.maxDepth))
    // Ranked count: 0 (every word ranked, as before format 1.5) when no leaf has more words.
    out.append(UInt32(ranksEveryWord ? 0 : ranked))
    out.pad(toMultipleOf: PrefixTreeLayout.headerSize)
    for node in nodes { for reference in node { out.append(reference) } }
    for offset in leafOffsets { out.append(offset) }
    out.append(UInt32(leafData.bytes.count))
    for id in top { out.append(UInt32(id)) }
    out.append(contentsOf: leafData.bytes)
    out.append(contentsOf: spellings)
    return out.bytes
  }
}
