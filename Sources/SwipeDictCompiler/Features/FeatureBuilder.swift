@_spi(SwipeDictInternals) import SwipeDictFormat

/// Computes the `FEAT` section: each word's key path on the layout, packed into a
/// `FeatureLayout.Record` per word ID.
struct FeatureBuilder {
  private let layout: KeyboardLayout
  private let centers: [(x: Float, y: Float)]
  /// The key each label types, or -1 (skipped or untypeable).
  private let keyOfLabel: [Int]
  private var records = ByteWriter()
  private var path: [Int] = []

  /// - Precondition: the layout has at most `FeatureLayout.maxKeys` keys.
  init(layout: KeyboardLayout, alphabet: Alphabet, wordCount: Int) {
    precondition(layout.keys.count <= FeatureLayout.maxKeys)
    self.layout = layout
    self.centers = layout.keys.map { ($0.x, $0.y) }
    self.keyOfLabel = alphabet.scalars.map { scalar in
      if case .key(let index) = layout.classify(scalar) { return index }
      return -1
    }
    records.append(UInt64(wordCount))
    records.append(UInt32(layout.keys.count))
    records.pad(toMultipleOf: FeatureLayout.headerSize)
  }

  /// Appends the record of the next word (in ID order), given as labels of the alphabet.
  /// - Precondition: the word has a non-empty key path (the compiler dropped the others).
  mutating func append(labels: UnsafeBufferPointer<UInt8>) {
    path.removeAll(keepingCapacity: true)
    for label in labels {
      let key = keyOfLabel[Int(label)]
      if key >= 0, path.last != key { path.append(key) }
    }
    records.append(
      FeatureLayout.Record(path: path, centers: centers, keyWidth: layout.keyWidth).packed)
  }

  /// The finished section.
  var section: [UInt8] { records.bytes }
}
