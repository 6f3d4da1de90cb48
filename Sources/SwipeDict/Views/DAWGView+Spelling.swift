@_spi(SwipeDictInternals) import SwipeDictFormat

// ID → word: the transition an ID's path takes out of each node, and a speller of
// ascending IDs that shares their common descent.
extension DAWGView {
  /// The labels of the word with `id`, or `nil` if there is none (or the blob is damaged).
  func labels(of id: Int) -> [UInt8]? {
    guard id >= 0, id < wordCount else { return nil }
    var remaining = id
    var address = root
    var labels: [UInt8] = []
    labels.reserveCapacity(16)
    while true {
      guard let header = area.byte(at: address) else { return nil }
      if header & DAWGLayout.finalFlag != 0, remaining == 0 { return labels }
      guard labels.count < longestWord, let step = transition(from: address, header: header, remaining: remaining)
      else { return nil }
      remaining &-= step.output
      labels.append(step.label)
      address = step.target
    }
  }

  /// One step of an ID's path: the transition it takes out of a node.
  struct PathStep {
    /// The transition's label, target and output.
    var label: UInt8
    var target: Int
    var output: Int
    /// The next transition's output (`Int.max` after the last one): a remaining ID below it
    /// takes the same transition.
    var limit: Int
  }

  /// The transition the path of an ID takes out of the node at `address`, whose header byte
  /// is `header`, `remaining` being the ID less the outputs on the way (a final node with
  /// `remaining` 0 is the word's end, not asked here): the last transition whose output does
  /// not exceed `remaining`. `nil` when there is none (the ID is not below the node) or the
  /// node is damaged.
  @inline(__always)
  func transition(from address: Int, header: UInt8, remaining: Int) -> PathStep? {
    if header & DAWGLayout.singleFlag != 0 {
      // One transition, output = final: the path must go through it.
      let out = Int((header >> 6) & 1)
      let mode = Int((header >> 4) & 3)
      guard out <= remaining else { return nil }
      let label = inline[Int(header & 0x0F)]
      if mode == 0 {
        return address >= 1 ? PathStep(label: label, target: address &- 1, output: out, limit: .max) : nil
      }
      guard let target = targetField(at: address &- mode, width: mode, below: address) else { return nil }
      return PathStep(label: label, target: target, output: out, limit: .max)
    }
    // General and wide nodes (not pairs or one-transition nodes) take the fast path.
    if header & DAWGLayout.pairFlag == 0, header & 3 != 1, let general = generalNode(at: address),
      general.count > 0
    {
      let i = lastIndex(withOutputAtMost: remaining, in: general)
      let out = output(i, in: general)
      guard out <= remaining, let next = target(i, in: general) else { return nil }
      let limit = i &+ 1 < general.count ? output(i &+ 1, in: general) : .max
      return PathStep(label: label(i, in: general), target: next, output: out, limit: limit)
    }
    guard let node = node(at: address), node.count > 0 else { return nil }
    var lo = 0
    var hi = node.count &- 1
    while lo < hi {
      let mid = (lo &+ hi &+ 1) >> 1
      if output(node, mid) <= remaining { lo = mid } else { hi = mid &- 1 }
    }
    let out = output(node, lo)
    guard out <= remaining, let next = target(node, lo) else { return nil }
    let limit = lo &+ 1 < node.count ? output(node, lo &+ 1) : .max
    return PathStep(label: label(node, lo), target: next, output: out, limit: limit)
  }

  /// Spells words in ascending ID order, each from where its path leaves the previous
  /// word's: IDs close together (the completions of a prefix, say) share the descent of their
  /// common prefix, which costs one comparison per shared letter.
  struct Speller {
    private let dawg: DAWGView
    /// The previous word's path: its steps and the ID less the outputs before each.
    private var steps: [(step: PathStep, remaining: Int)] = []
    /// The labels of the word last spelled.
    private(set) var labels: [UInt8] = []
    private var previous = -1

    init(dawg: DAWGView) {
      self.dawg = dawg
      steps.reserveCapacity(16)
      labels.reserveCapacity(16)
    }

    /// Spells word `id`, which must be above the previous one, into ``labels``. Returns
    /// `false` if there is no such word or the automaton is damaged (the speller then
    /// starts again from the root for the next ID).
    mutating func spell(_ id: Int) -> Bool {
      guard id > previous, id < dawg.wordCount else { return fail() }
      // The steps the new ID takes too: the same transition while its remaining ID stays
      // below the next transition's output.
      let delta = id &- previous
      var depth = 0
      if previous >= 0 {
        while depth < steps.count, steps[depth].remaining &+ delta < steps[depth].step.limit {
          steps[depth].remaining &+= delta
          depth &+= 1
        }
      }
      steps.removeLast(steps.count &- depth)
      labels.removeLast(labels.count &- depth)
      var address = dawg.root
      var remaining = id
      if let last = steps.last {
        address = last.step.target
        remaining = last.remaining &- last.step.output
      }
      previous = id
      while true {
        guard let header = dawg.area.byte(at: address) else { return fail() }
        if header & DAWGLayout.finalFlag != 0, remaining == 0 { return true }
        guard labels.count < dawg.longestWord,
          let step = dawg.transition(from: address, header: header, remaining: remaining)
        else { return fail() }
        steps.append((step, remaining))
        labels.append(step.label)
        remaining &-= step.output
        address = step.target
      }
    }

    private mutating func fail() -> Bool {
      steps.removeAll(keepingCapacity: true)
      labels.removeAll(keepingCapacity: true)
      previous = -1
      return false
    }
  }
}
