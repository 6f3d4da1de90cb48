@_spi(SwipeDictInternals) import SwipeDictFormat

/// One call's walk of the automaton (see ``TypingSearch``).
struct TypingWalk {
  /// A node on the path from the root, with the children still to visit.
  struct Frame {
    var depth: Int
    /// Where this node's row is in the arena, and its parent's (-1 at the root).
    var row: Int
    var parentRow: Int
    /// The label into this node (-1 at the root).
    var label: Int
    /// The IDs of the words at or below this node.
    var base: Int
    var end: Int
    /// Where its children's rows start in the arena.
    var rows = 0
    /// Its children still worth a look: a range of `pending`, best bound first.
    var children: Range<Int>
    var next: Int
  }

  /// A child whose row is computed, waiting for its visit.
  struct Child {
    var target: Int
    var label: Int
    var row: Int
    var base: Int
    var end: Int
    /// The best score a word below it could reach.
    var bound: Int32
  }

  let frequencies: UnsafeByteView
  let letters: [TypingSearch.Letter]
  let scaled: TypingSearch.Scaled
  /// The typed length, and the row width (n + 1).
  let n: Int
  let width: Int
  /// Per label × typed position (1-based): the substitution cost, and at the word's first letter.
  let sub: [Int32]
  let firstSub: [Int32]
  /// Per typed position: the cost of it being extra.
  let ins: [Int32]
  /// Whether typed letters i − 1 and i differ (swapping equal letters is no edit).
  let differs: [Bool]
  /// Per label: the typed positions (bit i, 1-based) whose letter it is.
  let matches: [UInt64]
  /// A transposition's cell increment, and the most edits a cell may hold.
  let transposition: Int32
  let maxEdits: Int32
  /// The most edits the first `earlyLetters` letters of a word may take.
  let earlyEdits: Int32
  let earlyLetters: Int

  /// The rows of the nodes on the path and of their pending children (a stack).
  var arena: [Int32] = []
  /// The arena's used length (rows are pushed and popped as a stack; the array only grows).
  var top = 0
  var frames: [Frame] = []
  var pending: [Child] = []
  var ranked: RankedSuggestions

  /// - Parameter maxEdits: the most edits, in place of the costs' `maxEdits` and
  ///   `maxEarlyEdits` (for a distance outside the search).
  init(
    search: TypingSearch, typed: [TypingSearch.Letter], frequencies: UnsafeByteView, limit: Int,
    maxEdits edits: Int32? = nil
  ) {
    self.frequencies = frequencies
    letters = search.labelLetters
    scaled = search.scaled
    n = typed.count
    width = n + 1
    let scaled = search.scaled
    var sub = [Int32](repeating: 0, count: letters.count * width)
    var firstSub = sub
    var matches = [UInt64](repeating: 0, count: letters.count)
    for l in letters.indices {
      for i in 1...n {
        let c = search.substitutionCost(typed[i - 1], letters[l])
        sub[l * width + i] = Self.edit(c)
        if c == 0 {
          firstSub[l * width + i] = 0
          if i <= 62 { matches[l] |= 1 << UInt64(i) }
          continue
        }
        let adjacent =
          !typed[i - 1].isPunctuation && !letters[l].isPunctuation
          && search.isNear(typed[i - 1].key, letters[l].key)
        firstSub[l * width + i] = Self.edit(adjacent ? c + scaled.firstLetterProximity : c)
      }
    }
    self.sub = sub
    self.firstSub = firstSub
    var ins = [Int32](repeating: 0, count: width)
    for i in 1...n { ins[i] = Self.edit(search.insertionCost(typed, i - 1)) }
    self.ins = ins
    var differs = [Bool](repeating: false, count: width)
    if n >= 2 { for i in 2...n { differs[i] = typed[i - 1].fold != typed[i - 2].fold } }
    self.differs = differs
    transposition = Self.edit(scaled.transposition)
    self.matches = matches
    maxEdits = edits ?? scaled.maxEdits
    earlyEdits = edits ?? min(scaled.maxEdits, scaled.earlyEdits)
    earlyLetters = scaled.earlyLetters
    ranked = RankedSuggestions(limit: limit, frequencies: frequencies, margin: Int(scaled.margin))
    arena = [Int32](repeating: Self.infinity, count: width * 64)  // grows by doubling (reserveRow)
  }

  // A cell holds cost << 3 | edits: the minimum is the cheapest alignment, then the one
  // with fewer edits. Cells over `maxEdits` edits or past `infinity` hold `infinity`.
  static let editBits: Int32 = 3
  static let infinity: Int32 = 1 << 28

