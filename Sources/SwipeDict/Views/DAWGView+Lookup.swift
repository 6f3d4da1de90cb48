@_spi(SwipeDictInternals) import SwipeDictFormat

// The hot paths of lookups: a step out of a node, single, pair and one-transition nodes
// decoded inline and general and wide nodes by `generalNode(at:)`, and walks of labels.
extension DAWGView {
  /// Follows the transition labeled `label` out of the node at `address`: the hot path of
  /// every lookup, with single-transition nodes (most of a lookup's steps) decoded inline.
  /// - Returns: the target and the transition's output, or `nil` if there is none.
  @inline(__always)
  func step(from address: Int, label: UInt8) -> (target: Int, output: Int)? {
    guard let header = area.byte(at: address) else { return nil }
    let finalOutput = Int((header >> 6) & 1)
    if header & DAWGLayout.singleFlag != 0 {
      guard inline[Int(header & 0x0F)] == label else { return nil }
      let mode = Int((header >> 4) & 3)
      if mode == 0 { return address >= 1 ? (address &- 1, finalOutput) : nil }
      guard let target = targetField(at: address &- mode, width: mode, below: address) else {
        return nil
      }
      return (target, finalOutput)
    }
    let lastIsNext = header & DAWGLayout.lastIsNextFlag != 0
    if header & DAWGLayout.pairFlag != 0 {
      // Pair node, decoded inline (see `node(at:)` for the same rules, spelled out).
      guard let first = area.byte(at: address &- 2), let second = area.byte(at: address &- 1)
      else { return nil }
      let code0 = Int(header & 3)
      let high = Int((header >> 2) & 3)
      var fieldsEnd = address &- 2
      var output1: Int
      if code0 == 0 {
        output1 = finalOutput &+ 1
      } else if lastIsNext && high != 0 {
        output1 = high
      } else {
        guard let byte = area.byte(at: address &- 3) else { return nil }
        output1 = Int(byte)
        fieldsEnd = address &- 3
      }
      if first == label {
        if code0 == 0 { return sinkAddress < address ? (sinkAddress, finalOutput) : nil }
        guard let target = targetField(at: fieldsEnd &- code0, width: code0, below: address)
        else { return nil }
        return (target, finalOutput)
      }
      guard second == label else { return nil }
      if lastIsNext {
        let target = fieldsEnd &- code0 &- 1
        return target >= 0 ? (target, output1) : nil
      }
      if high == 0 { return sinkAddress < address ? (sinkAddress, output1) : nil }
      guard let target = targetField(at: fieldsEnd &- code0 &- high, width: high, below: address)
      else { return nil }
      return (target, output1)
    }
    if header & 3 == 1 {
      // One-transition general node.
      guard area.byte(at: address &- 1) == label else { return nil }
      let code = Int((header >> 2) & 3)
      if lastIsNext { return address >= 2 ? (address &- 2, finalOutput) : nil }
      if code == 0 { return sinkAddress < address ? (sinkAddress, finalOutput) : nil }
      guard let target = targetField(at: address &- 1 &- code, width: code, below: address) else {
        return nil
      }
      return (target, finalOutput)
    }
    return generalStep(from: address, label: label)
  }

  /// A general or wide node as `generalNode(at:)` decodes it: its extent checked once, so
  /// reads between `codes` and `address` need no further check.
  struct GeneralNode {
    var address: Int
    var header: UInt8
    var count: Int
    var labels: Int
    var outputs: Int
    var outputWidth: Int
    var codes: Int
    var codeBytes: Int
    var delta: Bool
    var wide: Bool
  }

