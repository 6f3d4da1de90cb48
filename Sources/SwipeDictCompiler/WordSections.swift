import Foundation
@_spi(SwipeDictInternals) import SwipeDictFormat

/// The sections computed from the words in ID order besides the automaton: `FREQ`, `FEAT`,
/// `PTRE` and `BEST` (and the header flag the tree's classes need).
struct WordSections: Sendable {
  let frequency: [UInt8]
  let features: [UInt8]
  let tree: [UInt8]
  let bestLists: [UInt8]
  /// The header flags the sections need: `BlobFormat.scriptTreeFlag` when letters of other
  /// scripts spread over the tree's children, `BlobFormat.rankedLeavesFlag` when a leaf
  /// ranks only its first words, `BlobFormat.narrowFeaturesFlag` when the `FEAT` records
  /// are narrow.
  let headerFlags: UInt32

  /// - Parameters:
  ///   - words: the words' labels in ID order.
  ///   - quantized: their frequency bytes, in ID order.
  ///   - scale: `ln(1 + maxCount)`, the frequency scale.
  init(words: LabeledWords, quantized: [UInt8], scale: Double, alphabet: Alphabet, layout: KeyboardLayout) {
    let wordCount = words.count
    var frequency = ByteWriter()
    frequency.append(UInt64(wordCount))
    frequency.append(scale)
    frequency.pad(toMultipleOf: FrequencyLayout.headerSize)
    frequency.append(contentsOf: quantized)
    self.frequency = frequency.bytes

    var features = FeatureBuilder(layout: layout, alphabet: alphabet, wordCount: wordCount)
    for id in 0..<wordCount { words.withLabels(of: id) { features.append(labels: $0) } }
    self.features = features.finish()
    let featureFlags = features.isNarrow ? BlobFormat.narrowFeaturesFlag : 0

    // The tree classes of each word's first labels, in ID order.
    // Letters of other scripts spread over the tree's children; the header flag says so
    // only when that changes a class, so Latin blobs stay readable by 1.1 readers.
    let latinClasses = PrefixTreeLayout.labelClasses(alphabet, rule: .latin)
    let spreadClasses = PrefixTreeLayout.labelClasses(alphabet, rule: .allScripts)
    let classFlags = latinClasses == spreadClasses ? 0 : BlobFormat.scriptTreeFlag
    let labelClasses = PrefixTreeLayout.labelClasses(
      alphabet, rule: PrefixTreeLayout.ClassRule(headerFlags: classFlags))
    let depth = PrefixTreeLayout.maxDepth
    var classes = [UInt8](repeating: UInt8(PrefixTreeLayout.otherClass), count: wordCount * depth)
    for id in 0..<wordCount {
      words.withLabels(of: id) { labels in
        for (d, label) in labels.prefix(depth).enumerated() {
          classes[id * depth + d] = labelClasses[Int(label)]
        }
      }
    }
    let treeFlags: UInt32
    (tree, bestLists, treeFlags) = PrefixTreeBuilder.encode(
      wordCount: wordCount, classes: classes, frequency: quantized,
      spelling: { id in words.withLabels(of: id) { Array($0) } })
    headerFlags = classFlags | treeFlags | featureFlags
  }
}
