@_spi(SwipeDictInternals) import SwipeDictFormat

/// Writes a built automaton as a `DAWG` section (format in `DAWGLayout`).
///
/// Node order decides the size, because targets are addresses in 0–3 bytes:
/// the states most transitions point to (shared suffixes, and the final state with no
/// transitions, which costs no target bytes at all) are placed first, at small addresses;
/// then everything else in depth-first post-order from the root, so that a node's last child
/// usually sits right before it (a "next" target, no bytes) and each prefix's subtree is
/// contiguous, which keeps a lookup's nodes close together in memory.
enum DAWGEncoder {
  /// How many of the most referenced states go first.
  static let hotStates = 4096

  /// Encodes the section.
  /// - Parameter dawg: a finished builder.
  /// - Returns: the section bytes.
  /// - Throws: `CompileError.tooLarge` when the node area would exceed 16 MiB.
  static func encode(_ dawg: DAWGBuilder) throws(CompileError) -> [UInt8] {
    let inline = inlineLabels(dawg)
    var nodes = NodeWriter(dawg, inline: inline)
    if nodes.sink >= 0 { nodes.emit(from: nodes.sink) }
    for state in mostReferenced(dawg) { nodes.emit(from: state) }
    nodes.emit(from: Int(dawg.root))
    guard nodes.area.count <= DAWGLayout.maxNodeBytes else { throw .tooLarge(nodeBytes: nodes.area.count) }

    var out = ByteWriter()
    out.reserveCapacity(DAWGLayout.headerSize + nodes.area.count)
    out.append(UInt64(dawg.wordCount))
    out.append(UInt64(nodes.area.count))
    out.append(UInt64(nodes.address[Int(dawg.root)]))
    out.append(UInt32(dawg.stateCount))
    out.append(UInt32(dawg.labels.count))
    out.append(UInt32(dawg.longestWord))
    out.append(UInt32(nodes.sink >= 0 ? nodes.address[nodes.sink] : 0))
    out.append(contentsOf: inline)
    out.append(contentsOf: repeatElement(0, count: DAWGLayout.inlineLabelCount - inline.count))
    out.append(UInt64(0))
    precondition(out.count == DAWGLayout.headerSize)
    out.append(contentsOf: nodes.area.bytes)
    return out.bytes
  }

  /// The states more than one transition points to, most referenced first (ties: lower
  /// state), at most `hotStates`.
  private static func mostReferenced(_ dawg: DAWGBuilder) -> [Int] {
    var indegree = [Int32](repeating: 0, count: dawg.stateCount)
    for t in dawg.targets { indegree[Int(t)] += 1 }
    return Array(
      (0..<dawg.stateCount).filter { indegree[$0] > 1 }
        .sorted { indegree[$0] != indegree[$1] ? indegree[$0] > indegree[$1] : $0 < $1 }
        .prefix(hotStates))
  }

  /// The labels most used by single-transition states, most used first (ties: lower label).
  private static func inlineLabels(_ dawg: DAWGBuilder) -> [UInt8] {
    var uses = [Int](repeating: 0, count: 256)
    for state in 0..<dawg.stateCount where dawg.transitionCount[state] == 1 {
      uses[Int(dawg.labels[Int(dawg.transitionStart[state])])] += 1
    }
    let ranked = (0..<256).filter { uses[$0] > 0 }.sorted {
      uses[$0] != uses[$1] ? uses[$0] > uses[$1] : $0 < $1
    }
    return ranked.prefix(DAWGLayout.inlineLabelCount).map { UInt8($0) }
  }

  /// The number of bytes (1…8) needed for `value`.
  static func byteWidth(_ value: UInt64) -> Int {
    var width = 1
    while width < 8, value >> UInt64(8 * width) != 0 { width += 1 }
    return width
  }
}