  /// Decodes the general or wide node at `address`, its header neither a single, a pair nor a
  /// one-transition node's (the callers have read it): the one decoder of their layout, for
  /// `node(at:)` and the hot paths alike. `count` is 0 for the sink; a wide node's target
  /// width is the byte at `codes`, unchecked.
  @inline(__always)
  func generalNode(at address: Int) -> GeneralNode? {
    guard address >= 1, address < area.count else { return nil }
    // safe: 1 ≤ address < count, so address and address − 1 are inside.
    let header = area.uncheckedByte(at: address)
    let outputWidth = Int((header >> 2) & 3)
    var count = Int(header & 3)
    var end = address
    var delta = false
    if count == 0 {
      let n = area.uncheckedByte(at: address &- 1)
      end = address &- 1
      if n == 0x80 {
        // 128 or more plain labels: the count is in the byte before.
        guard let big = area.byte(at: address &- 2) else { return nil }
        count = Int(big)
        end = address &- 2
      } else {
        delta = n & 0x80 != 0
        count = Int(n & 0x7F)
      }
    }
    // safe: count ≤ 255 and widths ≤ 3, so none of this can overflow.
    let labels = end &- DAWGLayout.labelBytes(count: count, delta: delta)
    let outputs = labels &- DAWGLayout.outputBytes(count: count, width: outputWidth)
    let wide = count >= DAWGLayout.minWideCount
    // The fixed part below the outputs: the wide node's width byte, or the width codes.
    let codeBytes = wide ? 1 : (count &+ 3) >> 2
    let codes = outputs &- codeBytes
    guard codes >= 0 else { return nil }
    return GeneralNode(
      address: address, header: header, count: count, labels: labels, outputs: outputs,
      outputWidth: outputWidth, codes: codes, codeBytes: codeBytes, delta: delta, wide: wide)
  }

  /// The index of the transition labeled `label`, if any.
  @inline(__always)
  func index(of label: UInt8, in node: GeneralNode) -> Int? {
    // Every offset in node.codes..<node.address is inside the area (checked by generalNode).
    if node.wide {
      let width = Int(area.uncheckedByte(at: node.codes))
      let last = area.uncheckedByte(at: node.labels &+ node.count &- 1)
      guard (1...3).contains(width), label <= last,
        let entry = area.byte(at: node.codes &- node.count &* width &- Int(last) &- 1 &+ Int(label)),
        entry != 0, Int(entry) <= node.count
      else { return nil }
      return Int(entry) &- 1
    }
    if node.delta {
      var current = Int(area.uncheckedByte(at: node.labels))
      var i = 0
      while true {
        if current == Int(label) { return i }
        if current > Int(label) || i &+ 1 >= node.count { return nil }
        // Nibble i + 1 (of difference − 1) is in byte labels + 1 + i / 2, inside the node.
        let byte = area.uncheckedByte(at: node.labels &+ 1 &+ (i >> 1))
        current &+= Int(i & 1 == 0 ? byte & 0x0F : byte >> 4) &+ 1
        i &+= 1
      }
    }
    // Plain labels (at most 32: more make a wide node), compared 8 at a time (SWAR): the
    // lowest byte flagged by the zero-byte test of `word ^ pattern` is exactly the first
    // equal one (a false flag needs a borrow from an equal byte below it); bytes past the
    // labels are masked off. Only within the last words of the area does the scan below
    // remain.
    if node.count <= 32, area.contains(offset: node.labels, length: (node.count &+ 7) & ~7) {
      let pattern = 0x0101_0101_0101_0101 &* UInt64(label)
      var base = 0
      while base < node.count {
        // The whole words from node.labels are inside the area (checked above): no `?? 0`.
        let x = (area.uint64(at: node.labels &+ base) ?? 0) ^ pattern
        var flags = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
        let lanes = node.count &- base
        if lanes < 8 { flags &= (1 << UInt64(8 &* lanes)) &- 1 }
        if flags != 0 { return base &+ flags.trailingZeroBitCount >> 3 }
        base &+= 8
      }
      return nil
    }
    var i = 0
    while i < node.count {
      let l = area.uncheckedByte(at: node.labels &+ i)
      if l == label { return i }
      if l > label { return nil }
      i &+= 1
    }
    return nil
  }

  /// The label of transition `i` (`0 ≤ i < count`).
  @inline(__always)
  func label(_ i: Int, in node: GeneralNode) -> UInt8 {
    if !node.delta { return area.uncheckedByte(at: node.labels &+ i) }
    var current = area.uncheckedByte(at: node.labels)
    for j in 0..<i {
      let byte = area.uncheckedByte(at: node.labels &+ 1 &+ (j >> 1))
      current &+= (j & 1 == 0 ? byte & 0x0F : byte >> 4) &+ 1
    }
    return current
  }

