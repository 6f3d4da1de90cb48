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
/// 0  4  label count n (1…255)
/// 4  4  reserved (0)
/// 8  8×n  per label: character scalar u32, folded scalar u32
/// ```
/// Rules a reader checks: n ≤ 255, the length is exactly 8 + 8n, every scalar is valid,
/// characters are distinct, and each folded scalar occupies one contiguous run of labels.
public struct Alphabet: Sendable, Hashable {
  /// The character of each label.
  public let scalars: [Unicode.Scalar]
  /// The folded form of each label's character (its class).
  public let folds: [Unicode.Scalar]
  /// The largest number of labels an alphabet may have: labels are bytes.
  public static let maxCount = 255

  /// 128 entries: the label of each ASCII byte + 1, or 0 when no word uses it.
  @usableFromInline let ascii: [UInt8]
  @usableFromInline let others: [Unicode.Scalar: UInt8]

  /// Creates an alphabet from labels already in collation order.
  /// - Precondition: at most 255 distinct scalars; `folds` has the same count.
  public init(scalars: [Unicode.Scalar], folds: [Unicode.Scalar]) {
    precondition(scalars.count == folds.count && scalars.count <= Self.maxCount)
    self.scalars = scalars
    self.folds = folds
    var ascii = [UInt8](repeating: 0, count: 128)
    var others: [Unicode.Scalar: UInt8] = [:]
    for (label, s) in scalars.enumerated() {
      if s.isASCII { ascii[Int(s.value)] = UInt8(label + 1) } else { others[s] = UInt8(label) }
    }
    self.ascii = ascii
    self.others = others
  }

  /// The number of labels.
  public var count: Int { scalars.count }

  /// The label of `scalar`, or `nil` if no word uses it.
  @inlinable @inline(__always)
  public func label(for scalar: Unicode.Scalar) -> UInt8? {
    if scalar.value < 128 {
      let l = ascii[Int(scalar.value)]
      return l == 0 ? nil : l &- 1
    }
    return others[scalar]
  }

  /// The label of an ASCII byte plus one, or 0 when no word uses it.
  /// - Precondition: `byte < 128`.
  @inlinable @inline(__always)
  public func asciiLabelPlusOne(_ byte: UInt8) -> UInt8 {
    ascii[Int(byte)]
  }

  /// The labels that fold like `scalar`: its own class if it is in the alphabet, else the
  /// class of its lowercase form, else the class whose folded form is `scalar` itself
  /// (so `u` finds `ü` even when no word has a plain `u`). Empty when nothing matches.
  public func foldingLabels(for scalar: Unicode.Scalar) -> Range<Int> {
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
  public func encoded() -> [UInt8] {
    var out = ByteWriter()
    out.append(UInt32(count))
    out.append(UInt32(0))
    for (s, f) in zip(scalars, folds) {
      out.append(s.value)
      out.append(f.value)
    }
    return out.bytes
  }

  /// Decodes and validates an `ALPH` section.
  /// - Parameters:
  ///   - view: the section's bytes.
  ///   - fileOffset: where the section starts in the file, for error messages.
  /// - Throws: `FormatError` naming the broken rule.
  public init(decoding view: UnsafeByteView, fileOffset: Int = 0) throws(FormatError) {
    func fail(_ detail: String, _ at: Int) -> FormatError {
      FormatError(.malformed(detail), section: .alphabet, offset: fileOffset + at)
    }
    guard let n = view.uint32(at: 0) else { throw fail("alphabet header is truncated", 0) }
    guard n >= 1, n <= UInt32(Self.maxCount) else { throw fail("\(n) labels (1…255 allowed)", 0) }
    guard view.count == 8 + 8 * Int(n) else {
      throw fail("\(n) labels need \(8 + 8 * Int(n)) bytes, section has \(view.count)", 0)
    }
    var scalars: [Unicode.Scalar] = []
    var folds: [Unicode.Scalar] = []
    var seen: Set<Unicode.Scalar> = []
    var closedFolds: Set<Unicode.Scalar> = []
    for i in 0..<Int(n) {
      let at = 8 + 8 * i
      guard let s = Unicode.Scalar(view.uint32(at: at)!), let f = Unicode.Scalar(view.uint32(at: at + 4)!)
      else { throw fail("label \(i) is not a valid character", at) }
      guard seen.insert(s).inserted else { throw fail("label \(i) repeats a character", at) }
      if let previous = folds.last, previous != f {
        closedFolds.insert(previous)
        guard !closedFolds.contains(f) else {
          throw fail("label \(i): folding class is not contiguous", at + 4)
        }
      }
      scalars.append(s)
      folds.append(f)
    }
    self.init(scalars: scalars, folds: folds)
  }
}

/// Unicode normalization shared by the compiler and the loader, so both agree on spelling.
public enum Normalization {
  /// `text` in Normalization Form C (composed: `u` + `◌̈` → `ü`). ASCII is returned as is.
  public static func nfc(_ text: String) -> String {
    var ascii = true
    for byte in text.utf8 where byte >= 0x80 {
      ascii = false
      break
    }
    if ascii { return text }
    return String(decoding: text._nfcCodeUnits, as: UTF8.self)
  }
}
