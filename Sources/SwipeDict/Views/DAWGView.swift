@_spi(SwipeDictInternals) import SwipeDictFormat

/// The automaton, walked in place in the blob's bytes (format in `DAWGLayout`).
///
/// Every read goes through `UnsafeByteView`, so a damaged node yields `nil`, never a read
/// outside the section. `target` only returns addresses strictly below the node's own, so
/// every walk ends; walks that build words also stop at `longestWord` labels.
struct DAWGView: Sendable {
  /// The node area.
  let area: UnsafeByteView
  /// The root node's address.
  let root: Int
  /// The number of words.
  let wordCount: Int
  /// The longest word, in labels (a bound for every walk that builds a word).
  let longestWord: Int
  /// Declared state and transition counts (checked by `verify`).
  let stateCount: Int
  let transitionCount: Int
  /// Labels of single-transition nodes, by 4-bit index.
  let inline: SIMD16<UInt8>
  /// The final state without transitions.
  let sinkAddress: Int

  /// Validates the section header (O(1)) and creates the view.
  /// The header is read from `head`, the section's first bytes (`BlobContainer.head(of:in:)`):
  /// in a blob of format 1.4 the table's copy, so this touches none of the section's pages.
  init(section: UnsafeByteView, head: UnsafeByteView, fileOffset: Int, alphabetCount: Int) throws(FormatError) {
    let fail = try SectionHeaderCheck(
      .dawg, section: section, headerSize: DAWGLayout.headerSize, fileOffset: fileOffset
    ).fail
    // safe: the section, so its head, holds the 64-byte header, checked above.
    let words = head.uint64(at: 0)!
    let nodeBytes = head.uint64(at: 8)!
    let root = head.uint64(at: 16)!
    guard nodeBytes == UInt64(section.count - DAWGLayout.headerSize),
      nodeBytes <= UInt64(DAWGLayout.maxNodeBytes)
    else {
      throw fail("node area of \(nodeBytes) bytes does not fill the section", 8)
    }
    guard root < nodeBytes else { throw fail("root address \(root) outside the node area", 16) }
    guard words <= nodeBytes * 256 else { throw fail("word count \(words) is impossible", 0) }
    let longest = head.uint32(at: 32)!
    guard longest >= 1 || words == 0, longest <= 1 << 16 else {
      throw fail("longest word \(longest) labels", 32)
    }
    let sink = head.uint32(at: 36)!
    guard UInt64(sink) < nodeBytes else { throw fail("sink address \(sink) outside the node area", 36) }
    var inline = SIMD16<UInt8>()
    for i in 0..<DAWGLayout.inlineLabelCount {
      inline[i] = head.byte(at: DAWGLayout.inlineLabelsOffset + i)!
    }
    self.area = section.slice(offset: DAWGLayout.headerSize, length: Int(nodeBytes))!
    self.root = Int(root)
    self.wordCount = Int(words)
    self.longestWord = Int(longest)
    self.stateCount = Int(head.uint32(at: 24)!)
    self.transitionCount = Int(head.uint32(at: 28)!)
    self.inline = inline
    self.sinkAddress = Int(sink)
  }

  /// One decoded node: where its parts are (see `DAWGLayout`).
  struct Node {
    /// The header's address.
    var address: Int
    /// Whether the state is final.
    var isFinal: Bool
    /// The number of transitions.
    var count: Int
    /// The first label; -1 for a single-transition node.
    var labels: Int
    /// The first stored output (transition 1's), or minus the output of a pair node whose
    /// output is implied; the output width in bytes (0: nibbles).
    var outputs: Int
    var outputWidth: Int
    /// Where the target fields end (they run backwards from here).
    var targetsEnd: Int
    /// The width codes: their first byte, or -1 when they are in `inlineCodes`, or -2 for a
    /// wide node, whose fixed target width is in `inlineCodes`.
    var codes: Int
    var inlineCodes: UInt8
    var lastIsNext: Bool
    /// Whether the labels after the first are nibbles holding (difference − 1).
    var deltaLabels: Bool
    /// Single nodes: the label and the target.
    var singleLabel: UInt8
    var singleTarget: Int
  }