  /// An operation of cost `c` as a cell increment: one edit unless it is free.
  static func edit(_ c: Int32) -> Int32 { c > 0 ? (c << editBits) | 1 : 0 }

  /// The cost of a cell.
  static func cost(_ cell: Int32) -> Int32 { cell >> editBits }

  /// `cell`, or `infinity` when it has more than `cap` edits or too much cost.
  @inline(__always)
  func capped(_ cell: Int32, _ cap: Int32) -> Int32 {
    cell & ((1 << Self.editBits) - 1) > cap || cell > Self.infinity ? Self.infinity : cell
  }

  /// Makes room for one more row at `top`.
  mutating func reserveRow() {
    if top + width > arena.count {
      arena.append(contentsOf: repeatElement(Self.infinity, count: max(arena.count, width)))
    }
  }

  /// The root's row: the first i typed letters are all extra.
  mutating func appendRootRow() {
    reserveRow()
    arena[top] = 0
    for i in 1...n { arena[top + i] = capped(arena[top + i - 1] + ins[i], earlyEdits) }
    top += width
  }

  mutating func run(root: DAWGView.Node, dawg: DAWGView, maxima: FrequencyMaxima, isSuggestible: (Int) -> Bool) {
    appendRootRow()
    var rootFrame = Frame(
      depth: 0, row: 0, parentRow: -1, label: -1, base: 0, end: dawg.wordCount, children: 0..<0, next: 0)
    expand(&rootFrame, node: root, dawg: dawg, maxima: maxima)
    frames.append(rootFrame)
    var budget = TypingSearch.nodeBudget
    while budget > 0, !frames.isEmpty {
      let last = frames.count - 1
      let next = frames[last].next
      guard next < frames[last].children.upperBound else {
        // Done with this node: free its children's rows and entries.
        let children = frames[last].children
        top = frames[last].rows
        frames.removeLast()
        pending.removeSubrange(children)
        continue
      }
      frames[last].next = next + 1
      let child = pending[next]
      guard ranked.admits(bound: Int(child.bound)), let node = dawg.node(at: child.target) else { continue }
      budget -= 1
      let cost = Self.cost(arena[child.row + n])
      if node.isFinal, cost <= scaled.maxCost, isSuggestible(child.base), let q = frequencies.byte(at: child.base) {
        ranked.insert(id: child.base, distance: Int(cost), score: Int(q) - Int(cost))
      }
      guard node.count > 0, frames.count <= dawg.longestWord else { continue }
      var frame = Frame(
        depth: frames[last].depth + 1, row: child.row, parentRow: frames[last].row, label: child.label,
        base: child.base, end: child.end, children: 0..<0, next: 0)
      expand(&frame, node: node, dawg: dawg, maxima: maxima)
      frames.append(frame)
    }
  }

  /// Computes the rows of `frame`'s children (its automaton node is `node`; into the arena) and queues those still in reach,
  /// best bound first.
  mutating func expand(_ frame: inout Frame, node: DAWGView.Node, dawg: DAWGView, maxima: FrequencyMaxima) {
    let start = pending.count
    frame.rows = top
    let depth = frame.depth + 1
    let previous = frame.label >= 0 ? letters[frame.label] : nil
    let p = frame.row
    let g = frame.parentRow
    let parent = frame.label
    let cap = depth <= earlyLetters ? earlyEdits : maxEdits
    let nextCap = depth + 1 <= earlyLetters ? earlyEdits : maxEdits
    let allowed = saturatedFilter(
      row: p, depth: frame.depth, parentRow: g, parentLabel: parent, cap: cap, nextCap: nextCap)
    // Delta-coded labels are read in one pass, not from the first at every transition.
    var label = node.count > 0 ? Int(dawg.label(node, 0)) : 0
    // The words below each child follow the node's own word and the previous child's.
    var previousEnd = frame.base &+ (node.isFinal ? 1 : 0)
    for t in 0..<node.count {
      if t > 0 {
        label = node.deltaLabels ? label &+ Int(dawg.labelDelta(node, t)) &+ 1 : Int(dawg.label(node, t))
      }
      guard label < letters.count else { continue }
      // A child of a saturated row must spell one of the allowed typed letters.
      if let allowed, matches[label] & allowed == 0 { continue }
      let base = frame.base &+ dawg.output(node, t)
      let end = t &+ 1 < node.count ? frame.base &+ dawg.output(node, t &+ 1) : frame.end
      // Outputs ascend on a valid automaton; a damaged one must not widen a subtree.
      guard base >= previousEnd, base < end, end <= frame.end else { continue }
      previousEnd = end
      let row = top
      let least = appendRow(
        label: label, depth: depth, previous: previous, parentRow: p, grandparentRow: g, parentLabel: parent)
      // A word below may also be reached through a swap that skips this child's row (see
      // `transpositionReach`): the bound must allow for it. The range maximum is read only
      // for children within maxCost.
      let reach = min(least, transpositionReach(label: label, row: p, cap: nextCap))
      guard reach <= scaled.maxCost else {
        top -= width
        continue
      }
      let bound = Int32(maxima.max(in: base..<end, of: frequencies)) - reach
      guard ranked.admits(bound: Int(bound)), let target = dawg.target(node, t) else {
        top -= width
        continue
      }
      pending.append(Child(target: target, label: label, row: row, base: base, end: end, bound: bound))
    }
    // Best bound first: an insertion sort (a node has few children in reach).
    var i = start + 1
    while i < pending.count {
      let item = pending[i]
      var j = i
      while j > start, pending[j - 1].bound < item.bound {
        pending[j] = pending[j - 1]
        j -= 1
      }
      pending[j] = item
      i += 1
    }
    frame.children = start..<pending.count
    frame.next = start
  }

