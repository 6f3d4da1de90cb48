/// The `PTRE` section: the Kännsch 27-ary prefix tree over the words, and the top list.
///
/// Every word goes down the tree by the folded classes of its first letters: `a`…`z` are
/// children 0…25 (after folding case and accents, so `Ä` goes with `a`); in a blob with the
/// header flag ``BlobFormat/scriptTreeFlag`` every other character from U+0080 up is child
/// `code point mod 26` too (Cyrillic, Greek: 33 or 24 letters over the 26 children, a few
/// sharing one); otherwise, and in every blob before format 1.2, those go to child 26.
/// Child 26 ("other") takes ASCII characters outside `a`…`z` and the end of the word. The root splits; a node splits
/// when it holds more than ``splitThreshold`` words and is above ``maxDepth``; otherwise it
/// is a leaf. A leaf ranks its first words by frequency (the FREQ byte, descending; ties by
/// ascending ID): all of them in a blob before format 1.5, the ``rankedPerLeaf`` most
/// frequent from 1.5 (the header's ranked count; 0 means all). A reader orders the rest from
/// FREQ when it needs them. The top list holds the most frequent words of the whole dictionary in
/// the same order, with their spellings, so correction can read them without the automaton.
///
/// A label's class is computed from the alphabet (`folds`), so the section stores none.
///
/// ```
/// 0   8    word count
/// 8   4    interior node count N
/// 12  4    leaf count L
/// 16  4    top count T
/// 20  4    root reference
/// 24  4    leaf data size D
/// 28  4    top spelling size S
/// 32  4    split threshold (200)
/// 36  4    maximum depth (3)
/// 40  4    ranked count K (1.5): a leaf ranks its min(n, K) most frequent words; 0: all.
///          Not 0 exactly when the blob header has ``BlobFormat/rankedLeavesFlag``
/// 44  20   reserved (0)
/// 64  …    N × 27 child references, UInt32: 0 = no words; bit 31 set = leaf (low bits: its
///          index); otherwise an interior node index, always greater than its parent's
///     …    L + 1 leaf offsets, UInt32, into the leaf data (the last one is D)
///     …    T top IDs, UInt32, most frequent first
///     …    D bytes of leaf data; one leaf is
///            varint n (words), varint R (runs of consecutive IDs),
///            R × (varint gap from the previous run's end, varint run length),
///            min(n, K) local indices (1 byte if n ≤ 256, 2 if n ≤ 65,536, else 3;
///            little-endian): positions in the concatenated runs, most frequent word first
///     …    S bytes of top spellings: per top word, varint m and its m labels
/// ```
///
/// Varints are unsigned LEB128. Leaves are ID runs because IDs are ranks in the folding
/// collation: the words below a tree path are a few runs (one per case or accent variant
/// of the prefix), so a leaf costs its local indices and a few bytes more. Ranking only the
/// first K words (format 1.5) keeps what completion reads first and drops most of the
/// indices: on en they were 431 kB of the section's 532 kB.
@_spi(SwipeDictInternals) public enum PrefixTreeLayout {
  /// The size of the section header.
  @_spi(SwipeDictInternals) public static let headerSize = 64
  /// Children per node: `a`…`z` and "other".
  @_spi(SwipeDictInternals) public static let fanout = 27
  /// The child taking non-letters and the end of the word.
  @_spi(SwipeDictInternals) public static let otherClass = 26
  /// A node with more words than this splits (Kännsch: 200).
  @_spi(SwipeDictInternals) public static let splitThreshold = 200
  /// Nodes at this depth are always leaves (Kännsch: 3).
  @_spi(SwipeDictInternals) public static let maxDepth = 3
  /// The length of the top list (Kännsch: 1000).
  @_spi(SwipeDictInternals) public static let topCount = 1000
  /// How many of its most frequent words a leaf ranks (format 1.5): the 10 suggestions a
  /// keyboard shows and room for words that must not be suggested, as ``BestListLayout``'s
  /// list length.
  @_spi(SwipeDictInternals) public static let rankedPerLeaf = 16
  /// The offset of the ranked count K in the header (0: every word ranked).
  @_spi(SwipeDictInternals) public static let rankedCountOffset = 40
  /// The flag of a child reference naming a leaf.
  @_spi(SwipeDictInternals) public static let leafFlag: UInt32 = 1 << 31

  /// How folded characters map to tree classes: the blob header's
  /// ``BlobFormat/scriptTreeFlag`` says which.
  package enum ClassRule: Sendable, Hashable {
    /// `a`…`z` → 0…25, anything else → 26 (every blob without the flag).
    case latin
    /// `a`…`z` → 0…25, any character from U+0080 up → its code point mod 26, the rest → 26.
    /// A tree over Cyrillic or Greek words splits like one over Latin words. Only code
    /// points decide, no Unicode property: the same on every platform and Unicode version.
    case allScripts

    /// The rule of a blob whose header has `flags`.
    package init(headerFlags flags: UInt32) {
      self = flags & BlobFormat.scriptTreeFlag != 0 ? .allScripts : .latin
    }
  }

  /// The tree class of a folded character.
  package static func treeClass(ofFolded fold: Unicode.Scalar, rule: ClassRule) -> Int {
    let v = fold.value
    if v >= 0x61 && v <= 0x7A { return Int(v - 0x61) }
    guard rule == .allScripts, v >= 0x80 else { return otherClass }
    return Int(v % 26)
  }

  /// The tree class of every label of an alphabet.
  package static func labelClasses(_ alphabet: Alphabet, rule: ClassRule) -> [UInt8] {
    alphabet.folds.map { UInt8(treeClass(ofFolded: $0, rule: rule)) }
  }

  /// How many local indices a leaf of `n` words stores under ranked count `k` (0: all).
  package static func rankedCount(leafSize n: Int, ranked k: Int) -> Int {
    k == 0 ? n : min(n, k)
  }

  /// The byte width of a leaf's local indices.
  package static func indexWidth(forLeafSize n: Int) -> Int {
    n <= 256 ? 1 : n <= 65_536 ? 2 : 3
  }
}
