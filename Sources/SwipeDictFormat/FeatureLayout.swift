/// The `FEAT` section: the swipe features of every word, one 32-bit record per word ID, or
/// one 24-bit record on a layout of at most 31 keys (format 1.5).
///
/// The features are the per-word entry of the swipe thesis (start angle, expected length,
/// distance to the second letter, last-letter point) reduced to what cannot be recomputed
/// from the layout: the keys. The start angle and the distance to the second letter follow
/// exactly from the first two keys, and the last-letter point is the last key's center, so
/// they carry no quantization error; only the expected length is quantized.
///
/// ```
/// 0   8    word count
/// 8   4    key count of the layout (≤ 63), must equal the LYOT key count
/// 12  4    record size (1.5): 3 (narrow records) or 4; 0 (before 1.5) means 4
/// 16  48   reserved (0)
/// 64  4×n  records, little-endian UInt32, one per word ID:
///          bits 0…5    first key (index into the layout's keys)
///          bits 6…11   second key: the next distinct key; 63 when the key path has one key
///          bits 12…17  last key
///          bits 18…22  key count, saturating at 31
///          bits 23…31  expected length code (see `lengthCode(forKeyWidths:)`)
///     or, narrow, 3×n + 1 bytes: little-endian 24-bit records, then one zero byte:
///          bits 0…4    first key
///          bits 5…9    second key; 31 when the key path has one key
///          bits 10…14  last key
///          bits 15…23  expected length code
/// ```
///
/// The compiler writes narrow records whenever the layout has at most 31 keys, and sets the
/// blob header's ``BlobFormat/narrowFeaturesFlag`` exactly then. They leave out the key
/// count: a reader widens a narrow record to the 32-bit form with key count 1 when there is
/// no second key, 3 when the second key differs from the last (the path has at least
/// three keys), else 2 — a lower bound, which is all a decoder's bound needs
/// (``FeatureRecord/keyCount``). The zero byte after the last record lets every record be
/// read with one 4-byte load.
///
/// The records start 64 bytes into the section, so a scan reads 32-bit records with aligned
/// loads (narrow ones with one unaligned 4-byte load each).
/// Expected length is the sum of the center-to-center distances along the key path, in key
/// widths, coded in 9 bits: `code < 256` means `code / 8` (steps of 1/8 up to 31.875, error
/// ≤ 1/16), `code ≥ 256` means `32 + (code − 256) / 4` (steps of 1/4 up to 95.75, error ≤ 1/8);
/// longer paths are stored as 95.75.
@_spi(SwipeDictInternals) public enum FeatureLayout {
  /// The size of the section header before the records.
  @_spi(SwipeDictInternals) public static let headerSize = 64
  /// The size of one record.
  @_spi(SwipeDictInternals) public static let recordSize = 4
  /// The size of one narrow record (format 1.5).
  @_spi(SwipeDictInternals) public static let narrowRecordSize = 3
  /// The offset of the record size in the header.
  @_spi(SwipeDictInternals) public static let recordSizeOffset = 12
  /// The most keys a layout may have for narrow records: key indices are 5-bit and 31 means
  /// "none".
  @_spi(SwipeDictInternals) public static let maxNarrowKeys = 31
  /// The most keys a layout may have: key indices are 6-bit and 63 means "none".
  @_spi(SwipeDictInternals) public static let maxKeys = 63
  /// The second-key value of a word whose key path has one key.
  @_spi(SwipeDictInternals) public static let noKey = 63
  /// The largest key count a record holds; longer key paths store this.
  @_spi(SwipeDictInternals) public static let maxKeyCount = 31
  /// The largest expected length a record holds, in key widths.
  @_spi(SwipeDictInternals) public static let maxLength: Float = 95.75

  /// One word's record, unpacked.
  package typealias Record = FeatureRecord

  /// The narrow (24-bit) form of a packed 32-bit record whose keys are all below
  /// ``maxNarrowKeys``; the key count is left out.
  package static func narrowed(_ packed: UInt32) -> UInt32 {
    let second = (packed >> 6) & 63
    return (packed & 31) | (second == UInt32(noKey) ? 31 : second) << 5 | ((packed >> 12) & 31) << 10
      | (packed >> 23) << 15
  }