  /// The least cost a grandchild can reach by swapping this child's letter `label` with its
  /// own, from the row at `p` (the child's parent's), `cap` edits allowed at the grandchild's
  /// depth: such a grandchild skips the child's row, so a child out of reach by its row alone
  /// must still be visited when this is in reach.
  func transpositionReach(label: Int, row p: Int, cap: Int32) -> Int32 {
    guard n >= 2 else { return Self.cost(Self.infinity) }
    var best = Self.infinity
    for i in 2...n where differs[i] && sub[label &* width + i] == 0 {
      best = min(best, capped(arena[p + i - 2] + transposition, cap))
    }
    return Self.cost(best)
  }

  /// When every finite cell of the row at `row` has used all its edits (`cap` at the child's
  /// depth), the typed letters a
  /// child's label must equal for its row to hold a finite cell (as a mask of positions):
  /// the next letter after such a cell, or a swap with the parent's letter from a grandparent
  /// cell with an edit to spare. `nil` when some cell can still afford an edit (or the input
  /// is too long for a mask): then any label may do.
  func saturatedFilter(
    row p: Int, depth: Int, parentRow g: Int, parentLabel: Int, cap: Int32, nextCap: Int32
  ) -> UInt64? {
    guard n < 63 else { return nil }
    // Only cells within `maxEdits` of a row's diagonal can be finite (see `appendRow`).
    let band = Int(maxEdits)
    let lo = max(0, depth - band)
    let hi = min(n, depth + band)
    guard lo <= hi else { return 0 }
    var mask: UInt64 = 0
    for i in lo...hi {
      let cell = arena[p + i]
      if cell >= Self.infinity { continue }
      if cell & ((1 << Self.editBits) - 1) < cap { return nil }
      mask |= 1 << UInt64(i + 1)
    }
    if g >= 0, parentLabel >= 0, max(2, lo + 1) <= min(n, hi + 1) {
      // The grandparent's row is one step up the diagonal: its band shifted by one.
      for i in max(2, lo + 1)...min(n, hi + 1) where differs[i] && sub[parentLabel &* width + i] == 0 {
        let cell = arena[g + i - 2]
        if cell < Self.infinity, cell & ((1 << Self.editBits) - 1) < cap { mask |= 1 << UInt64(i - 1) }
      }
    }
    // A child whose own row is out of reach may still lead to a grandchild that swaps the
    // child's letter with the next one, from this row (see `transpositionReach`).
    if max(2, lo + 2) <= min(n, hi + 2) {
      for i in max(2, lo + 2)...min(n, hi + 2) where differs[i] {
        let cell = arena[p + i - 2]
        if cell < Self.infinity, cell & ((1 << Self.editBits) - 1) < nextCap { mask |= 1 << UInt64(i) }
      }
    }
    return mask
  }

