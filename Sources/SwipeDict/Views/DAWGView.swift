import SwipeDictFormat

/// The automaton, walked in place in the blob's bytes (format in `DAWGLayout`).
///
/// Every read goes through `UnsafeByteView`, so a damaged node yields `nil`, never a read
/// outside the section. Every transition points to a strictly lower address, so every walk
/// ends; walks that build words also stop at `longestWord` labels.
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
    guard nodeBytes == UInt64(section.count - DAWGLayout.headerSize) else {
      throw fail("node area of \(nodeBytes) bytes does not fill the section", 8)
    }
    guard root < nodeBytes else { throw fail("root address \(root) outside the node area", 16) }
    guard words <= nodeBytes * 256 else { throw fail("word count \(words) is impossible", 0) }
    let longest = section.uint32(at: 32)!
    guard longest >= 1 || words == 0, longest <= 1 << 16 else {
      throw fail("longest word \(longest) labels", 32)
    }
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
  }

  /// One decoded node.
  struct Node {
    /// Whether the state is final.
    var isFinal: Bool
    /// The number of transitions.
    var count: Int
    /// The node's first byte.
    var start: Int
    // General nodes: where the arrays are and their widths. Single nodes: label and target.
    var labels: Int
    var deltas: Int
    var outputs: Int
    var deltaWidth: Int
    var outputWidth: Int
    var singleLabel: UInt8
    var singleTarget: Int
  }

  /// Decodes the node whose header is at `address`, or `nil` if it is damaged.
  @inline(__always)
  func node(at address: Int) -> Node? {
    guard let header = area.byte(at: address) else { return nil }
    let isFinal = header & DAWGLayout.finalFlag != 0
    if header & DAWGLayout.singleFlag != 0 {
      let mode = Int((header >> 4) & 3)
      let start = address &- mode
      var delta = 1
      if mode > 0 {
        guard let d = area.unsigned(at: start, width: mode), d >= 1 else { return nil }
        delta = Int(d)
      }
      let target = start &- delta
      guard target >= 0 else { return nil }
      return Node(
        isFinal: isFinal, count: 1, start: start, labels: -1, deltas: 0, outputs: 0,
        deltaWidth: 0, outputWidth: 0, singleLabel: inline[Int(header & 0x0F)],
        singleTarget: target)
    }
    let deltaWidth = Int((header >> 4) & 3) &+ 1
    let outputWidth = Int((header >> 2) & 3) &+ 1
    var count = Int(header & 3)
    var end = address
    if count == 0 {
      guard let n = area.byte(at: address &- 1) else { return nil }
      count = Int(n)
      end = address &- 1
    }
    // safe: count ≤ 255 and widths ≤ 4, so these cannot overflow.
    let outputs = end &- (count > 0 ? count &- 1 : 0) &* outputWidth
    let deltas = outputs &- count &* deltaWidth
    let labels = deltas &- count
    guard labels >= 0 else { return nil }
    return Node(
      isFinal: isFinal, count: count, start: labels, labels: labels, deltas: deltas,
      outputs: outputs, deltaWidth: deltaWidth, outputWidth: outputWidth, singleLabel: 0,
      singleTarget: 0)
  }

  /// The label of transition `i` (`i < node.count`).
  @inline(__always)
  func label(_ node: Node, _ i: Int) -> UInt8 {
    node.labels < 0 ? node.singleLabel : area.byte(at: node.labels &+ i) ?? 0
  }

  /// The target address of transition `i`, or `nil` if it would leave the area.
  @inline(__always)
  func target(_ node: Node, _ i: Int) -> Int? {
    if node.labels < 0 { return node.singleTarget }
    guard let d = area.unsigned(at: node.deltas &+ i &* node.deltaWidth, width: node.deltaWidth),
      d >= 1, Int(d) <= node.start
    else { return nil }
    return node.start &- Int(d)
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
    // Labels ascend: scan, stopping at the first larger one.
    var i = 0
    while i < node.count {
      guard let l = area.byte(at: node.labels &+ i) else { return nil }
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
