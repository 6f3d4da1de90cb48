@_spi(SwipeDictInternals) import SwipeDictFormat

/// The `PTRE` prefix tree and top list, read in place (format in `PrefixTreeLayout`).
///
/// Opening checks that the declared parts fill the section exactly. Every later read is
/// bounds-checked: a child reference must name a node below the current one or a leaf in
/// range, and a leaf's runs and indices must stay inside its bytes and the word count, so a
/// damaged section gives short answers, never a read outside it or a loop.
struct PrefixTreeView: Sendable {
  /// A reference to a child: an interior node or a leaf.
  enum Reference: Sendable, Hashable {
    case node(Int)
    case leaf(Int)
  }

  let wordCount: Int
  let nodeCount: Int
  let leafCount: Int
  let topCount: Int
  /// How many of its most frequent words a leaf ranks; 0: every word (before format 1.5).
  let rankedCount: Int
  let root: Reference?
  private let nodes: UnsafeByteView
  private let leafOffsets: UnsafeByteView
  private let topIDs: UnsafeByteView
  private let leafData: UnsafeByteView
  /// The top words' spellings: a varint length and the labels, per top word.
  let topSpellings: UnsafeByteView

  /// Validates the header and the part sizes (O(1)).
  /// The header is read from `head`, the section's first bytes (`BlobContainer.head(of:in:)`):
  /// in a blob of format 1.4 the table's copy, so this touches none of the section's pages.
  /// - Parameter rankedLeaves: whether the blob header has `BlobFormat.rankedLeavesFlag`,
  ///   which must agree with the header's ranked count.
  init(
    section: UnsafeByteView, head: UnsafeByteView, fileOffset: Int, wordCount: Int, rankedLeaves: Bool
  ) throws(FormatError) {
    let fail = try SectionHeaderCheck(
      .prefixTree, section: section, headerSize: PrefixTreeLayout.headerSize, fileOffset: fileOffset
    ).fail
    // safe: the section, so its head, holds the header, checked above.
    guard head.uint64(at: 0)! == UInt64(wordCount) else {
      throw fail("tree of \(head.uint64(at: 0)!) words for \(wordCount) words", 0)
    }
    let n = Int(head.uint32(at: 8)!)
    let l = Int(head.uint32(at: 12)!)
    let t = Int(head.uint32(at: 16)!)
    let d = Int(head.uint32(at: 24)!)
    let s = Int(head.uint32(at: 28)!)
    let nodeBytes = n * PrefixTreeLayout.fanout * 4
    let total = PrefixTreeLayout.headerSize + nodeBytes + (l + 1) * 4 + t * 4 + d + s
    guard total == section.count else {
      throw fail("parts need \(total) bytes, section has \(section.count)", 8)
    }
    guard t <= PrefixTreeLayout.topCount, t <= wordCount else { throw fail("top list of \(t) words", 16) }
    let ranked = Int(head.uint32(at: PrefixTreeLayout.rankedCountOffset)!)
    guard (ranked != 0) == rankedLeaves else {
      throw fail(
        rankedLeaves
          ? "the blob header says leaves rank only their first words, but the ranked count is 0"
          : "ranked count \(ranked) without the blob header's ranked-leaves flag",
        PrefixTreeLayout.rankedCountOffset)
    }
    var at = PrefixTreeLayout.headerSize
    func part(_ length: Int) -> UnsafeByteView {
      defer { at += length }
      return section.slice(offset: at, length: length)!  // safe: the sizes add up, checked above
    }
    self.nodes = part(nodeBytes)
    self.leafOffsets = part((l + 1) * 4)
    self.topIDs = part(t * 4)
    self.leafData = part(d)
    self.topSpellings = part(s)
    self.wordCount = wordCount
    self.nodeCount = n
    self.leafCount = l
    self.topCount = t
    self.rankedCount = ranked
    let rootReference = head.uint32(at: 20)!
    self.root = n > 0 && rootReference == 0 ? .node(0) : nil
  }

  /// The child `treeClass` of interior node `node`, or `nil` if it holds no words or the
  /// reference is damaged (a node must be deeper in the array than its parent).
  func child(of node: Int, _ treeClass: Int) -> Reference? {
    guard treeClass >= 0, treeClass < PrefixTreeLayout.fanout,
      let raw = nodes.uint32(at: (node &* PrefixTreeLayout.fanout &+ treeClass) &* 4), raw != 0
    else { return nil }
    if raw & PrefixTreeLayout.leafFlag != 0 {
      let leaf = Int(raw & ~PrefixTreeLayout.leafFlag)
      return leaf < leafCount ? .leaf(leaf) : nil
    }
    return Int(raw) > node && Int(raw) < nodeCount ? .node(Int(raw)) : nil
  }

  /// The raw child reference (for verification), or `nil` outside the node array.
  func rawChild(of node: Int, _ treeClass: Int) -> UInt32? {
    nodes.uint32(at: (node &* PrefixTreeLayout.fanout &+ treeClass) &* 4)
  }

