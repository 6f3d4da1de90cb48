/// Builds the minimal acyclic automaton of a sorted word list, incrementally.
///
/// This is Daciuk, Mihov, Watson & Watson (2000), "Incremental construction of minimal
/// acyclic finite-state automata", for sorted input: the states on the path of the previous
/// word that the next word no longer shares are *frozen* — replaced by an equivalent state
/// from the register of frozen states, or registered as new. Equivalent states have the same
/// finality and the same transitions (labels and targets), so the register is a hash table
/// over exactly that, and the result is minimal. Memory is the automaton plus one path.
///
/// States are numbered in the order they are frozen, which is a post-order: every
/// transition targets a smaller state number. `DAWGEncoder` writes them in that order.
struct DAWGBuilder {
  // Frozen states, indexed by state number.
  private(set) var isFinal: [Bool] = []
  private(set) var transitionStart: [Int32] = []
  private(set) var transitionCount: [UInt16] = []
  /// The number of words accepted from each state (its right language's size).
  private(set) var wordCounts: [Int64] = []
  // All frozen transitions, flat.
  private(set) var labels: [UInt8] = []
  private(set) var targets: [Int32] = []

  // The register: open addressing; per slot 0 = empty, else the state's hash in the high
  // 32 bits and its number + 1 in the low ones, so one load rejects most other states.
  private var table = [UInt64](repeating: 0, count: 1 << 16)
  private var tableMask = (1 << 16) - 1

  // The unfrozen path of the last word, as one stack of transitions: the state at depth d
  // has those from `pathStart[d]` to `pathStart[d + 1]` (the deepest, to the top). A state
  // only gains transitions once every deeper state was frozen and popped, so its own are
  // always on top then. Only the last transition of each state targets an unfrozen state
  // (-1 until that one is frozen).
  private var pathLabels: [UInt8] = []
  private var pathTargets: [Int32] = []
  private var pathStart: [Int] = [0]
  private var pathFinal: [Bool] = [false]
  private var previous: [UInt8] = []
  private var hasPrevious = false
  private(set) var wordCount = 0
  private(set) var longestWord = 0

  /// The root's state number, set by `finish()`.
  private(set) var root: Int32 = -1

  init() {}

  /// The number of frozen states.
  var stateCount: Int { isFinal.count }

  /// Adds the next word; words must come in strictly increasing label order.
  /// - Throws: `CompileError.outOfOrder` when `word` is not greater than the previous one.
  mutating func add(_ word: UnsafeBufferPointer<UInt8>) throws(CompileError) {
    precondition(!table.isEmpty, "no word can be added after finish()")
    var common = 0
    let limit = min(word.count, previous.count)
    while common < limit, word[common] == previous[common] { common += 1 }
    if hasPrevious {
      let greater =
        common < limit ? word[common] > previous[common] : word.count > previous.count
      guard greater else {
        throw .outOfOrder(previous: previous, got: Array(word))
      }
    }
    freezePath(downTo: common)
    while pathStart.count <= word.count {
      pathStart.append(0)
      pathFinal.append(false)
    }
    for depth in common..<word.count {
      // Depth `common` has its transitions on top; each deeper state starts empty.
      if depth > common { pathStart[depth] = pathLabels.count }
      pathLabels.append(word[depth])
      pathTargets.append(-1)
      pathFinal[depth + 1] = false
    }
    pathStart[word.count] = pathLabels.count
    pathFinal[word.count] = true
    previous.removeAll(keepingCapacity: true)
    previous.append(contentsOf: word)
    hasPrevious = true
    wordCount += 1
    longestWord = max(longestWord, word.count)
  }

  /// Freezes the whole remaining path and sets `root`. The register is freed: no word can
  /// be added after this (8 bytes a slot, 4 MiB on de, while the automaton is encoded).
  mutating func finish() {
    freezePath(downTo: 0)
    root = freeze(depth: 0)
    table = []
    tableMask = 0
  }

  /// Freezes the states of the previous word's path deeper than `depth`.
  private mutating func freezePath(downTo depth: Int) {
    var d = previous.count
    while d > depth {
      let id = freeze(depth: d)
      // Pop its transitions: the parent's, now on top, end with the one that leads here.
      pathLabels.removeSubrange(pathStart[d]...)
      pathTargets.removeSubrange(pathStart[d]...)
      pathTargets[pathTargets.count - 1] = id
      d -= 1
    }
  }

  /// Returns the register's state equivalent to the path state at `depth`, adding it if new.
  /// - Precondition: the state's transitions are the top of the path's stack.
  private mutating func freeze(depth: Int) -> Int32 {
    let final = pathFinal[depth]
    let range = pathStart[depth]..<pathLabels.count
    var hash: UInt64 = final ? 0x9E37_79B9_7F4A_7C15 : 0x2545_F491_4F6C_DD1D
    for i in range {
      hash =
        (hash ^ (UInt64(pathLabels[i]) << 32 | UInt64(UInt32(bitPattern: pathTargets[i]))))
        &* 0x100_0000_01B3
      hash ^= hash >> 29
    }
    // The steps above mix high bits into low ones only; the slot comes from the high half,
    // so mix both ways first, or similar states crowd together.
    let high = murmurFinalized(hash) >> 32
    var slot = Self.slot(high: high, mask: tableMask)
    while true {
      let value = table[slot]
      if value == 0 { break }
      if value >> 32 == high {
        let candidate = Int(truncatingIfNeeded: value & 0xFFFF_FFFF) - 1
        if equals(state: candidate, final: final, range: range) { return Int32(candidate) }
      }
      slot = (slot + 1) & tableMask
    }
    let id = Int32(isFinal.count)
    var count: Int64 = final ? 1 : 0
    for t in pathTargets[range] { count += wordCounts[Int(t)] }
    isFinal.append(final)
    transitionStart.append(Int32(labels.count))
    transitionCount.append(UInt16(range.count))
    wordCounts.append(count)
    labels.append(contentsOf: pathLabels[range])
    targets.append(contentsOf: pathTargets[range])
    table[slot] = high << 32 | UInt64(id + 1)
    if isFinal.count * 2 > table.count { grow() }
    return id
  }

  /// Whether frozen state `state` has finality `final` and the path transitions `range`.
  private func equals(state: Int, final: Bool, range: Range<Int>) -> Bool {
    guard isFinal[state] == final, Int(transitionCount[state]) == range.count else { return false }
    let start = Int(transitionStart[state]) - range.lowerBound
    for i in range where labels[start + i] != pathLabels[i] || targets[start + i] != pathTargets[i] {
      return false
    }
    return true
  }

  /// Where probing for a state whose hash has this high half starts: the slot holds only
  /// that half, so growing places states again from it alone.
  private static func slot(high: UInt64, mask: Int) -> Int { Int(truncatingIfNeeded: high) & mask }

  /// Doubles the table.
  private mutating func grow() {
    let old = table
    table = [UInt64](repeating: 0, count: old.count * 2)
    tableMask = table.count - 1
    for value in old where value != 0 {
      var slot = Self.slot(high: value >> 32, mask: tableMask)
      while table[slot] != 0 { slot = (slot + 1) & tableMask }
      table[slot] = value
    }
  }
}