/// Writes the automaton's nodes into the node area, each after every node it points to, and
/// remembers their addresses (format in `DAWGLayout`).
private struct NodeWriter {
  private let dawg: DAWGBuilder
  /// Each label's index in the inline label table, or -1.
  private var inlineIndex = [Int](repeating: -1, count: 256)
  /// Each state's address, or -1 until it is written. 32-bit: the node area is at most
  /// 16 MiB (checked at the end; clamped until then, so an oversized automaton fails with
  /// `tooLarge` rather than trapping).
  private(set) var address: [Int32]
  /// The final state without transitions, or -1.
  let sink: Int
  private(set) var area = ByteWriter()
  private var lastWritten = -1
  /// Scratch: the outputs of a node's transitions after the first.
  private var outputs: [UInt64] = []
  /// Scratch: the depth-first walk's path.
  private var stack: [(state: Int, next: Int)] = []

  init(_ dawg: DAWGBuilder, inline: [UInt8]) {
    self.dawg = dawg
    for (i, label) in inline.enumerated() { inlineIndex[Int(label)] = i }
    address = [Int32](repeating: -1, count: dawg.stateCount)
    sink = (0..<dawg.stateCount).first { dawg.transitionCount[$0] == 0 } ?? -1
  }

  /// Writes the states below `root` not written yet, then `root`: depth-first post-order,
  /// children in label order.
  mutating func emit(from root: Int) {
    guard address[root] < 0 else { return }
    stack.append((root, 0))
    while let top = stack.last {
      let n = Int(dawg.transitionCount[top.state])
      if top.next < n {
        stack[stack.count - 1].next += 1
        let child = Int(dawg.targets[Int(dawg.transitionStart[top.state]) + top.next])
        // The automaton is acyclic, so a child is never on the stack already.
        if address[child] < 0 { stack.append((child, 0)) }
      } else {
        stack.removeLast()
        write(top.state)
      }
    }
  }

  /// Appends a target field for `target` at the current position: absolute or relative,
  /// whichever is shorter. Returns its width.
  private mutating func appendTarget(_ target: Int) -> Int {
    let absolute = UInt64(address[target]) << 1
    let relative = UInt64(area.count - 1 - Int(address[target])) << 1 | 1
    let value = DAWGEncoder.byteWidth(relative) < DAWGEncoder.byteWidth(absolute) ? relative : absolute
    let width = DAWGEncoder.byteWidth(value)
    area.appendUnsigned(value, width: width)
    return width
  }

  /// The target of transition `i` of the state whose transitions start at `first`.
  private func target(_ first: Int, _ i: Int) -> Int { Int(dawg.targets[first + i]) }

  /// Writes `state`'s node: a single-transition node when its label is inline, else its
  /// targets, then a one-transition, pair or general node.
  private mutating func write(_ state: Int) {
    let n = Int(dawg.transitionCount[state])
    let first = Int(dawg.transitionStart[state])
    let final = dawg.isFinal[state]
    let finalBit = final ? DAWGLayout.finalFlag : 0
    defer {
      address[state] = Int32(clamping: area.count - 1)
      lastWritten = state
    }
    if n == 1, inlineIndex[Int(dawg.labels[first])] >= 0 {
      let t = target(first, 0)
      let mode = t == lastWritten ? 0 : appendTarget(t)
      area.append(
        DAWGLayout.singleFlag | finalBit | UInt8(mode << 4)
          | UInt8(inlineIndex[Int(dawg.labels[first])]))
      return
    }
    let wide = n >= DAWGLayout.minWideCount
    let lastIsNext = !wide && n > 0 && target(first, n - 1) == lastWritten && target(first, n - 1) != sink
    let nextBit = lastIsNext ? DAWGLayout.lastIsNextFlag : 0
    let codes = appendTargets(first, n, wide: wide, lastIsNext: lastIsNext)
    outputs.removeAll(keepingCapacity: true)
    var running: UInt64 = final ? 1 : 0
    for i in 0..<n {
      if i > 0 { outputs.append(running) }
      running += UInt64(dawg.wordCounts[target(first, i)])
    }
    let largest = outputs.max() ?? 0
    if n == 1 {
      area.append(dawg.labels[first])
      area.append(finalBit | nextBit | codes[0] << 2 | 1)
      return
    }
    if n == 2, largest < 256 {
      // The output is implied by a sink first target, or held in the spare code bits of a
      // next last target when it is 1…3; else it takes a byte.
      var low = codes[0]
      if codes[0] & 3 == 0 {
      } else if lastIsNext, (1...3).contains(outputs[0]) {
        low |= UInt8(outputs[0]) << 2
      } else {
        area.append(UInt8(outputs[0]))
      }
      area.append(dawg.labels[first])
      area.append(dawg.labels[first + 1])
      area.append(finalBit | nextBit | DAWGLayout.pairFlag | low)
      return
    }
    area.append(contentsOf: codes)
    let ow = largest < 16 ? 0 : DAWGEncoder.byteWidth(largest)
    appendOutputs(width: ow)
    let delta = appendLabels(dawg.labels[first..<(first + n)])
    let nCode = (2...3).contains(n) ? n : 0
    if nCode == 0 {
      if n >= 128 {
        area.append(UInt8(n))
        area.append(UInt8(0x80))
      } else {
        area.append(UInt8(n) | (delta ? 0x80 : 0))
      }
    }
    area.append(finalBit | nextBit | UInt8(ow << 2) | UInt8(nCode))
  }

