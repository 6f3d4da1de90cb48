/// The `DAWG` section: the minimal acyclic automaton of the words, with outputs on its
/// transitions so that word → ID and ID → word are perfect hashes (Lucchesi & Kowaltowski).
///
/// Word IDs are ranks in label order (see `Alphabet`). Each transition *t* leaving a state
/// *s* carries an output: 1 if *s* is final, plus the number of words reachable through
/// the transitions of *s* before *t*. The ID of a word is the sum of the outputs on its
/// path; walking from the root with the remaining ID picks, at each state, the last
/// transition whose output does not exceed it.
///
/// Section layout, little-endian:
/// ```
/// 0   8   word count
/// 8   8   node bytes (length of the node area)
/// 16  8   root address (in the node area)
/// 24  4   state count         28  4  transition count
/// 32  4   longest word, in labels
/// 36  4   reserved (0)
/// 40  16  inline label table: labels that single-transition nodes name by a 4-bit index
/// 56  8   reserved (0)
/// 64  …   node area
/// ```
///
/// Nodes are written children first; a node's *address* is its last byte, the header, and
/// its fields precede it. Every transition points to a strictly lower address (so no walk
/// can loop): target = start − delta, where start is the node's first byte and delta ≥ 1.
///
/// Single-transition node (header bit 7 = 1), 1 to 4 bytes:
/// ```
/// header: 1 | final | mode (2 bits) | inline label index (4 bits)
/// mode 0: no delta, the target is the node just before (delta = 1)
/// mode 1…3: a delta of that many bytes precedes the header
/// ```
/// Its output is implied: 1 if the node is final, else 0.
///
/// General node (header bit 7 = 0):
/// ```
/// header: 0 | final | delta width − 1 (2 bits) | output width − 1 (2 bits) | n code (2 bits)
/// n code 1…3: n = that many transitions; n code 0: n is in the byte before the header (0…255)
/// fields, in address order: labels[n] (ascending), deltas[n] (delta width bytes each),
///   outputs[n − 1] (output width bytes each; the first output is implied: 1 if final)
///   [n byte]  header
/// ```
public enum DAWGLayout {
  /// The size of the section header before the node area.
  public static let headerSize = 64
  /// Offset of the inline label table in the header.
  public static let inlineLabelsOffset = 40
  /// Entries in the inline label table.
  public static let inlineLabelCount = 16

  /// Header bit: single-transition node.
  public static let singleFlag: UInt8 = 0x80
  /// Header bit: the state is final.
  public static let finalFlag: UInt8 = 0x40
}

/// The `FREQ` section: one byte per word ID, the word's count on a log scale.
///
/// `q = round(255 × ln(1 + count) / ln(1 + maxCount))`, at least 1 for any positive count,
/// and 0 for a count of 0. The most frequent word gets 255; each step is a factor of
/// `(1 + maxCount)^(1/255)` (for maxCount = 10⁹, about 8.5 % per step).
///
/// ```
/// 0   8   word count
/// 8   8   ln(1 + maxCount) as a Float64 (the scale, to turn q back into a count)
/// 16  48  reserved (0)
/// 64  …   word count bytes
/// ```
public enum FrequencyLayout {
  /// The size of the section header before the column.
  public static let headerSize = 64

  /// Quantizes a count on the blob's log scale.
  /// - Parameters:
  ///   - count: the word's count (non-negative).
  ///   - scale: `ln(1 + maxCount)` of the blob.
  /// - Returns: 0 for a count of 0, else 1…255.
  public static func quantize(_ count: Double, scale: Double) -> UInt8 {
    guard count > 0, scale > 0 else { return 0 }
    let q = (255 * log1p(count) / scale).rounded()
    return UInt8(max(1, min(255, q)))
  }

  /// The count a quantized byte stands for (the centre of its step).
  /// - Parameters:
  ///   - q: the quantized frequency.
  ///   - scale: `ln(1 + maxCount)` of the blob.
  public static func approximateCount(_ q: UInt8, scale: Double) -> Double {
    q == 0 ? 0 : expm1(Double(q) * scale / 255)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
