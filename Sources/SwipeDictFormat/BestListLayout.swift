/// The `BEST` section (format 1.3): the most frequent words below each interior node of the
/// prefix tree (`PrefixTreeLayout`), spelled, so that completing a prefix that ends at an
/// interior node reads one short list instead of merging the leaves below it.
///
/// Interior nodes are the root and the nodes of one or two letters that hold more than the
/// split threshold: the prefixes of one and two letters a keyboard completes most. A prefix
/// that ends at a leaf reads the leaf, which lists its words by frequency already.
///
/// ```
/// 0   8    word count (the automaton's)
/// 8   4    node count N (the tree's interior node count)
/// 12  4    list length K (16): each node lists min(K, its words) words
/// 16  4    data size D
/// 20  44   reserved (0)
/// 64  …    N + 1 list offsets, UInt32, into the data (the last one is D)
///     …    D bytes: per node in index order, its words most frequent first (ties by
///          ascending ID), each as varint ID, varint m, and its m labels
/// ```
///
/// Varints are unsigned LEB128. A list of K words is the node's K most frequent: every
/// other word below the node comes after its last word (frequency, then ID). A list of
/// fewer than K words holds every word below the node.
@_spi(SwipeDictInternals) public enum BestListLayout {
  /// The size of the section header.
  @_spi(SwipeDictInternals) public static let headerSize = 64
  /// How many words each node lists (at most): above the 10 suggestions a keyboard shows,
  /// with room for words a query skips (another letter of the same tree class, a word that
  /// must not be suggested).
  @_spi(SwipeDictInternals) public static let listLength = 16
}
