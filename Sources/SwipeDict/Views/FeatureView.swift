@_spi(SwipeDictInternals) import SwipeDictFormat

/// The `FEAT` records, read in place (format in `FeatureLayout`): 4 bytes each, or 3 on a
/// layout of at most 31 keys (format 1.5), which reads widen to the 32-bit form.
struct FeatureView: Sendable {
  /// The records: `recordSize × wordCount` bytes (narrow: and the zero byte after them).
  let records: UnsafeByteView
  /// The number of keys the records index (equal to the layout's).
  let keyCount: Int
  /// Bytes per record: `FeatureLayout.recordSize`, or `narrowRecordSize`.
  let recordSize: Int
  /// Whether the records are narrow: 24 bits, without the key count.
  var isNarrow: Bool { recordSize == FeatureLayout.narrowRecordSize }

  /// Validates the section header against the word and key counts (O(1)).
  /// The header is read from `head`, the section's first bytes (`BlobContainer.head(of:in:)`):
  /// in a blob of format 1.4 the table's copy, so this touches none of the section's pages.
  /// - Parameter narrowRecords: whether the blob header has `BlobFormat.narrowFeaturesFlag`,
  ///   which must agree with the header's record size.
  init(
    section: UnsafeByteView, head: UnsafeByteView, fileOffset: Int, wordCount: Int, layoutKeys: Int,
    narrowRecords: Bool
  ) throws(FormatError) {
    let fail = try SectionHeaderCheck(
      .features, section: section, headerSize: FeatureLayout.headerSize, fileOffset: fileOffset
    ).fail
    // safe: the section, so its head, holds the header, checked above.
    let words = head.uint64(at: 0)!
    let keys = head.uint32(at: 8)!
    let size = head.uint32(at: FeatureLayout.recordSizeOffset)!
    let recordSize: Int
    switch (size, narrowRecords) {
    case (0, false), (UInt32(FeatureLayout.recordSize), false): recordSize = FeatureLayout.recordSize
    case (UInt32(FeatureLayout.narrowRecordSize), true): recordSize = FeatureLayout.narrowRecordSize
    case (_, true):
      throw fail(
        "the blob header says the records are narrow, but they are \(size) bytes", FeatureLayout.recordSizeOffset)
    case (_, false):
      throw fail(
        "records of \(size) bytes without the blob header's narrow-features flag", FeatureLayout.recordSizeOffset)
    }
    // Narrow records end with one zero byte, so that each reads with one 4-byte load.
    let end = recordSize == FeatureLayout.narrowRecordSize ? 1 : 0
    guard words == UInt64(wordCount),
      // safe: wordCount is the automaton's, at most 256 per node byte of at most 8 MiB.
      section.count == FeatureLayout.headerSize + recordSize * wordCount + end
    else { throw fail("\(words) records in \(section.count) bytes for \(wordCount) words", 0) }
    let keyLimit = recordSize == FeatureLayout.narrowRecordSize ? FeatureLayout.maxNarrowKeys : FeatureLayout.maxKeys
    guard keys == UInt32(layoutKeys), keys <= UInt32(keyLimit) else {
      throw fail("records index \(keys) keys, the layout has \(layoutKeys)", 8)
    }
    self.records = section.slice(offset: FeatureLayout.headerSize, length: section.count - FeatureLayout.headerSize)!
    self.keyCount = Int(keys)
    self.count = wordCount
    self.recordSize = recordSize
  }

  /// The number of records (the dictionary's word count).
  let count: Int

  /// The packed 32-bit record of `id`, or `nil` outside `0..<wordCount`; a narrow one is
  /// widened (`FeatureLayout.widened`).
  @inline(__always)
  func packed(_ id: Int) -> UInt32? {
    // The range check first: `id * recordSize` must not wrap for an ID near `Int.max`.
    guard id >= 0, id < count else { return nil }
    let stored = uncheckedStored(id)
    return isNarrow ? FeatureLayout.widened(stored) : stored
  }

  /// The record of `id` as stored, which must be in `0..<count`: for narrow records, the
  /// 24-bit record in the low bits and the next record's first byte above them.
  @inline(__always)
  func uncheckedStored(_ id: Int) -> UInt32 {
    // safe: 0 <= id < count, so recordSize × id + 4 <= records.count (narrow records are
    // followed by one byte).
    records.uncheckedUInt32(at: id &* recordSize)
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