  /// The ID at position `index` of the top list (most frequent first).
  func topID(_ index: Int) -> Int? {
    guard index >= 0, index < topCount, let id = topIDs.uint32(at: index &* 4), Int(id) < wordCount
    else { return nil }
    return Int(id)
  }

  /// A decoded leaf: its ID runs and where the local indices of its most frequent words are.
  struct Leaf: Sendable {
    /// The runs of consecutive IDs, ascending.
    var runs: [Range<Int>]
    /// The position of each run's first word in the concatenated runs.
    var positions: [Int]
    /// The number of words.
    var count: Int
    /// How many words the leaf ranks (its most frequent; `count` before format 1.5).
    var rankedCount: Int
    /// The local indices of the ranked words, `width` bytes each.
    var indices: UnsafeByteView
    var width: Int

    /// The ID of the word at frequency rank `rank` (below ``rankedCount``) in this leaf, or
    /// `nil` if damaged or not ranked.
    func id(atRank rank: Int) -> Int? {
      guard let local = indices.unsigned(at: rank &* width, width: width), Int(local) < count else {
        return nil
      }
      return id(atPosition: Int(local))
    }

    /// The ID at `position` in the concatenated runs, or `nil` if damaged.
    private func id(atPosition position: Int) -> Int? {
      // The last run starting at or before `position` (binary search: damaged leaves can
      // have as many runs as words).
      var lo = 0
      var hi = runs.count &- 1
      while lo < hi {
        let mid = (lo &+ hi &+ 1) >> 1
        if positions[mid] <= position { lo = mid } else { hi = mid &- 1 }
      }
      guard lo < runs.count else { return nil }
      return runs[lo].lowerBound &+ (position &- positions[lo])
    }

    /// Every word of the leaf, most frequent first (ties by ID): the ranked words, then the
    /// rest ordered by their `frequencies` bytes (a counting sort: O(count + 256)).
    /// On a damaged leaf, ranks that repeat a word or fail to decode are left out.
    func idsByFrequency(frequencies: UnsafeByteView) -> [Int] {
      var ids: [Int] = []
      ids.reserveCapacity(count)
      var isRanked = [Bool](repeating: false, count: count)
      for rank in 0..<rankedCount {
        guard let local = indices.unsigned(at: rank &* width, width: width), Int(local) < count,
          !isRanked[Int(local)], let id = id(atPosition: Int(local))
        else { continue }
        isRanked[Int(local)] = true
        ids.append(id)
      }
      guard ids.count < count else { return ids }
      // The rest: bucket by frequency byte, highest first; ascending IDs within a bucket.
      var start = [Int](repeating: 0, count: 257)
      var position = 0
      for run in runs {
        for id in run {
          if !isRanked[position] { start[255 &- Int(frequencies.byte(at: id) ?? 0) &+ 1] &+= 1 }
          position &+= 1
        }
      }
      for b in 1...256 { start[b] &+= start[b &- 1] }
      var rest = [Int](repeating: 0, count: start[256])
      position = 0
      for run in runs {
        for id in run {
          if !isRanked[position] {
            let bucket = 255 &- Int(frequencies.byte(at: id) ?? 0)
            rest[start[bucket]] = id
            start[bucket] &+= 1
          }
          position &+= 1
        }
      }
      ids.append(contentsOf: rest)
      return ids
    }
  }

  /// Decodes leaf `index`, or `nil` if its bytes are damaged.
  func leaf(_ index: Int) -> Leaf? {
    guard index >= 0, index < leafCount, let start = leafOffsets.uint32(at: index &* 4),
      let end = leafOffsets.uint32(at: (index &+ 1) &* 4), start <= end,
      let bytes = leafData.slice(offset: Int(start), length: Int(end - start)),
      let (n, a) = bytes.varint(at: 0), let (r, b) = bytes.varint(at: a),
      n <= UInt64(wordCount), r <= n
    else { return nil }
    var at = a &+ b
    var runs: [Range<Int>] = []
    var positions: [Int] = []
    runs.reserveCapacity(Int(r))
    positions.reserveCapacity(Int(r))
    var runEnd = 0
    var total = 0
    for _ in 0..<Int(r) {
      guard let (gap, c) = bytes.varint(at: at), let (length, e) = bytes.varint(at: at &+ c),
        gap <= UInt64(wordCount), length >= 1, length <= UInt64(wordCount)
      else { return nil }
      at &+= c &+ e
      let runStart = runEnd &+ Int(gap)
      runEnd = runStart &+ Int(length)
      guard runEnd <= wordCount else { return nil }
      runs.append(runStart..<runEnd)
      positions.append(total)
      total &+= Int(length)
    }
    let count = Int(n)
    let width = PrefixTreeLayout.indexWidth(forLeafSize: count)
    let ranked = PrefixTreeLayout.rankedCount(leafSize: count, ranked: rankedCount)
    guard total == count, let indices = bytes.slice(offset: at, length: ranked &* width),
      at &+ ranked &* width == bytes.count
    else { return nil }
    return Leaf(
      runs: runs, positions: positions, count: count, rankedCount: ranked, indices: indices, width: width)
  }
}