  /// The sink's address: the target of width code 0.
  var sink: Int { sinkAddress }

  /// The header's sink address when the node there is what it should be, final and without
  /// transitions (so a walk that reaches it can stop there without decoding it), else `nil`.
  var checkedSink: Int? {
    guard let node = node(at: sinkAddress), node.isFinal, node.count == 0 else { return nil }
    return sinkAddress
  }

  /// Decodes the node whose header is at `address`, or `nil` if it is damaged.
  @inline(__always)
  func node(at address: Int) -> Node? {
    guard let header = area.byte(at: address) else { return nil }
    let isFinal = header & DAWGLayout.finalFlag != 0
    if header & DAWGLayout.singleFlag != 0 {
      let mode = Int((header >> 4) & 3)
      var target = address &- 1
      if mode > 0 {
        guard let t = targetField(at: address &- mode, width: mode, below: address) else {
          return nil
        }
        target = t
      }
      guard target >= 0 else { return nil }
      return Node(
        address: address, isFinal: isFinal, count: 1, labels: -1, outputs: 0, outputWidth: 0,
        targetsEnd: address &- mode, codes: -1, inlineCodes: 0, lastIsNext: false,
        deltaLabels: false, singleLabel: inline[Int(header & 0x0F)], singleTarget: target)
    }
    let lastIsNext = header & DAWGLayout.lastIsNextFlag != 0
    if header & DAWGLayout.pairFlag != 0 {
      // The output byte is absent when the first target is the sink (output final + 1) or
      // when a next last target leaves code1 free to hold the output (1…3).
      let implied: Int
      if header & 0x03 == 0 {
        implied = isFinal ? 2 : 1
      } else if lastIsNext, header & 0x0C != 0 {
        implied = Int((header >> 2) & 3)
      } else {
        implied = 0
      }
      let labels = address &- 2
      let outputs = implied > 0 ? -implied : labels &- 1
      guard labels >= 1 else { return nil }
      return Node(
        address: address, isFinal: isFinal, count: 2, labels: labels, outputs: outputs,
        outputWidth: 1, targetsEnd: implied > 0 ? labels : outputs, codes: -1,
        inlineCodes: lastIsNext ? header & 0x03 : header & 0x0F, lastIsNext: lastIsNext,
        deltaLabels: false, singleLabel: 0, singleTarget: 0)
    }
    if header & 3 == 1 {
      // One transition, its width code in the output-width bits; no outputs, no code byte.
      let labels = address &- 1
      guard labels >= 0 else { return nil }
      return Node(
        address: address, isFinal: isFinal, count: 1, labels: labels, outputs: labels,
        outputWidth: 0, targetsEnd: labels, codes: -1, inlineCodes: (header >> 2) & 3,
        lastIsNext: lastIsNext, deltaLabels: false, singleLabel: 0, singleTarget: 0)
    }
    // A general or wide node: the one decoder of their layout (`generalNode(at:)`).
    guard let general = generalNode(at: address) else { return nil }
    if general.wide {
      // Fixed-width absolute targets, their width in the byte below the outputs.
      let width = area.uncheckedByte(at: general.codes)  // safe: generalNode checked codes ≥ 0
      guard (1...3).contains(width), general.codes &- general.count &* Int(width) >= 0 else { return nil }
      return Node(
        address: address, isFinal: isFinal, count: general.count, labels: general.labels,
        outputs: general.outputs, outputWidth: general.outputWidth, targetsEnd: general.codes, codes: -2,
        inlineCodes: width, lastIsNext: false, deltaLabels: false, singleLabel: 0, singleTarget: 0)
    }
    return Node(
      address: address, isFinal: isFinal, count: general.count, labels: general.labels,
      outputs: general.outputs, outputWidth: general.outputWidth, targetsEnd: general.codes,
      codes: general.codes, inlineCodes: 0, lastIsNext: lastIsNext, deltaLabels: general.delta,
      singleLabel: 0, singleTarget: 0)
  }