  /// Appends the target fields of the `n` transitions starting at `first`, last transition
  /// first; width code 0 for the sink and a next target. A wide node (too many transitions
  /// to sum widths quickly) has its dense label index, then fixed-width absolute fields in
  /// transition order, and their width instead of codes.
  /// - Returns: the width codes (a wide node's: its field width).
  private mutating func appendTargets(_ first: Int, _ n: Int, wide: Bool, lastIsNext: Bool) -> [UInt8] {
    if wide {
      var dense = [UInt8](repeating: 0, count: Int(dawg.labels[first + n - 1]) + 1)
      for i in 0..<n { dense[Int(dawg.labels[first + i])] = UInt8(i + 1) }
      area.append(contentsOf: dense)
      let width = (0..<n).map { DAWGEncoder.byteWidth(UInt64(address[target(first, $0)]) << 1) }.max()!
      for i in 0..<n { area.appendUnsigned(UInt64(address[target(first, i)]) << 1, width: width) }
      return [UInt8(width)]
    }
    var codes = [UInt8](repeating: 0, count: (n + 3) / 4)
    for i in stride(from: n - 1, through: 0, by: -1) {
      let t = target(first, i)
      if t == sink || (lastIsNext && i == n - 1) { continue }
      codes[i / 4] |= UInt8(appendTarget(t)) << UInt8(2 * (i % 4))
    }
    return codes
  }

  /// Appends `outputs`, `width` bytes each, or two per byte (low nibble first) for width 0.
  private mutating func appendOutputs(width: Int) {
    if width == 0 {
      for pair in stride(from: 0, to: outputs.count, by: 2) {
        let high = pair + 1 < outputs.count ? outputs[pair + 1] : 0
        area.append(UInt8(outputs[pair] | high << 4))
      }
    } else {
      for output in outputs { area.appendUnsigned(output, width: width) }
    }
  }

  /// Appends a general node's labels: delta-coded when every difference is 1…16 and the node
  /// is small enough to be scanned (larger nodes keep plain labels for binary search).
  /// - Returns: whether they are delta-coded.
  private mutating func appendLabels(_ labels: ArraySlice<UInt8>) -> Bool {
    let n = labels.count
    let delta =
      n >= 4 && n <= DAWGLayout.maxDeltaLabels
      && zip(labels, labels.dropFirst()).allSatisfy { $1 - $0 <= 16 }
    if delta {
      area.append(labels.first!)
      var nibbles = zip(labels, labels.dropFirst()).map { $1 - $0 - 1 }
      if nibbles.count % 2 == 1 { nibbles.append(0) }
      for k in stride(from: 0, to: nibbles.count, by: 2) {
        area.append(nibbles[k] | nibbles[k + 1] << 4)
      }
    } else {
      area.append(contentsOf: labels)
    }
    return delta
  }
}

/// The `DAWG` section of words in ID order, and the automaton's size.
struct EncodedAutomaton: Sendable {
  let section: [UInt8]
  let stateCount: Int
  let transitionCount: Int

  init(words: LabeledWords) throws(CompileError) {
    var builder = DAWGBuilder()
    for id in 0..<words.count {
      try words.withLabels(of: id) { labels throws(CompileError) in try builder.add(labels) }
    }
    builder.finish()
    section = try DAWGEncoder.encode(builder)
    stateCount = builder.stateCount
    transitionCount = builder.labels.count
  }
}
