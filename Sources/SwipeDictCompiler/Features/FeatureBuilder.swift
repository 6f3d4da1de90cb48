@_spi(SwipeDictInternals) import SwipeDictFormat

/// Computes the `FEAT` section: each word's key path on the layout, packed into a
/// `FeatureLayout.Record` per word ID.
struct FeatureBuilder {
  private let layout: KeyboardLayout
  private let centers: [(x: Float, y: Float)]
  /// How each ASCII character types; other characters are classified once and cached.
  private var asciiTyping: [KeyboardLayout.Typing]
  private var typing: [Unicode.Scalar: KeyboardLayout.Typing] = [:]
  private var records = ByteWriter()
  private var path: [Int] = []

  /// - Precondition: the layout has at most `FeatureLayout.maxKeys` keys.
  init(layout: KeyboardLayout, wordCount: Int) {
    precondition(layout.keys.count <= FeatureLayout.maxKeys)
    self.layout = layout
    self.centers = layout.keys.map { ($0.x, $0.y) }
    self.asciiTyping = (0..<128).map { layout.classify(Unicode.Scalar(UInt8($0))) }
    records.append(UInt64(wordCount))
    records.append(UInt32(layout.keys.count))
    records.pad(toMultipleOf: FeatureLayout.headerSize)
  }

  /// How `scalar` types on the layout (cached).
  mutating func typing(of scalar: Unicode.Scalar) -> KeyboardLayout.Typing {
    if scalar.value < 128 { return asciiTyping[Int(scalar.value)] }
    if let known = typing[scalar] { return known }
    let t = layout.classify(scalar)
    typing[scalar] = t
    return t
  }

  /// Appends the record of the next word (in ID order).
  /// - Precondition: the word has a non-empty key path (the compiler dropped the others).
  mutating func append(_ word: String) {
    path.removeAll(keepingCapacity: true)
    for scalar in word.unicodeScalars {
      if case .key(let index) = typing(of: scalar), path.last != index { path.append(index) }
    }
    records.append(
      FeatureLayout.Record(path: path, centers: centers, keyWidth: layout.keyWidth).packed)
  }

  /// The finished section.
  var section: [UInt8] { records.bytes }
}