  /// Decodes a target field: an absolute address (low bit 0) or a distance back from the
  /// field (low bit 1). `nil` unless the target is below `limit`.
  @inline(__always)
  func targetField(at position: Int, width: Int, below limit: Int) -> Int? {
    guard let value = area.unsigned(at: position, width: width) else { return nil }
    let target =
      value & 1 == 0 ? Int(value >> 1) : position &- 1 &- Int(truncatingIfNeeded: value >> 1)
    return target >= 0 && target < limit ? target : nil
  }

  /// Decodes a wide node's target field: always an absolute address.
  @inline(__always)
  func absoluteField(at position: Int, width: Int, below limit: Int) -> Int? {
    guard let value = area.unsigned(at: position, width: width), value & 1 == 0 else {
      return nil
    }
    let target = Int(value >> 1)
    return target < limit ? target : nil
  }

  /// The address of the node's first byte, or `nil` if it is damaged.
  func start(of node: Node) -> Int? {
    var start = node.targetsEnd &- targetBytes(node, before: node.count)
    if node.codes == -2 {
      // A wide node starts with its dense index of (last label + 1) bytes.
      guard let last = area.byte(at: node.labels &+ node.count &- 1) else { return nil }
      start &-= Int(last) &+ 1
    }
    return start >= 0 ? start : nil
  }

  /// The address bytes of the targets of transitions `0..<i`: the sum of their width codes.
  @inline(__always)
  func targetBytes(_ node: Node, before i: Int) -> Int {
    if node.labels < 0 { return 0 }
    if node.codes == -2 { return i &* Int(node.inlineCodes) }
    if node.codes < 0 {
      let mask = UInt8(truncatingIfNeeded: (1 << (2 * min(i, 4))) - 1)
      return Self.codeSum(node.inlineCodes & mask)
    }
    var sum = 0
    var k = 0
    while k < i >> 2 {
      sum &+= Self.codeSum(area.byte(at: node.codes &+ k) ?? 0)
      k &+= 1
    }
    let rest = i & 3
    if rest > 0 {
      let mask = UInt8((1 << (2 * rest)) - 1)
      sum &+= Self.codeSum((area.byte(at: node.codes &+ k) ?? 0) & mask)
    }
    return sum
  }

  /// The sum of the four 2-bit fields of a byte.
  @inline(__always)
  static func codeSum(_ byte: UInt8) -> Int {
    let pairs = (byte & 0x33) &+ ((byte >> 2) & 0x33)
    return Int((pairs & 0x0F) &+ (pairs >> 4))
  }

  /// The label of transition `i` (`i < node.count`).
  @inline(__always)
  func label(_ node: Node, _ i: Int) -> UInt8 {
    if node.labels < 0 { return node.singleLabel }
    if !node.deltaLabels { return area.byte(at: node.labels &+ i) ?? 0 }
    var label = area.byte(at: node.labels) ?? 0
    var j = 1
    while j <= i {
      label &+= nibble(node, j) &+ 1
      j &+= 1
    }
    return label
  }

  /// The index of the first transition of `node` whose label is at least `label` (`count`
  /// when there is none): a binary search over plain labels, a scan otherwise (single, pair
  /// and delta-coded nodes have at most 12 transitions). Labels ascend on a valid node; on
  /// a damaged one the answer is some index in `0...count`.
  func firstIndex(ofLabelAtLeast label: Int, in node: Node) -> Int {
    if node.labels >= 0, !node.deltaLabels, node.count > 8 {
      var lo = 0
      var hi = node.count
      while lo < hi {
        let mid = (lo &+ hi) >> 1
        if Int(area.byte(at: node.labels &+ mid) ?? 0xFF) < label { lo = mid &+ 1 } else { hi = mid }
      }
      return lo
    }
    var i = 0
    while i < node.count, Int(self.label(node, i)) < label { i &+= 1 }
    return i
  }

  /// The stored difference − 1 between delta-coded labels `j − 1` and `j` (`j ≥ 1`).
  @inline(__always)
  func labelDelta(_ node: Node, _ j: Int) -> UInt8 { nibble(node, j) }

