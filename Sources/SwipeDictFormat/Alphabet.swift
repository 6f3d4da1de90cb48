/// The per-blob alphabet: every character that occurs in the words, as a compact label.
///
/// Labels are numbered in a folding collation: characters are ordered first by their
/// folded form (lowercase, accents removed), then plain before accented, then lowercase
/// before uppercase, then by code point. So `a < A < ä < Ä < b …`, and the labels of one
/// folding class (`a A á ä Ä …`) are one contiguous run. Because word IDs are ranks in label
/// order, all words with the same folded first letter form one contiguous ID range.
///
/// `ALPH` encoding, little-endian:
/// ```
/// 0      4    label count n (1…255)
/// 4      4    reserved (0)
/// 8      8×n  per label: character scalar u32, folded scalar u32
/// 8+8n   n    the labels in code-point order of their characters (for binary search)
/// ```
/// Opening checks n ≤ 255, the length (exactly 8 + 9n), that every scalar is valid and that
/// the code-point order names labels in range; `validate()` (run by `verify`) checks that
/// it is a strictly increasing permutation (so characters are distinct) and that each folded
/// scalar occupies one contiguous run of labels.
@_spi(SwipeDictInternals) public struct Alphabet: Sendable, Hashable {
  /// The character of each label.
  @_spi(SwipeDictInternals) public let scalars: [Unicode.Scalar]
  /// The folded form of each label's character (its class).
  package let folds: [Unicode.Scalar]
  /// The largest number of labels an alphabet may have: labels are bytes.
  package static let maxCount = 255

  /// 128 entries: the label of each ASCII byte + 1, or 0 when no word uses it.
  @usableFromInline let ascii: [UInt8]
  /// The labels in code-point order of their characters.
  @usableFromInline let byCodePoint: [UInt8]

  /// Creates an alphabet from labels already in collation order.
  /// - Precondition: at most 255 distinct scalars; `folds` has the same count.
  package init(scalars: [Unicode.Scalar], folds: [Unicode.Scalar]) {
    precondition(scalars.count == folds.count && scalars.count <= Self.maxCount)
    let order = scalars.indices.sorted { scalars[$0].value < scalars[$1].value }
    self.init(scalars: scalars, folds: folds, byCodePoint: order.map { UInt8($0) })
  }

  private init(scalars: [Unicode.Scalar], folds: [Unicode.Scalar], byCodePoint: [UInt8]) {
    self.scalars = scalars
    self.folds = folds
    self.byCodePoint = byCodePoint
    var ascii = [UInt8](repeating: 0, count: 128)
    for (label, s) in scalars.enumerated() where s.isASCII { ascii[Int(s.value)] = UInt8(label + 1) }
    self.ascii = ascii
  }

  /// The number of labels.
  package var count: Int { scalars.count }

