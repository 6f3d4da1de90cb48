import SwipeDictFormat

/// Writes a built automaton as a `DAWG` section (format in `DAWGLayout`).
///
/// States are written in their post-order numbering, so each node's targets are already
/// placed and every delta is known and positive. Per-transition outputs are the counts of
/// the words reachable through earlier siblings (plus 1 when the state is final).
enum DAWGEncoder {
  /// Encodes the section.
  /// - Parameter dawg: a finished builder.
  /// - Returns: the section bytes.
  static func encode(_ dawg: DAWGBuilder) -> [UInt8] {
    let inline = inlineLabels(dawg)
    var inlineIndex = [Int](repeating: -1, count: 256)
    for (i, label) in inline.enumerated() { inlineIndex[Int(label)] = i }

    var area = ByteWriter()
    var address = [Int](repeating: 0, count: dawg.stateCount)
    var transitions = 0
    var outputs: [UInt64] = []
    for state in 0..<dawg.stateCount {
      let n = Int(dawg.transitionCount[state])
      let first = Int(dawg.transitionStart[state])
      let final = dawg.isFinal[state]
      let start = area.count
      transitions += n
      if n == 1 {
        let label = dawg.labels[first]
        let delta = start - address[Int(dawg.targets[first])]
        let k = inlineIndex[Int(label)]
        if k >= 0, delta < 1 << 24 {
          let mode = delta == 1 ? 0 : byteWidth(UInt64(delta))
          if mode > 0 { area.appendUnsigned(UInt64(delta), width: mode) }
          area.append(
            DAWGLayout.singleFlag | (final ? DAWGLayout.finalFlag : 0) | UInt8(mode << 4)
              | UInt8(k))
          address[state] = area.count - 1
          continue
        }
      }
      outputs.removeAll(keepingCapacity: true)
      var running: UInt64 = final ? 1 : 0
      var maxDelta = 1
      for i in 0..<n {
        if i > 0 { outputs.append(running) }
        running += UInt64(dawg.wordCounts[Int(dawg.targets[first + i])])
        maxDelta = max(maxDelta, start - address[Int(dawg.targets[first + i])])
      }
      let dw = byteWidth(UInt64(maxDelta))
      let ow = byteWidth(outputs.max() ?? 1)
      precondition(dw <= 4 && ow <= 4, "automaton too large for 32-bit deltas and outputs")
      for i in 0..<n { area.append(dawg.labels[first + i]) }
      for i in 0..<n {
        area.appendUnsigned(UInt64(start - address[Int(dawg.targets[first + i])]), width: dw)
      }
      for output in outputs { area.appendUnsigned(output, width: ow) }
      let nCode = (1...3).contains(n) ? n : 0
      if nCode == 0 { area.append(UInt8(n)) }
      area.append(
        (final ? DAWGLayout.finalFlag : 0) | UInt8((dw - 1) << 4) | UInt8((ow - 1) << 2)
          | UInt8(nCode))
      address[state] = area.count - 1
    }

    var out = ByteWriter()
    out.append(UInt64(dawg.wordCount))
    out.append(UInt64(area.count))
    out.append(UInt64(address[Int(dawg.root)]))
    out.append(UInt32(dawg.stateCount))
    out.append(UInt32(transitions))
    out.append(UInt32(dawg.longestWord))
    out.append(UInt32(0))
    out.append(contentsOf: inline)
    out.append(contentsOf: repeatElement(0, count: DAWGLayout.inlineLabelCount - inline.count))
    out.append(UInt64(0))
    precondition(out.count == DAWGLayout.headerSize)
    out.append(contentsOf: area.bytes)
    return out.bytes
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