  /// The nibble of delta-coded label `j ≥ 1`.
  @inline(__always)
  private func nibble(_ node: Node, _ j: Int) -> UInt8 {
    let byte = area.byte(at: node.labels &+ 1 &+ ((j &- 1) >> 1)) ?? 0
    return (j &- 1) & 1 == 0 ? byte & 0x0F : byte >> 4
  }

  /// The target address of transition `i`, or `nil` if the node is damaged. Always below
  /// the node's own address, so walks cannot loop.
  @inline(__always)
  func target(_ node: Node, _ i: Int) -> Int? {
    if node.labels < 0 { return node.singleTarget }
    if node.lastIsNext && i == node.count &- 1 {
      guard let start = start(of: node), start >= 1 else { return nil }
      return start &- 1
    }
    if node.codes == -2 {
      let width = Int(node.inlineCodes)
      let at = node.targetsEnd &- (node.count &- i) &* width
      return absoluteField(at: at, width: width, below: node.address)
    }
    let codes = node.codes < 0 ? node.inlineCodes : area.byte(at: node.codes &+ (i >> 2)) ?? 0
    let width = Int((codes >> UInt8(2 * (i & 3))) & 3)
    if width == 0 { return sinkAddress < node.address ? sinkAddress : nil }
    let end = node.targetsEnd &- targetBytes(node, before: i &+ 1)
    return targetField(at: end, width: width, below: node.address)
  }

  /// The output of transition `i`.
  @inline(__always)
  func output(_ node: Node, _ i: Int) -> Int {
    if i == 0 { return node.isFinal ? 1 : 0 }
    if node.outputs < 0 { return -node.outputs }  // implied by a pair node's header
    if node.outputWidth == 0 {
      let byte = area.byte(at: node.outputs &+ ((i &- 1) >> 1)) ?? 0
      return Int((i &- 1) & 1 == 0 ? byte & 0x0F : byte >> 4)
    }
    let at = node.outputs &+ (i &- 1) &* node.outputWidth
    return Int(area.unsigned(at: at, width: node.outputWidth) ?? 0)
  }

  /// The index of the transition labeled `label`, if any.
  @inline(__always)
  func find(_ node: Node, _ label: UInt8) -> Int? {
    if node.labels < 0 { return node.singleLabel == label ? 0 : nil }
    if node.deltaLabels {
      var l = area.byte(at: node.labels) ?? 0
      var i = 0
      while true {
        if l == label { return i }
        if l > label { return nil }
        i &+= 1
        if i >= node.count { return nil }
        let (next, overflow) = l.addingReportingOverflow(nibble(node, i) &+ 1)
        if overflow { return nil }
        l = next
      }
    }
    guard area.contains(offset: node.labels, length: node.count) else { return nil }
    if node.codes == -2 {
      // Wide node: the dense index lies before the targets.
      let last = area.byte(at: node.labels &+ node.count &- 1)!
      let targets = node.targetsEnd &- node.count &* Int(node.inlineCodes)
      guard label <= last, let entry = area.byte(at: targets &- Int(last) &- 1 &+ Int(label)),
        entry != 0, Int(entry) <= node.count, area.byte(at: node.labels &+ Int(entry) &- 1) == label
      else { return nil }
      return Int(entry) &- 1
    }
    if node.count > 12 {
      // Labels ascend: binary search.
      var lo = 0
      var hi = node.count
      while lo < hi {
        let mid = (lo &+ hi) >> 1
        // safe: the label range was checked above.
        let l = area.byte(at: node.labels &+ mid)!
        if l < label { lo = mid &+ 1 } else { hi = mid }
      }
      return lo < node.count && area.byte(at: node.labels &+ lo) == label ? lo : nil
    }
    var i = 0
    while i < node.count {
      // safe: the label range was checked above.
      let l = area.byte(at: node.labels &+ i)!
      if l == label { return i }
      if l > label { return nil }
      i &+= 1
    }
    return nil
  }

