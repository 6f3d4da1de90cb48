import SwipeDictFormat

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
  private let inline: [UInt8]
  /// The final state without transitions.
  private let sinkAddress: Int

  /// Validates the section header (O(1)) and creates the view.
  init(section: UnsafeByteView, fileOffset: Int, alphabetCount: Int) throws(FormatError) {
    func fail(_ detail: String, _ at: Int) -> FormatError {
      FormatError(.malformed(detail), section: .dawg, offset: fileOffset + at)
    }
    guard section.count >= DAWGLayout.headerSize else {
      throw fail("section is \(section.count) bytes, shorter than its header", 0)
    }
    // safe: the 64-byte header is inside the section, checked above.
    let words = section.uint64(at: 0)!
    let nodeBytes = section.uint64(at: 8)!
    let root = section.uint64(at: 16)!
    guard nodeBytes == UInt64(section.count - DAWGLayout.headerSize),
      nodeBytes <= UInt64(DAWGLayout.maxNodeBytes)
    else {
      throw fail("node area of \(nodeBytes) bytes does not fill the section", 8)
    }
    guard root < nodeBytes else { throw fail("root address \(root) outside the node area", 16) }
    guard words <= nodeBytes * 256 else { throw fail("word count \(words) is impossible", 0) }
    let longest = section.uint32(at: 32)!
    guard longest >= 1 || words == 0, longest <= 1 << 16 else {
      throw fail("longest word \(longest) labels", 32)
    }
    let sink = section.uint32(at: 36)!
    guard UInt64(sink) < nodeBytes else { throw fail("sink address \(sink) outside the node area", 36) }
    var inline: [UInt8] = []
    for i in 0..<DAWGLayout.inlineLabelCount {
      inline.append(section.byte(at: DAWGLayout.inlineLabelsOffset + i)!)
    }
    self.area = section.slice(offset: DAWGLayout.headerSize, length: Int(nodeBytes))!
    self.root = Int(root)
    self.wordCount = Int(words)
    self.longestWord = Int(longest)
    self.stateCount = Int(section.uint32(at: 24)!)
    self.transitionCount = Int(section.uint32(at: 28)!)
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
    /// General nodes: first label, first width code, first stored output (transition 1's).
    var labels: Int
    var codes: Int
    var outputs: Int
    var outputWidth: Int
    var lastIsNext: Bool
    /// Single nodes (`labels < 0`): the label and the target.
    var singleLabel: UInt8
    var singleTarget: Int
  }

  /// The sink's address: the target of width code 0.
  var sink: Int { sinkAddress }

  /// Decodes the node whose header is at `address`, or `nil` if it is damaged.
  @inline(__always)
  func node(at address: Int) -> Node? {
    guard let header = area.byte(at: address) else { return nil }
    let isFinal = header & DAWGLayout.finalFlag != 0
    if header & DAWGLayout.singleFlag != 0 {
      let mode = Int((header >> 4) & 3)
      var target = address &- 1
      if mode > 0 {
        guard let t = area.unsigned(at: address &- mode, width: mode), Int(t) < address &- mode
        else { return nil }
        target = Int(t)
      }
      guard target >= 0 else { return nil }
      return Node(
        address: address, isFinal: isFinal, count: 1, labels: -1, codes: 0, outputs: 0,
        outputWidth: 0, lastIsNext: false, singleLabel: inline[Int(header & 0x0F)],
        singleTarget: target)
    }
    let outputWidth = Int((header >> 2) & 3) &+ 1
    var count = Int(header & 3)
    var end = address
    if count == 0 {
      guard let n = area.byte(at: address &- 1) else { return nil }
      count = Int(n)
      end = address &- 1
    }
    // safe: count ≤ 255 and widths ≤ 4, so none of this can overflow.
    let labels = end &- count
    let outputs = labels &- (count > 0 ? count &- 1 : 0) &* outputWidth
    let codes = outputs &- (count &+ 3) / 4
    guard codes >= 0 else { return nil }
    return Node(
      address: address, isFinal: isFinal, count: count, labels: labels, codes: codes,
      outputs: outputs, outputWidth: outputWidth,
      lastIsNext: header & DAWGLayout.lastIsNextFlag != 0, singleLabel: 0, singleTarget: 0)
  }

  /// The address of the node's first byte, or `nil` if it is damaged.
  func start(of node: Node) -> Int? {
    if node.labels < 0 {
      // safe: a single node's mode is 0…3 and its fields were read by `node(at:)`.
      let mode = Int(((area.byte(at: node.address) ?? 0) >> 4) & 3)
      return node.address &- mode
    }
    let start = node.codes &- targetBytes(node, before: node.count)
    return start >= 0 ? start : nil
  }

  /// The address bytes of the targets before transition `i`: the sum of their width codes.
  @inline(__always)
  func targetBytes(_ node: Node, before i: Int) -> Int {
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
    node.labels < 0 ? node.singleLabel : area.byte(at: node.labels &+ i) ?? 0
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
    guard let codes = area.byte(at: node.codes &+ (i >> 2)) else { return nil }
    let width = Int((codes >> UInt8(2 * (i & 3))) & 3)
    if width == 0 { return sinkAddress < node.address ? sinkAddress : nil }
    let at = node.codes &- targetBytes(node, before: i &+ 1)
    guard let t = area.unsigned(at: at, width: width), Int(t) < node.address else { return nil }
    return Int(t)
  }

  /// The output of transition `i`.
  @inline(__always)
  func output(_ node: Node, _ i: Int) -> Int {
    if i == 0 { return node.isFinal ? 1 : 0 }
    let at = node.outputs &+ (i &- 1) &* node.outputWidth
    return Int(area.unsigned(at: at, width: node.outputWidth) ?? 0)
  }

  /// The index of the transition labelled `label`, if any.
  @inline(__always)
  func find(_ node: Node, _ label: UInt8) -> Int? {
    if node.labels < 0 { return node.singleLabel == label ? 0 : nil }
    guard area.contains(offset: node.labels, length: node.count) else { return nil }
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
      let l = area.byte(at: node.labels &+ i)!
      if l == label { return i }
      if l > label { return nil }
      i &+= 1
    }
    return nil
  }

  /// Walks `labels` from the root.
  /// - Returns: the address reached and the sum of outputs on the way, or `nil`.
  @inline(__always)
  func walk<S: Sequence<UInt8>>(_ labels: S) -> (address: Int, output: Int)? {
    var address = root
    var output = 0
    for label in labels {
      guard let node = node(at: address), let i = find(node, label),
        let next = target(node, i)
      else { return nil }
      output &+= self.output(node, i)
      address = next
    }
    return (address, output)
  }

  /// The ID of the word spelled by `labels`, or `nil` if it is not a word.
  func id<S: Sequence<UInt8>>(of labels: S) -> Int? {
    guard let (address, output) = walk(labels), let node = node(at: address), node.isFinal,
      output < wordCount
    else { return nil }
    return output
  }

  /// The labels of the word with `id`, or `nil` if there is none (or the blob is damaged).
  func labels(of id: Int) -> [UInt8]? {
    guard id >= 0, id < wordCount else { return nil }
    var remaining = id
    var address = root
    var labels: [UInt8] = []
    while true {
      guard let node = node(at: address) else { return nil }
      if node.isFinal, remaining == 0 { return labels }
      guard node.count > 0, labels.count < longestWord else { return nil }
      // The last transition whose output does not exceed `remaining`.
      var lo = 0
      var hi = node.count - 1
      while lo < hi {
        let mid = (lo + hi + 1) / 2
        if output(node, mid) <= remaining { lo = mid } else { hi = mid - 1 }
      }
      let out = output(node, lo)
      guard out <= remaining, let next = target(node, lo) else { return nil }
      remaining -= out
      labels.append(label(node, lo))
      address = next
    }
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
