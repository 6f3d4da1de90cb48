@_spi(SwipeDictInternals) import SwipeDictFormat

/// Computes the `FEAT` section: each word's key path on the layout, packed into a
/// `FeatureLayout.Record` per word ID; narrow (3 bytes) on a layout of at most 31 keys.
struct FeatureBuilder {
  private let layout: KeyboardLayout
  private let centers: [(x: Float, y: Float)]
  /// The key each label types, or -1 (skipped or untypeable).
  private let keyOfLabel: [Int]
  private var records = ByteWriter()
  private var path: [Int] = []
  /// Whether the records are narrow (`FeatureLayout.narrowRecordSize`).
  let isNarrow: Bool

  /// - Precondition: the layout has at most `FeatureLayout.maxKeys` keys.
  init(layout: KeyboardLayout, alphabet: Alphabet, wordCount: Int) {
    precondition(layout.keys.count <= FeatureLayout.maxKeys)
    self.layout = layout
    self.centers = layout.keys.map { ($0.x, $0.y) }
    self.keyOfLabel = alphabet.scalars.map { scalar in
      if case .key(let index) = layout.classify(scalar) { return index }
      return -1
    }
    isNarrow = layout.keys.count <= FeatureLayout.maxNarrowKeys
    records.reserveCapacity(
      FeatureLayout.headerSize
        + (isNarrow ? FeatureLayout.narrowRecordSize * wordCount + 1 : FeatureLayout.recordSize * wordCount))
    records.append(UInt64(wordCount))
    records.append(UInt32(layout.keys.count))
    records.append(UInt32(isNarrow ? FeatureLayout.narrowRecordSize : FeatureLayout.recordSize))
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
    let packed = FeatureLayout.Record(path: path, centers: centers, keyWidth: layout.keyWidth).packed
    if isNarrow {
      records.appendUnsigned(UInt64(FeatureLayout.narrowed(packed)), width: FeatureLayout.narrowRecordSize)
    } else {
      records.append(packed)
    }
  }

  /// The finished section (narrow records end with one zero byte).
  mutating func finish() -> [UInt8] {
    if isNarrow { records.append(UInt8(0)) }
    return records.bytes
  }
}
