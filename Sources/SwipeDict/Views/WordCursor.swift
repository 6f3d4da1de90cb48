@_spi(SwipeDictInternals) import SwipeDictFormat

/// Walks words in ID order, yielding each word's labels: every word of an ID range, or any
/// ascending selection of IDs.
///
/// Positioning costs one descent like ID → word. ``next()`` then costs one step of a
/// depth-first walk, so a run of n words costs about n child decodes instead of n descents
/// from the root. ``seek(to:)`` jumps forward: it climbs only as far as the target leaves the
/// current word's subtrees and descends from there, so nearby IDs (the candidates of a swipe
/// filter, say) share the work of their common prefix. On a damaged automaton the walk ends
/// early, never loops: each step takes at most `2 × longestWord + 4` node visits.
struct WordCursor {
  private struct Frame {
    var node: DAWGView.Node
    /// The next transition a depth-first walk takes from this node.
    var next: Int
    /// The ID of the first word at or below this node (the output sum of the path to it).
    var base: Int
    /// One past the ID of the last word below this node.
    var end: Int
  }

  private let dawg: DAWGView
  private var stack: [Frame] = []
  /// The labels of the current word: `labels[k]` is the label from `stack[k]` to `stack[k + 1]`.
  private(set) var labels: [UInt8] = []
  /// The ID of the current word (valid after `next()` or `seek(to:)` returned `true`).
  private(set) var id: Int
  private var remaining: Int
  private var positioned = false

  /// A cursor over `range` (clamped to the dictionary), for ``next()``.
  init(dawg: DAWGView, range: Range<Int>) {
    self.dawg = dawg
    let lower = max(0, range.lowerBound)
    self.id = lower &- 1
    self.remaining = max(0, min(range.upperBound, dawg.wordCount) &- lower)
    // A walk is at most `longestWord` deep: no growing (and copying) on the way down.
    let depth = min(dawg.longestWord, 64) &+ 1
    stack.reserveCapacity(depth)
    labels.reserveCapacity(depth)
  }

  /// A cursor over the whole dictionary, before its first word: for ``seek(to:)``.
  init(dawg: DAWGView) {
    self.init(dawg: dawg, range: 0..<dawg.wordCount)
  }

  /// Advances to the next word. Returns `false` at the end of the range (or of a damaged walk).
  mutating func next() -> Bool {
    guard remaining > 0 else { return false }
    remaining &-= 1
    if !positioned {
      if seek(to: id &+ 1) { return true }
      remaining = 0
      return false
    }
    var budget = 2 &* dawg.longestWord &+ 4
    while budget > 0, let top = stack.last {
      budget &-= 1
      if top.next >= top.node.count {
        pop()
        continue
      }
      guard push(child: top.next) else { break }
      if let child = stack.last, child.node.isFinal {
        id = child.base
        return true
      }
    }
    remaining = 0
    return false
  }

  /// Moves to the word with ID `target`, which must come after the current word (any ID
  /// before the first call). Returns `false` if there is no such word (or the automaton is
  /// damaged); the cursor is then spent.
  mutating func seek(to target: Int) -> Bool {
    guard target < dawg.wordCount, !positioned || target > id else { return fail() }
    if !positioned {
      positioned = true
      guard let root = dawg.node(at: dawg.root) else { return fail() }
      stack.append(Frame(node: root, next: 0, base: 0, end: dawg.wordCount))
    }
    // Climb until the target lies below the top frame's node...
    while let top = stack.last, target >= top.end { pop() }
    // ...and descend, taking at each node the last transition whose words start at or
    // before the target. A valid automaton reaches it within `longestWord` steps.
    for _ in 0...dawg.longestWord {
      guard let top = stack.last else { return fail() }
      if top.base == target, top.node.isFinal {
        id = target
        return true
      }
      var lo = top.next
      var hi = top.node.count &- 1
      guard lo <= hi else { return fail() }
      while lo < hi {
        let mid = (lo &+ hi &+ 1) >> 1
        if top.base &+ dawg.output(top.node, mid) <= target { lo = mid } else { hi = mid &- 1 }
      }
      guard top.base &+ dawg.output(top.node, lo) <= target, push(child: lo) else { return fail() }
    }
    return fail()
  }

  /// Takes transition `i` of the top frame's node: pushes the child, appends the label.
  private mutating func push(child i: Int) -> Bool {
    guard let top = stack.last, stack.count <= dawg.longestWord, let target = dawg.target(top.node, i),
      let child = dawg.node(at: target)
    else { return false }
    stack[stack.count &- 1].next = i &+ 1
    let base = top.base &+ dawg.output(top.node, i)
    let end = i &+ 1 < top.node.count ? top.base &+ dawg.output(top.node, i &+ 1) : top.end
    // Outputs ascend on a valid automaton; a damaged one must not widen a subtree.
    guard base >= top.base, base <= end, end <= top.end else { return false }
    labels.append(dawg.label(top.node, i))
    stack.append(Frame(node: child, next: 0, base: base, end: end))
    return true
  }

  private mutating func pop() {
    stack.removeLast()
    if !labels.isEmpty { labels.removeLast() }
  }

  private mutating func fail() -> Bool {
    remaining = 0
    positioned = true
    id = dawg.wordCount
    stack.removeAll()
    labels.removeAll()
    return false
  }
}
