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
/// 8   8   node bytes (length of the node area, at most 8 MiB)
/// 16  8   root address (in the node area)
/// 24  4   state count         28  4  transition count
/// 32  4   longest word, in labels
/// 36  4   sink address: the final state without transitions
/// 40  16  inline label table: labels that single-transition nodes name by a 4-bit index
/// 56  8   reserved (0)
/// 64  …   node area
/// ```
///
/// A node's *address* is its last byte, the header; its fields precede it. Targets are
/// absolute addresses, and every target is below the first byte of the node that points to
/// it, so every walk moves to strictly lower addresses and ends. The most referenced states
/// are written first, so their addresses are short.
///
/// A *target field* of w bytes holds a value v: if v is even, the target is the absolute
/// address v / 2; if v is odd, the target is (v − 1) / 2 + 1 bytes before the field's first
/// byte. The encoder picks the shorter.
///
/// Single-transition node (header bit 7 = 1), 1 to 4 bytes:
/// ```
/// [target field, mode bytes]  header: 1 | final | mode (2 bits) | inline label index (4 bits)
/// mode 0: the target is the node just before this one (no field)
/// ```
/// Its output is implied: 1 if the node is final, else 0.
///
/// Pair node (header bits 7, 4 = 0, 1): two transitions, output below 256:
/// ```
/// targets  [output (1 byte)]  label0 label1  header: 0 | final | last-is-next | 1 | code1 | code0
/// ```
/// The output byte is absent when code0 is 0 (the first transition goes to the sink: the
/// output is final + 1), or when last-is-next is set and code1, which is then unused, holds
/// the output (1…3).
///
/// General node (header bits 7, 4 = 0, 0), in address order:
/// ```
/// targets      target fields of 0–3 bytes as the width codes say, last transition first,
///              so transition i's field ends (widths of transitions 0…i) bytes before the codes
/// width codes  2 bits per transition, 4 per byte, low bits first: 0 = the sink (no bytes),
///              1…3 = a target field of that many bytes
/// outputs      n − 1 values (the first output is implied: 1 if final), of `output width`
///              bytes each, or two per byte (low nibble first) when the width code is 0
/// labels       n bytes, ascending; or, when the n byte's bit 7 is set, the first label and
///              then n − 1 nibbles (low first) each holding the difference to the previous − 1
/// [n]          when the header's n code is 0: one byte b. b < 128: n = b, plain labels;
///              b = 128: n (128…255) is in the byte before, plain labels; otherwise
///              n = b − 128 (4…12) with delta-coded labels
/// header       0 | final | last-is-next | 0 | output width (2 bits) | n code (2 bits)
/// ```
/// A *wide* node (n ≥ 33) replaces the targets and width codes above with, in address order:
/// a dense index of (last label + 1) bytes, where entry l is 1 + the index of the transition
/// labeled l, or 0; n fixed-width even (absolute) target fields in transition order; one
/// byte holding their width (1…3). A lookup in a wide node is two loads, whatever its fan-out.
///
/// n code 2 or 3 means n = that many transitions; 0 means n is in the byte before. n code 1
/// is a one-transition node: no codes, outputs or n byte, and its width code sits in the
/// output-width bits. With last-is-next set, the last transition targets the node just
/// before this one and has no field (its width code is 0 and ignored).
@_spi(SwipeDictInternals) public enum DAWGLayout {
  /// The size of the section header before the node area.
  @_spi(SwipeDictInternals) public static let headerSize = 64
  /// Offset of the inline label table in the header.
  @_spi(SwipeDictInternals) public static let inlineLabelsOffset = 40
  /// Entries in the inline label table.
  @_spi(SwipeDictInternals) public static let inlineLabelCount = 16

  /// Header bit: single-transition node.
  @_spi(SwipeDictInternals) public static let singleFlag: UInt8 = 0x80
  /// Header bit: the state is final.
  @_spi(SwipeDictInternals) public static let finalFlag: UInt8 = 0x40
  /// General-node header bit: the last transition targets the node just before.
  @_spi(SwipeDictInternals) public static let lastIsNextFlag: UInt8 = 0x20
  /// General-node header bit: a pair node, width codes in the header's low nibble.
  @_spi(SwipeDictInternals) public static let pairFlag: UInt8 = 0x10
  /// The largest node area (target fields of at most 3 bytes hold a 23-bit address).
  @_spi(SwipeDictInternals) public static let maxNodeBytes = 1 << 23

  /// The most transitions a node with delta-coded labels has (larger nodes keep plain,
  /// binary-searchable labels).
  @_spi(SwipeDictInternals) public static let maxDeltaLabels = 12

  /// Nodes with at least this many transitions are wide: a dense label index, fixed-width
  /// targets, no width codes.
  @_spi(SwipeDictInternals) public static let minWideCount = 33

  /// The bytes of `count` labels, plain or delta-coded.
  @inlinable
  @_spi(SwipeDictInternals) public static func labelBytes(count: Int, delta: Bool) -> Int {
    delta ? 1 + count / 2 : count
  }

  /// The bytes of `count − 1` outputs of `width` bytes each (0: half a byte each).
  @inlinable
  @_spi(SwipeDictInternals) public static func outputBytes(count: Int, width: Int) -> Int {
    guard count > 1 else { return 0 }
    return width == 0 ? count / 2 : (count - 1) * width
  }

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
@_spi(SwipeDictInternals) public enum FrequencyLayout {
  /// The size of the section header before the column.
  @_spi(SwipeDictInternals) public static let headerSize = 64

  /// Quantizes a count on the blob's log scale.
  /// - Parameters:
  ///   - count: the word's count (non-negative).
  ///   - scale: `ln(1 + maxCount)` of the blob.
  /// - Returns: 0 for a count of 0, else 1…255.
  package static func quantize(_ count: Double, scale: Double) -> UInt8 {
    guard count > 0, scale > 0 else { return 0 }
    let q = (255 * log1p(count) / scale).rounded()
    return UInt8(max(1, min(255, q)))
  }

  /// The count a quantized byte stands for (the center of its step).
  /// - Parameters:
  ///   - q: the quantized frequency.
  ///   - scale: `ln(1 + maxCount)` of the blob.
  package static func approximateCount(_ q: UInt8, scale: Double) -> Double {
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