  /// The output of transition `i` (`0 ≤ i < count`).
  @inline(__always)
  func output(_ i: Int, in node: GeneralNode) -> Int {
    if i == 0 { return Int((node.header >> 6) & 1) }
    if node.outputWidth == 0 {
      let byte = area.uncheckedByte(at: node.outputs &+ ((i &- 1) >> 1))
      return Int((i &- 1) & 1 == 0 ? byte & 0x0F : byte >> 4)
    }
    var value = 0
    let at = node.outputs &+ (i &- 1) &* node.outputWidth
    for k in 0..<node.outputWidth { value |= Int(area.uncheckedByte(at: at &+ k)) << (8 &* k) }
    return value
  }

  /// The last transition whose output does not exceed `remaining` (outputs ascend).
  @inline(__always)
  func lastIndex(withOutputAtMost remaining: Int, in node: GeneralNode) -> Int {
    var lo = 0
    var hi = node.count &- 1
    while lo < hi {
      let mid = (lo &+ hi &+ 1) >> 1
      if output(mid, in: node) <= remaining { lo = mid } else { hi = mid &- 1 }
    }
    return lo
  }

  /// The target of transition `i` (`0 ≤ i < count`), or `nil` if the node is damaged.
  @inline(__always)
  func target(_ i: Int, in node: GeneralNode) -> Int? {
    if node.wide {
      let width = Int(area.uncheckedByte(at: node.codes))
      guard (1...3).contains(width) else { return nil }
      let at = node.codes &- (node.count &- i) &* width
      return absoluteField(at: at, width: width, below: node.address)
    }
    var codeWord: UInt64
    if let word = area.uint64(at: node.codes) {
      // One load; the bytes past the codes (outputs, labels) masked off.
      codeWord = node.codeBytes >= 8 ? word : word & ((1 << UInt64(8 &* node.codeBytes)) &- 1)
    } else {
      codeWord = 0
      for k in 0..<node.codeBytes {
        codeWord |= UInt64(area.uncheckedByte(at: node.codes &+ k)) << UInt64(8 &* k)
      }
    }
    if node.header & DAWGLayout.lastIsNextFlag != 0 && i == node.count &- 1 {
      let start = node.codes &- Self.fieldSum(codeWord)
      return start >= 1 ? start &- 1 : nil
    }
    let shift = UInt64(2 &* i)
    let width = Int((codeWord >> shift) & 3)
    if width == 0 { return sinkAddress < node.address ? sinkAddress : nil }
    let upTo = shift &+ 2 >= 64 ? codeWord : codeWord & ((1 << (shift &+ 2)) &- 1)
    return targetField(at: node.codes &- Self.fieldSum(upTo), width: width, below: node.address)
  }

  /// `step` for general and wide nodes (a test checks it agrees with `node(at:)`, `find`,
  /// `target` and `output` on every path).
  @inline(never)
  private func generalStep(from address: Int, label: UInt8) -> (target: Int, output: Int)? {
    guard let node = generalNode(at: address), node.count > 0, let i = index(of: label, in: node),
      let target = target(i, in: node)
    else { return nil }
    return (target, output(i, in: node))
  }

  /// The sum of the 2-bit fields of a 64-bit word (SWAR).
  @inline(__always)
  static func fieldSum(_ word: UInt64) -> Int {
    let pairs = (word & 0x3333_3333_3333_3333) &+ ((word >> 2) & 0x3333_3333_3333_3333)
    let nibbles = (pairs & 0x0F0F_0F0F_0F0F_0F0F) &+ ((pairs >> 4) & 0x0F0F_0F0F_0F0F_0F0F)
    return Int((nibbles &* 0x0101_0101_0101_0101) >> 56)
  }

  /// Walks `labels` from the root.
  /// - Returns: the address reached and the sum of outputs on the way, or `nil`.
  @inline(__always)
  func walk<S: Sequence<UInt8>>(_ labels: S) -> (address: Int, output: Int)? {
    var address = root
    var output = 0
    for label in labels {
      guard let (next, out) = step(from: address, label: label) else { return nil }
      output &+= out
      address = next
    }
    return (address, output)
  }

  /// Whether the node at `address` is final.
  @inline(__always)
  func isFinal(_ address: Int) -> Bool {
    (area.byte(at: address) ?? 0) & DAWGLayout.finalFlag != 0
  }
}