  /// The 32-bit form of a narrow record (its low 24 bits; the rest is ignored), with the key
  /// count's lower bound: 1 without a second key, 3 when the second key is not the last
  /// (the path has at least three keys), else 2.
  @inline(__always)
  package static func widened(_ narrow: UInt32) -> UInt32 {
    let first = narrow & 31
    let second = (narrow >> 5) & 31
    let last = (narrow >> 10) & 31
    let length = (narrow >> 15) & 511
    let none = second == 31
    let count: UInt32 = none ? 1 : second == last ? 2 : 3
    return first | (none ? UInt32(noKey) : second) << 6 | last << 12 | count << 18 | length << 23
  }

  /// The 9-bit code of an expected length in key widths (rounded to the nearest step).
  package static func lengthCode(forKeyWidths length: Float) -> Int {
    guard length.isFinite, length > 0 else { return 0 }
    let fine = (length * 8).rounded()
    if fine < 256 { return Int(fine) }
    return min(511, 256 + Int(((length - 32) * 4).rounded()))
  }

  /// The expected length, in key widths, that a code stands for.
  package static func keyWidths(forLengthCode code: Int) -> Float {
    code < 256 ? Float(code) / 8 : 32 + Float(code - 256) / 4
  }

  /// The largest error of a stored length of `length` key widths: half a step, or the
  /// clamping beyond ``maxLength``.
  package static func quantizationBound(forKeyWidths length: Float) -> Float {
    length < 31.9375 ? 1 / 16 : length <= maxLength ? 1 / 8 : length - maxLength
  }
}

/// One word's record, unpacked.
///
/// What ``SwipeDictionary/featureRecord(of:)`` returns: the stored fields, from which the
/// start angle, the distance to the second letter and the last-letter point follow exactly
/// by the layout's key centers.
public struct FeatureRecord: Sendable, Hashable {
  /// The first key of the key path.
  public package(set) var firstKey: Int
  /// The second distinct key, or `nil` when the key path has one key.
  public package(set) var secondKey: Int?
  /// The last key of the key path.
  public package(set) var lastKey: Int
  /// The number of keys in the key path, saturating at 31. From a blob with narrow records
  /// (format 1.5, a layout of at most 31 keys), which do not store it, a lower bound: 1
  /// exactly when there is one key, 3 when the second key is not the last (so there are at
  /// least three), else 2 (two or more). ``SwipeDictionary/features(of:)-(Int)`` counts
  /// the keys exactly.
  public package(set) var keyCount: Int
  /// The expected length code.
  public package(set) var lengthCode: Int

  /// Creates a record.
  package init(firstKey: Int, secondKey: Int?, lastKey: Int, keyCount: Int, lengthCode: Int) {
    self.firstKey = firstKey
    self.secondKey = secondKey
    self.lastKey = lastKey
    self.keyCount = keyCount
    self.lengthCode = lengthCode
  }

  /// The record of a key path on a layout whose key centers are given.
  /// - Parameters:
  ///   - path: key indices (non-empty, no key repeated consecutively, all < 63).
  ///   - centers: each key's center.
  ///   - keyWidth: the layout's key width.
  package init(path: [Int], centers: [(x: Float, y: Float)], keyWidth: Float) {
    precondition(!path.isEmpty, "a key path has at least one key")
    var length: Float = 0
    for (a, b) in zip(path, path.dropFirst()) {
      let dx = centers[b].x - centers[a].x
      let dy = centers[b].y - centers[a].y
      length += (dx * dx + dy * dy).squareRoot()
    }
    self.init(
      firstKey: path[0], secondKey: path.count > 1 ? path[1] : nil, lastKey: path[path.count - 1],
      keyCount: min(path.count, FeatureLayout.maxKeyCount),
      lengthCode: FeatureLayout.lengthCode(forKeyWidths: length / keyWidth))
  }

  /// The packed 32-bit form.
  package var packed: UInt32 {
    UInt32(firstKey) | UInt32(secondKey ?? FeatureLayout.noKey) << 6 | UInt32(lastKey) << 12
      | UInt32(keyCount) << 18 | UInt32(lengthCode) << 23
  }

  /// Unpacks a record.
  package init(packed: UInt32) {
    let second = Int((packed >> 6) & 63)
    self.init(
      firstKey: Int(packed & 63), secondKey: second == FeatureLayout.noKey ? nil : second,
      lastKey: Int((packed >> 12) & 63), keyCount: Int((packed >> 18) & 31),
      lengthCode: Int(packed >> 23))
  }

  /// The expected length in key widths (the center of the code's step).
  public var lengthInKeyWidths: Float { FeatureLayout.keyWidths(forLengthCode: lengthCode) }
}