  /// The label of `scalar`, or `nil` if no word uses it.
  @inlinable @inline(__always)
  @_spi(SwipeDictInternals) public func label(for scalar: Unicode.Scalar) -> UInt8? {
    if scalar.value < 128 {
      let l = ascii[Int(scalar.value)]
      return l == 0 ? nil : l &- 1
    }
    // Binary search over the labels in code-point order.
    var lo = 0
    var hi = byCodePoint.count
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      if scalars[Int(byCodePoint[mid])].value < scalar.value { lo = mid &+ 1 } else { hi = mid }
    }
    guard lo < byCodePoint.count, scalars[Int(byCodePoint[lo])] == scalar else { return nil }
    return byCodePoint[lo]
  }

  /// The label of an ASCII byte plus one, or 0 when no word uses it.
  /// - Precondition: `byte < 128`.
  @inlinable @inline(__always)
  @_spi(SwipeDictInternals) public func asciiLabelPlusOne(_ byte: UInt8) -> UInt8 {
    ascii[Int(byte)]
  }

  /// The labels that fold like `scalar`: its own class if it is in the alphabet, else the
  /// class of its lowercase form, else the class whose folded form is `scalar` itself
  /// (so `u` finds `ü` even when no word has a plain `u`). Empty when nothing matches.
  package func foldingLabels(for scalar: Unicode.Scalar) -> Range<Int> {
    let fold: Unicode.Scalar
    if let l = label(for: scalar) {
      fold = folds[Int(l)]
    } else if let l = label(for: KeyboardLayout.lowercase(scalar)) {
      fold = folds[Int(l)]
    } else {
      fold = KeyboardLayout.lowercase(scalar)
    }
    guard let start = folds.firstIndex(of: fold) else { return 0..<0 }
    var end = start + 1
    while end < folds.count, folds[end] == fold { end += 1 }
    return start..<end
  }

  /// The `ALPH` encoding.
  package func encoded() -> [UInt8] {
    var out = ByteWriter()
    out.append(UInt32(count))
    out.append(UInt32(0))
    for (s, f) in zip(scalars, folds) {
      out.append(s.value)
      out.append(f.value)
    }
    out.append(contentsOf: byCodePoint)
    return out.bytes
  }

  /// Decodes an `ALPH` section, checking what a lookup relies on (counts, lengths, valid
  /// characters, labels in range). The rest is `validate()`.
  /// - Parameters:
  ///   - view: the section's bytes.
  ///   - fileOffset: where the section starts in the file, for error messages.
  /// - Throws: `FormatError` naming the broken rule.
  package init(decoding view: UnsafeByteView, fileOffset: Int = 0) throws(FormatError) {
    func fail(_ detail: String, _ at: Int) -> FormatError {
      FormatError(.malformed(detail), section: .alphabet, offset: fileOffset + at)
    }
    guard let n = view.uint32(at: 0) else { throw fail("alphabet header is truncated", 0) }
    guard n >= 1, n <= UInt32(Self.maxCount) else { throw fail("\(n) labels (1…255 allowed)", 0) }
    let count = Int(n)
    guard view.count == 8 + 9 * count else {
      throw fail("\(n) labels need \(8 + 9 * count) bytes, section has \(view.count)", 0)
    }
    var scalars: [Unicode.Scalar] = []
    var folds: [Unicode.Scalar] = []
    scalars.reserveCapacity(count)
    folds.reserveCapacity(count)
    for i in 0..<count {
      let at = 8 + 8 * i
      // safe: the length was checked above.
      guard let s = Unicode.Scalar(view.uint32(at: at)!), let f = Unicode.Scalar(view.uint32(at: at + 4)!)
      else { throw fail("label \(i) is not a valid character", at) }
      scalars.append(s)
      folds.append(f)
    }
    var byCodePoint: [UInt8] = []
    byCodePoint.reserveCapacity(count)
    for i in 0..<count {
      let label = view.byte(at: 8 + 8 * count + i)!
      guard Int(label) < count else { throw fail("code-point order names label \(label)", 8 + 8 * count + i) }
      byCodePoint.append(label)
    }
    self.init(scalars: scalars, folds: folds, byCodePoint: byCodePoint)
  }

  /// Checks the rules opening does not: the code-point order strictly increases (so every
  /// character is distinct and every label appears once), and each folding class is one
  /// contiguous run of labels.
  /// - Parameter fileOffset: where the section starts in the file, for error messages.
  package func validate(fileOffset: Int = 0) throws(FormatError) {
    func fail(_ detail: String, _ at: Int) -> FormatError {
      FormatError(.malformed(detail), section: .alphabet, offset: fileOffset + at)
    }
    for i in 1..<max(1, count) where scalars[Int(byCodePoint[i - 1])].value >= scalars[Int(byCodePoint[i])].value {
      throw fail("code-point order is not strictly increasing", 8 + 8 * count + i)
    }
    var closed: Set<Unicode.Scalar> = []
    for i in 1..<max(1, count) where folds[i] != folds[i - 1] {
      closed.insert(folds[i - 1])
      guard !closed.contains(folds[i]) else {
        throw fail("label \(i): folding class is not contiguous", 8 + 8 * i + 4)
      }
    }
  }
}

/// Unicode normalization shared by the compiler and the loader, so both agree on spelling.
package enum Normalization {
  /// `text` in Normalization Form C (composed: `u` + `◌̈` → `ü`). ASCII is returned as is.
  package static func nfc(_ text: String) -> String {
    // Text of scalars below U+0300 (the first combining mark) is in NFC already: every
    // character there is its own composition (NFC_Quick_Check = Yes). In UTF-8 those are
    // exactly the texts without a byte from 0xCC up.
    var composed = true
    for byte in text.utf8 where byte >= 0xCC {
      composed = false
      break
    }
    if composed { return text }
    return String(decoding: text._nfcCodeUnits, as: UTF8.self)
  }
}
