import SwipeDictFormat

/// Walks the words of an ID range in ID order, yielding each word's labels.
///
/// Positioning at the first ID costs one descent like ID → word; every further word costs
/// one step of a depth-first walk, so a run of n words costs about n child decodes instead
/// of n descents from the root. On a damaged automaton the walk ends early, never loops: each
/// word takes at most `2 × longestWord + 4` steps.
struct WordCursor {
  private struct Frame {
    var node: DAWGView.Node
    var next: Int
  }

  private let dawg: DAWGView
  private var stack: [Frame] = []
  /// The labels of the current word.
  private(set) var labels: [UInt8] = []
  /// The ID of the current word (valid after `next()` returned `true`).
  private(set) var id: Int
  private var remaining: Int
  private var positioned = false

  /// A cursor over `range` (clamped to the dictionary).
  init(dawg: DAWGView, range: Range<Int>) {
    self.dawg = dawg
    let lower = max(0, range.lowerBound)
    self.id = lower &- 1
    self.remaining = max(0, min(range.upperBound, dawg.wordCount) &- lower)
  }

  /// Advances to the next word. Returns `false` at the end of the range (or of a damaged walk).
  mutating func next() -> Bool {
    guard remaining > 0 else { return false }
    remaining &-= 1
    if !positioned {
      positioned = true
      if position(at: id &+ 1) { return true }
      remaining = 0
      return false
    }
    var budget = 2 &* dawg.longestWord &+ 4
    while budget > 0, let top = stack.last {
      budget &-= 1
      if top.next >= top.node.count {
        stack.removeLast()
        if !labels.isEmpty { labels.removeLast() }
        continue
      }
      let i = top.next
      stack[stack.count &- 1].next = i &+ 1
      guard stack.count <= dawg.longestWord, let target = dawg.target(top.node, i),
        let child = dawg.node(at: target)
      else { break }
      // `labels[k]` is the label from `stack[k]` to `stack[k + 1]`.
      labels.append(dawg.label(top.node, i))
      stack.append(Frame(node: child, next: 0))
      if child.isFinal {
        id &+= 1
        return true
      }
    }
    remaining = 0
    return false
  }

  /// Descends to word `target`, leaving the stack as a depth-first walk would.
  private mutating func position(at target: Int) -> Bool {
    guard target < dawg.wordCount, var node = dawg.node(at: dawg.root) else { return false }
    var left = target
    for _ in 0...dawg.longestWord {
      if node.isFinal && left == 0 {
        stack.append(Frame(node: node, next: 0))
        id = target
        return true
      }
      guard node.count > 0 else { return false }
      // The last transition whose output does not exceed `left`.
      var lo = 0
      var hi = node.count &- 1
      while lo < hi {
        let mid = (lo &+ hi &+ 1) >> 1
        if dawg.output(node, mid) <= left { lo = mid } else { hi = mid &- 1 }
      }
      let out = dawg.output(node, lo)
      guard out <= left, let next = dawg.target(node, lo), let child = dawg.node(at: next) else {
        return false
      }
      left &-= out
      stack.append(Frame(node: node, next: lo &+ 1))
      labels.append(dawg.label(node, lo))
      node = child
    }
    return false
  }
}
