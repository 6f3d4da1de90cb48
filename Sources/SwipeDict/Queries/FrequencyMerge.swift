@_spi(SwipeDictInternals) import SwipeDictFormat

/// A k-way merge of leaves by frequency: a binary max-heap of (frequency, −ID). A leaf's
/// words past its ranked ones are ordered (`PrefixTreeView.Leaf.idsByFrequency`) when the
/// merge first reaches them, or, `rankedOnly`, the merge ends there: what it gave so far is
/// still the exact start of the order.
struct FrequencyMerge {
  private struct Head {
    var frequency: UInt8
    var id: Int
    var leaf: Int
    var rank: Int
    func precedes(_ other: Head) -> Bool {
      frequency != other.frequency ? frequency > other.frequency : id < other.id
    }
  }

  private let leaves: [PrefixTreeView.Leaf]
  private let frequencies: UnsafeByteView
  private var heap: [Head] = []
  /// Each leaf's every word in order, once the merge has passed its ranked ones.
  private var ordered: [[Int]?]
  private let rankedOnly: Bool
  /// Whether a `rankedOnly` merge ended where a leaf's ranked words ran out.
  private(set) var ranOutOfRanks = false

  init(leaves: [PrefixTreeView.Leaf], frequencies: UnsafeByteView, rankedOnly: Bool = false) {
    self.leaves = leaves
    self.frequencies = frequencies
    self.rankedOnly = rankedOnly
    ordered = Array(repeating: nil, count: leaves.count)
    heap.reserveCapacity(leaves.count)
    for index in leaves.indices { push(leaf: index, rank: 0) }
  }

  /// The next ID, or `nil` when every leaf is exhausted.
  mutating func next() -> Int? {
    guard !ranOutOfRanks, let top = heap.first else { return nil }
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      siftDown(0)
    }
    push(leaf: top.leaf, rank: top.rank + 1)
    return top.id
  }

  private mutating func push(leaf: Int, rank: Int) {
    guard rank < leaves[leaf].count, let id = id(leaf: leaf, rank: rank), let frequency = frequencies.byte(at: id)
    else { return }
    heap.append(Head(frequency: frequency, id: id, leaf: leaf, rank: rank))
    var i = heap.count - 1
    while i > 0 {
      let parent = (i - 1) / 2
      guard heap[i].precedes(heap[parent]) else { break }
      heap.swapAt(i, parent)
      i = parent
    }
  }

  /// The ID at `rank` of leaf `leaf`, or `nil` past its end or if damaged.
  private mutating func id(leaf: Int, rank: Int) -> Int? {
    if rank < leaves[leaf].rankedCount { return leaves[leaf].id(atRank: rank) }
    if rankedOnly {
      ranOutOfRanks = true
      return nil
    }
    let order = ordered[leaf] ?? leaves[leaf].idsByFrequency(frequencies: frequencies)
    ordered[leaf] = order
    return rank < order.count ? order[rank] : nil
  }

  private mutating func siftDown(_ start: Int) {
    var i = start
    while true {
      let l = 2 * i + 1
      let r = l + 1
      var best = i
      if l < heap.count, heap[l].precedes(heap[best]) { best = l }
      if r < heap.count, heap[r].precedes(heap[best]) { best = r }
      if best == i { return }
      heap.swapAt(i, best)
      i = best
    }
  }
}