  /// Appends the row of a node reached by `label` at `depth` from the node whose row is at
  /// `parentRow` (its own parent's at `grandparentRow`, -1 if none; its label `parentLabel`).
  /// - Returns: the row's least cost.
  mutating func appendRow(
    label: Int, depth: Int, previous: TypingSearch.Letter?, parentRow p: Int, grandparentRow g: Int, parentLabel: Int
  ) -> Int32 {
    let omit = Self.edit(omission(letters[label], previous: previous, depth: depth))
    reserveRow()
    let row = top
    top += width
    let s = label &* width
    let cap = depth <= earlyLetters ? earlyEdits : maxEdits
    // Cells further than `maxEdits` from the diagonal need more edits (each insertion or
    // omission is one): they are out of reach without being computed.
    let lo = max(0, depth - Int(maxEdits))
    let hi = min(n, depth + Int(maxEdits))
    guard lo <= hi else {
      for i in 0...n { arena[row + i] = Self.infinity }
      return Self.cost(Self.infinity)
    }
    for i in 0..<lo { arena[row + i] = Self.infinity }
    var least = lo == 0 ? capped(arena[p] + omit, cap) : Self.infinity
    if lo == 0 { arena[row] = least }
    var i = max(1, lo)
    while i <= hi {
      var v = capped(arena[p + i - 1] + (depth == 1 ? firstSub[s + i] : sub[s + i]), cap)
      v = min(v, capped(arena[p + i] + omit, cap))
      v = min(v, capped(arena[row + i - 1] + ins[i], cap))
      // Typed letters i − 1, i are this node's letter and the parent's, swapped.
      if g >= 0, i >= 2, differs[i], sub[s + i - 1] == 0, sub[parentLabel &* width + i] == 0 {
        v = min(v, capped(arena[g + i - 2] + transposition, cap))
      }
      arena[row + i] = v
      least = min(least, v)
      i += 1
    }
    if hi < n { for i in (hi + 1)...n { arena[row + i] = Self.infinity } }
    return Self.cost(least)
  }

  /// The costs of words in label order (blob steps; labels out of the alphabet are left out),
  /// each word's rows computed from the first letter it does not share with the word before.
  /// `nil` for a word out of reach or costing more than `cap`: a word whose first letters'
  /// row, and every swap from it, cost more than `cap` is not finished, nor is any later word
  /// that starts with the same letters (as the walk prunes a node).
  mutating func costs(ofSorted words: [[UInt8]], cap: Int32) -> [Int32?] {
    let cap = min(cap, Self.cost(Self.infinity) - 1)
    top = 0
    appendRootRow()
    // The labels of the current path and each one's row; the path's length when its last
    // row went out of reach (`nil`: it is in reach).
    var path: [(label: Int, row: Int)] = []
    var outOfReach: Int?
    let beyond = Self.cost(Self.infinity)
    var results: [Int32?] = []
    results.reserveCapacity(words.count)
    let alphabetSize = letters.count
    for word in words {
      let labels = word.compactMap { Int($0) < alphabetSize ? Int($0) : nil }
      var shared = 0
      for label in labels {
        guard shared < path.count, path[shared].label == label else { break }
        shared += 1
      }
      if let outOfReach, shared >= outOfReach {
        results.append(nil)
        continue
      }
      outOfReach = nil
      path.removeLast(path.count - shared)
      top = (path.last?.row ?? 0) + width
      var depth = shared
      for label in labels.dropFirst(shared) {
        depth += 1
        let row = top
        let parent = path.last
        let grandparent = path.count >= 2 ? path[path.count - 2] : nil
        let least = appendRow(
          label: label, depth: depth, previous: parent.map { letters[$0.label] }, parentRow: parent?.row ?? 0,
          grandparentRow: grandparent?.row ?? (parent == nil ? -1 : 0), parentLabel: parent?.label ?? -1)
        path.append((label, row))
        let nextCap = depth + 1 <= earlyLetters ? earlyEdits : maxEdits
        if least > cap, transpositionReach(label: label, row: parent?.row ?? 0, cap: nextCap) > cap {
          outOfReach = path.count
          break
        }
      }
      let cost = outOfReach == nil ? Self.cost(arena[(path.last?.row ?? 0) + n]) : beyond
      results.append(cost <= cap ? cost : nil)
    }
    return results
  }

  /// The cost of the word spelled by `labels` (blob steps; labels out of the alphabet are left out).
  mutating func cost(of labels: [UInt8]) -> Int32 {
    top = 0
    appendRootRow()
    var p = 0
    var g = -1
    var previous = -1
    var depth = 0
    for label in labels where Int(label) < letters.count {
      depth += 1
      let row = top
      _ = appendRow(
        label: Int(label), depth: depth, previous: previous >= 0 ? letters[previous] : nil, parentRow: p,
        grandparentRow: g, parentLabel: previous)
      g = p
      p = row
      previous = Int(label)
    }
    return Self.cost(arena[p + n])
  }

  /// The cost of leaving out the word's letter `w` at `depth` (1-based) after `previous`.
  func omission(_ w: TypingSearch.Letter, previous: TypingSearch.Letter?, depth: Int) -> Int32 {
    if w.isPunctuation { return scaled.punctuation }
    if depth == 1 { return scaled.firstOmission }
    if let previous, previous.fold == w.fold { return scaled.doubledOmission }
    return scaled.omission
  }
}
