import Foundation
@_spi(SwipeDictInternals) import SwipeDictFormat

/// The sections computed from the words in ID order besides the automaton: `FREQ`, `FEAT`,
/// `PTRE` and `BEST` (and the header flag the tree's classes need).
struct WordSections: Sendable {
  /// `ln(1 + maxCount)`, the frequency scale.
  let scale: Double
  /// Each word's frequency byte, in ID order.
  let quantized: [UInt8]
  let frequency: [UInt8]
  let features: [UInt8]
  let tree: [UInt8]
  let bestLists: [UInt8]
  /// `BlobFormat.scriptTreeFlag` when letters of other scripts spread over the tree's
  /// children, else 0.
  let headerFlags: UInt32

  /// - Parameters:
  ///   - words: the words' labels in ID order.
  ///   - counts: their counts, in ID order.
  init(words: LabeledWords, counts: [Double], alphabet: Alphabet, layout: KeyboardLayout) {
    let wordCount = words.count
    scale = log1p(counts.max() ?? 0)
    var frequency = ByteWriter()
    frequency.append(UInt64(wordCount))
    frequency.append(scale)
    frequency.pad(toMultipleOf: FrequencyLayout.headerSize)
    quantized = counts.map { [scale] count in FrequencyLayout.quantize(count, scale: scale) }
    frequency.append(contentsOf: quantized)
    self.frequency = frequency.bytes

    var features = FeatureBuilder(layout: layout, alphabet: alphabet, wordCount: wordCount)
    for id in 0..<wordCount { words.withLabels(of: id) { features.append(labels: $0) } }
    self.features = features.section

    // The tree classes of each word's first labels, in ID order.
    // Letters of other scripts spread over the tree's children; the header flag says so
    // only when that changes a class, so Latin blobs stay readable by 1.1 readers.
    let latinClasses = PrefixTreeLayout.labelClasses(alphabet, rule: .latin)
    let spreadClasses = PrefixTreeLayout.labelClasses(alphabet, rule: .allScripts)
    headerFlags = latinClasses == spreadClasses ? 0 : BlobFormat.scriptTreeFlag
    let labelClasses = PrefixTreeLayout.labelClasses(
      alphabet, rule: PrefixTreeLayout.ClassRule(headerFlags: headerFlags))
    let depth = PrefixTreeLayout.maxDepth
    var classes = [UInt8](repeating: UInt8(PrefixTreeLayout.otherClass), count: wordCount * depth)
    for id in 0..<wordCount {
      words.withLabels(of: id) { labels in
        for (d, label) in labels.prefix(depth).enumerated() {
          classes[id * depth + d] = labelClasses[Int(label)]
        }
      }
    }
    (tree, bestLists) = PrefixTreeBuilder.encode(
      wordCount: wordCount, classes: classes, frequency: quantized,
      spelling: { id in words.withLabels(of: id) { Array($0) } })
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

/// Runs two pieces of work at once: the first on a thread of the global dispatch queue,
/// the second on the calling thread.
enum Concurrently {
  /// Runs `first` on another thread and `second` on this one, and returns both results
  /// once both are done; when `first` throws, its error is thrown after `second` returns.
  static func run<A: Sendable, B, E: Error>(
    _ first: @escaping @Sendable () throws(E) -> A, and second: () throws(E) -> B
  ) throws(E) -> (A, B) {
    let slot = ResultSlot<A, E>()
    let group = DispatchGroup()
    DispatchQueue.global(qos: .userInitiated).async(group: group) {
      slot.result = Result { () throws(E) -> A in try first() }
    }
    let b: Result<B, E> = Result { () throws(E) -> B in try second() }
    group.wait()
    // safe: the group's wait orders the write above before this read.
    let a = slot.result!
    return (try a.get(), try b.get())
  }

  /// Where the other thread leaves its result. Written once by that thread before it leaves
  /// the dispatch group, read only after `wait()` returns, so the accesses never overlap.
  private final class ResultSlot<A: Sendable, E: Error>: @unchecked Sendable {
    var result: Result<A, E>?
  }
}
