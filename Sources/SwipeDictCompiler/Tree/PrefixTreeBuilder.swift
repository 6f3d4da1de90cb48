@_spi(SwipeDictInternals) import SwipeDictFormat

/// Builds the `PTRE` section (see `PrefixTreeLayout`): the 27-ary prefix tree whose leaves
/// list word IDs by frequency, and the top list.
enum PrefixTreeBuilder {
  /// Encodes the tree of a dictionary.
  /// - Parameters:
  ///   - wordCount: the number of words (IDs `0..<wordCount`).
  ///   - classes: the tree class of each of the first `maxDepth` labels of each word, in ID
  ///     order, `maxDepth` bytes per word (`otherClass` past the end of a word).
  ///   - frequency: each word's FREQ byte, in ID order.
  ///   - spelling: the labels of a word ID (called for the top list only).
  static func encode(
    wordCount: Int, classes: [UInt8], frequency: [UInt8], spelling: (Int) -> [UInt8]
  ) -> [UInt8] {
    let depthLimit = PrefixTreeLayout.maxDepth
    precondition(classes.count == wordCount * depthLimit && frequency.count == wordCount)
    // Most frequent first, ties by ascending ID: the order of leaves and of the top list.
    func byFrequency(_ a: Int32, _ b: Int32) -> Bool {
      let fa = frequency[Int(a)]
      let fb = frequency[Int(b)]
      return fa != fb ? fa > fb : a < b
    }

    var nodes: [[UInt32]] = []  // child references of each interior node
    var leafData = ByteWriter()
    var leafOffsets: [UInt32] = []

    func makeLeaf(_ ids: [Int32]) -> UInt32 {
      leafOffsets.append(UInt32(leafData.bytes.count))
      var runs: [(start: Int32, length: Int32)] = []
      for id in ids {  // ascending
        if let last = runs.last, last.start + last.length == id {
          runs[runs.count - 1].length += 1
        } else {
          runs.append((id, 1))
        }
      }
      leafData.appendVarint(UInt64(ids.count))
      leafData.appendVarint(UInt64(runs.count))
      var end: Int32 = 0
      for run in runs {
        leafData.appendVarint(UInt64(run.start - end))
        leafData.appendVarint(UInt64(run.length))
        end = run.start + run.length
      }
      // Local index of an ID = its position in the ascending list.
      var position: [Int32: Int] = [:]
      position.reserveCapacity(ids.count)
      for (i, id) in ids.enumerated() { position[id] = i }
      let width = PrefixTreeLayout.indexWidth(forLeafSize: ids.count)
      for id in ids.sorted(by: byFrequency) {
        leafData.appendUnsigned(UInt64(position[id]!), width: width)
      }
      return PrefixTreeLayout.leafFlag | UInt32(leafOffsets.count - 1)
    }

    func makeNode(_ ids: [Int32], depth: Int) -> UInt32 {
      if ids.isEmpty { return 0 }
      let splits = depth == 0 || ids.count > PrefixTreeLayout.splitThreshold
      guard splits, depth < depthLimit else { return makeLeaf(ids) }
      let index = nodes.count
      nodes.append([UInt32](repeating: 0, count: PrefixTreeLayout.fanout))
      var buckets = [[Int32]](repeating: [], count: PrefixTreeLayout.fanout)
      for id in ids { buckets[Int(classes[Int(id) * depthLimit + depth])].append(id) }
      for (c, bucket) in buckets.enumerated() {
        nodes[index][c] = makeNode(bucket, depth: depth + 1)
      }
      return UInt32(index)
    }

    let root = makeNode((0..<Int32(wordCount)).map { $0 }, depth: 0)
    leafOffsets.append(UInt32(leafData.bytes.count))

    let top = (0..<Int32(wordCount)).sorted(by: byFrequency).prefix(PrefixTreeLayout.topCount)
    var spellings = ByteWriter()
    for id in top {
      let labels = spelling(Int(id))
      spellings.appendVarint(UInt64(labels.count))
      spellings.append(contentsOf: labels)
    }

    var out = ByteWriter()
    out.append(UInt64(wordCount))
    out.append(UInt32(nodes.count))
    out.append(UInt32(leafOffsets.count - 1))
    out.append(UInt32(top.count))
    out.append(root)
    out.append(UInt32(leafData.bytes.count))
    out.append(UInt32(spellings.bytes.count))
    out.append(UInt32(PrefixTreeLayout.splitThreshold))
    out.append(UInt32(depthLimit))
    out.pad(toMultipleOf: PrefixTreeLayout.headerSize)
    for node in nodes { for reference in node { out.append(reference) } }
    for offset in leafOffsets { out.append(offset) }
    for id in top { out.append(UInt32(id)) }
    out.append(contentsOf: leafData.bytes)
    out.append(contentsOf: spellings.bytes)
    return out.bytes
  }
}
