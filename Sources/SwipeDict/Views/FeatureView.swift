@_spi(SwipeDictInternals) import SwipeDictFormat

/// The `FEAT` records, read in place (format in `FeatureLayout`).
struct FeatureView: Sendable {
  /// The records: `4 × wordCount` bytes.
  let records: UnsafeByteView
  /// The number of keys the records index (equal to the layout's).
  let keyCount: Int

  /// Validates the section header against the word and key counts (O(1)).
  /// The header is read from `head`, the section's first bytes (`BlobContainer.head(of:in:)`):
  /// in a blob of format 1.4 the table's copy, so this touches none of the section's pages.
  init(section: UnsafeByteView, head: UnsafeByteView, fileOffset: Int, wordCount: Int, layoutKeys: Int) throws(FormatError) {
    func fail(_ detail: String, _ at: Int) -> FormatError {
      FormatError(.malformed(detail), section: .features, offset: fileOffset + at)
    }
    guard section.count >= FeatureLayout.headerSize else {
      throw fail("section is \(section.count) bytes, shorter than its header", 0)
    }
    // safe: the section, so its head, holds the header, checked above.
    let words = head.uint64(at: 0)!
    let keys = head.uint32(at: 8)!
    guard words == UInt64(wordCount),
      section.count == FeatureLayout.headerSize + FeatureLayout.recordSize * wordCount
    else { throw fail("\(words) records in \(section.count) bytes for \(wordCount) words", 0) }
    guard keys == UInt32(layoutKeys), keys <= UInt32(FeatureLayout.maxKeys) else {
      throw fail("records index \(keys) keys, the layout has \(layoutKeys)", 8)
    }
    self.records = section.slice(offset: FeatureLayout.headerSize, length: section.count - FeatureLayout.headerSize)!
    self.keyCount = Int(keys)
    self.count = wordCount
  }

  /// The number of records (the dictionary's word count).
  let count: Int

  /// The packed record of `id`, or `nil` outside `0..<wordCount`.
  @inline(__always)
  func packed(_ id: Int) -> UInt32? {
    // The range check first: `id * 4` must not wrap for an ID near `Int.max`.
    guard id >= 0, id < count else { return nil }
    // safe: 0 <= id < count, so 4 × id + 4 <= records.count.
    return records.uncheckedUInt32(at: id &* FeatureLayout.recordSize)
  }

  /// The record of `id` if every key it names is on the layout.
  func record(_ id: Int) -> FeatureLayout.Record? {
    guard let packed = packed(id) else { return nil }
    let record = FeatureLayout.Record(packed: packed)
    guard record.firstKey < keyCount, record.lastKey < keyCount, record.keyCount >= 1,
      (record.secondKey ?? 0) < keyCount, (record.secondKey == nil) == (record.keyCount == 1)
    else { return nil }
    return record
  }
}