  /// The one transition of the node at `address` when it is a single-transition node that
  /// is not final (a link of a chain, as in the suffix "ation"), else `nil`.
  @inline(__always)
  func chainLink(at address: Int) -> Edge? {
    guard let header = area.byte(at: address),
      header & (DAWGLayout.singleFlag | DAWGLayout.finalFlag) == DAWGLayout.singleFlag,
      let node = node(at: address)
    else { return nil }
    return Edge(label: node.singleLabel, target: Int32(truncatingIfNeeded: node.singleTarget))
  }

  /// A transition, decoded: its label and its target's address.
  struct Edge {
    var label: UInt8
    var target: Int32
  }

  /// Appends the transitions of the node at `address` to `edges`, in label order, each
  /// decoded once: labels and targets in one pass over the node (`label(_:_:)` and
  /// `target(_:_:)` decode one transition each, rescanning the ones before it).
  /// - Returns: whether the node is final, or `nil` (and `edges` unchanged) if it is damaged.
  func appendEdges(of address: Int, to edges: inout [Edge]) -> Bool? {
    guard let node = node(at: address) else { return nil }
    let start = edges.count
    if node.labels < 0 {
      // safe: node(at:) returned a target below the node, and the area is at most 8 MiB.
      edges.append(Edge(label: node.singleLabel, target: Int32(truncatingIfNeeded: node.singleTarget)))
      return node.isFinal
    }
    guard area.contains(offset: node.labels, length: node.deltaLabels ? 1 : node.count) else { return nil }
    var label = Int(area.byte(at: node.labels) ?? 0)
    var end = node.targetsEnd
    for i in 0..<node.count {
      if i > 0 {
        if node.deltaLabels {
          label &+= Int(nibble(node, i)) &+ 1
        } else {
          // safe: the labels' range was checked above.
          label = Int(area.byte(at: node.labels &+ i)!)
        }
      }
      let target: Int?
      if node.codes == -2 {
        let width = Int(node.inlineCodes)
        target = absoluteField(at: node.targetsEnd &- (node.count &- i) &* width, width: width, below: address)
      } else {
        // Fields run backwards from `targetsEnd`: transition i's ends where i − 1's begins.
        let codes = node.codes < 0 ? node.inlineCodes : area.byte(at: node.codes &+ (i >> 2)) ?? 0
        let width = Int((codes >> UInt8(2 &* (i & 3))) & 3)
        end &-= width
        if node.lastIsNext && i == node.count &- 1 {
          target = end >= 1 ? end &- 1 : nil
        } else if width == 0 {
          target = sinkAddress < address ? sinkAddress : nil
        } else {
          target = targetField(at: end, width: width, below: address)
        }
      }
      // A damaged node's delta-coded labels may climb past the last label.
      guard let target, label <= Int(UInt8.max) else {
        edges.removeLast(edges.count &- start)
        return nil
      }
      edges.append(Edge(label: UInt8(truncatingIfNeeded: label), target: Int32(truncatingIfNeeded: target)))
    }
    return node.isFinal
  }

  /// The number of words below the node at `address` (its right language), or `nil`.
  func wordCount(below address: Int) -> Int? {
    var total = 0
    var address = address
    for _ in 0...longestWord {
      guard let node = node(at: address) else { return nil }
      if node.count == 0 { return total + (node.isFinal ? 1 : 0) }
      total &+= output(node, node.count - 1)
      guard let next = target(node, node.count - 1), total <= wordCount else { return nil }
      address = next
    }
    return nil
  }
}

extension DAWGView {
  /// The root's transitions: each first label and the ID range of the words starting with
  /// it, in label (and so ID) order: ascending and disjoint (a damaged root ends the list).
  func firstLabelRanges() -> [(label: UInt8, range: Range<Int>)] {
    guard let node = node(at: root) else { return [] }
    var result: [(label: UInt8, range: Range<Int>)] = []
    result.reserveCapacity(node.count)
    for i in 0..<node.count {
      let start = output(node, i)
      let end = i + 1 < node.count ? output(node, i + 1) : wordCount
      guard start >= (result.last?.range.upperBound ?? 0), start <= end, end <= wordCount else {
        return result
      }
      result.append((label(node, i), start..<end))
    }
    return result
  }
}
