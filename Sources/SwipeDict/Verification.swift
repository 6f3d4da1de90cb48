@_spi(SwipeDictInternals) import SwipeDictFormat

extension SwipeDictionary {
  /// Checks the whole blob: every section's checksum and the table's copy of its head, the
  /// automaton's structure, and the swipe sections against the automaton and the layout.
  ///
  /// The structural check decodes every node (walking the node area from its end, where the
  /// root is, to its start), and proves that every transition targets a node, labels ascend
  /// and lie in the alphabet, each output equals the number of words before it, the root
  /// accepts exactly `wordCount` words, and no word is longer than the header says. After it
  /// passes, word ↔ ID is a perfect hash on this file.
  ///
  /// - Complexity: O(file size); a few milliseconds per megabyte.
  /// - Throws: `SwipeDictError.invalid` naming the section and offset of the first damage.
  public func verify() throws(SwipeDictError) {
    do throws(FormatError) {
      for entry in contents.sections {
        // safe: `BlobContainer.parse` checked every section's bounds at open.
        let bytes = region.bytes.slice(offset: Int(entry.offset), length: Int(entry.length))!
        let computed = bytes.crc32c
        guard computed == entry.checksum else {
          throw FormatError(
            .sectionChecksumMismatch(stored: entry.checksum, computed: computed),
            section: entry.tag, offset: Int(entry.offset))
        }
        try BlobContainer.checkHeadCopy(of: entry, in: region.bytes)
      }
      try alphabet.validate(fileOffset: Int(contents.section(.alphabet)!.offset))
      try verifyAutomaton()
      try verifySwipeSections()
      if let markView {
        try markView.validate(wordCount: wordCount, fileOffset: Int(contents.section(.marks)!.offset))
      }
      if let bigramView {
        try bigramView.validate(wordCount: wordCount, fileOffset: Int(contents.section(.bigrams)!.offset))
      }
    } catch {
      throw .invalid(error)
    }
  }

  private func verifyAutomaton() throws(FormatError) {
    let areaOffset = Int(contents.section(.dawg)!.offset) + DAWGLayout.headerSize
    func fail(_ detail: String, _ address: Int) -> FormatError {
      FormatError(.malformed(detail), section: .dawg, offset: areaOffset + address)
    }
    // Nodes, from the last (the root) back to the first.
    var addresses: [Int] = []
    var address = dawg.area.count - 1
    while address >= 0 {
      guard let node = dawg.node(at: address) else { throw fail("undecodable node", address) }
      guard let start = dawg.start(of: node) else { throw fail("undecodable node", address) }
      addresses.append(address)
      address = start - 1
    }
    addresses.reverse()
    guard addresses.count == dawg.stateCount else {
      throw fail("\(addresses.count) nodes, header says \(dawg.stateCount)", 0)
    }
    guard addresses.last == dawg.root else { throw fail("the root is not the last node", dawg.root) }
    guard let sink = dawg.node(at: dawg.sink), sink.count == 0, sink.isFinal,
      binarySearch(addresses, dawg.sink) != nil
    else { throw fail("the sink is not a final node without transitions", dawg.sink) }
    // Words below each node and the longest path, children first (lower addresses first).
    var words = [Int](repeating: 0, count: addresses.count)
    var depth = [Int](repeating: 0, count: addresses.count)
    var transitions = 0
    for (index, address) in addresses.enumerated() {
      let node = dawg.node(at: address)!
      var count = node.isFinal ? 1 : 0
      var longest = 0
      var previousLabel = -1
      transitions += node.count
      if node.count == 0 && !node.isFinal { throw fail("dead-end state", address) }
      for i in 0..<node.count {
        let label = Int(dawg.label(node, i))
        guard label < alphabet.count else { throw fail("label \(label) outside the alphabet", address) }
        guard label > previousLabel else { throw fail("labels do not ascend", address) }
        previousLabel = label
        guard dawg.output(node, i) == count else {
          throw fail("output of transition \(i) is \(dawg.output(node, i)), expected \(count)", address)
        }
        guard let target = dawg.target(node, i), let t = binarySearch(addresses, target),
          target < dawg.start(of: node)!
        else {
          throw fail("transition \(i) does not point to an earlier node", address)
        }
        count += words[t]
        longest = max(longest, depth[t] + 1)
        guard count <= wordCount else { throw fail("more words below than the blob holds", address) }
      }
      if node.count >= DAWGLayout.minWideCount {
        // Every label's dense-index entry must lead back to it, and no other entry is set.
        var hits = 0
        for label in 0...Int(dawg.label(node, node.count - 1)) {
          guard let i = dawg.find(node, UInt8(label)) else { continue }
          guard Int(dawg.label(node, i)) == label else { throw fail("dense index is wrong", address) }
          hits += 1
        }
        guard hits == node.count else { throw fail("dense index is wrong", address) }
      }
      words[index] = count
      depth[index] = longest
    }
    guard words.last == wordCount else {
      throw fail("the root accepts \(words.last ?? 0) words, header says \(wordCount)", dawg.root)
    }
    guard depth.last == dawg.longestWord else {
      throw fail("longest word is \(depth.last ?? 0) labels, header says \(dawg.longestWord)", dawg.root)
    }
    guard transitions == dawg.transitionCount else {
      throw fail("\(transitions) transitions, header says \(dawg.transitionCount)", 0)
    }
  }
}

private func binarySearch(_ sorted: [Int], _ value: Int) -> Int? {
  var lo = 0
  var hi = sorted.count
  while lo < hi {
    let mid = (lo + hi) / 2
    if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
  }
  return lo < sorted.count && sorted[lo] == value ? lo : nil
}
