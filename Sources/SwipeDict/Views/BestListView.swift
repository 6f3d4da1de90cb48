@_spi(SwipeDictInternals) import SwipeDictFormat

/// The `BEST` lists of the prefix tree's interior nodes, read in place (format in
/// `BestListLayout`).
///
/// Opening checks that the parts fill the section exactly and that it lists the tree's
/// nodes. Every later read is bounds-checked: an entry must lie inside its node's bytes and
/// name a word, so a damaged section gives short lists, never a read outside it or a loop.
struct BestListView: Sendable {
  /// One listed word: its ID and its labels.
  struct Entry {
    var id: Int
    var labels: UnsafeByteView
  }

  let nodeCount: Int
  /// The most words a node lists: a shorter list holds every word below its node.
  let listLength: Int
  private let wordCount: Int
  private let offsets: UnsafeByteView
  private let data: UnsafeByteView

  /// Validates the header and the part sizes (O(1)).
  /// The header is read from `head`, the section's first bytes (`BlobContainer.head(of:in:)`):
  /// in a blob of format 1.4 the table's copy, so this touches none of the section's pages.
  init(section: UnsafeByteView, head: UnsafeByteView, fileOffset: Int, wordCount: Int, treeNodeCount: Int)
    throws(FormatError)
  {
    let fail = try SectionHeaderCheck(
      .bestLists, section: section, headerSize: BestListLayout.headerSize, fileOffset: fileOffset
    ).fail
    // safe: the section, so its head, holds the header, checked above.
    guard head.uint64(at: 0)! == UInt64(wordCount) else {
      throw fail("lists of \(head.uint64(at: 0)!) words for \(wordCount) words", 0)
    }
    let n = Int(head.uint32(at: 8)!)
    guard n == treeNodeCount else { throw fail("lists of \(n) nodes for a tree of \(treeNodeCount)", 8) }
    let k = Int(head.uint32(at: 12)!)
    guard k >= 1, k <= 1 << 16 else { throw fail("list length \(k)", 12) }
    let d = Int(head.uint32(at: 16)!)
    let offsetBytes = (n + 1) * 4
    guard BestListLayout.headerSize + offsetBytes + d == section.count else {
      throw fail("parts need \(BestListLayout.headerSize + offsetBytes + d) bytes, section has \(section.count)", 8)
    }
    // safe: the sizes add up, checked above.
    offsets = section.slice(offset: BestListLayout.headerSize, length: offsetBytes)!
    data = section.slice(offset: BestListLayout.headerSize + offsetBytes, length: d)!
    nodeCount = n
    listLength = k
    self.wordCount = wordCount
  }

  /// Calls `body` with the listed words of interior node `node`, most frequent first, until it
  /// returns `false`. Returns how many entries were read, or `nil` if the list is damaged
  /// (`body` may have been called with its sound entries before that).
  @discardableResult
  func forEachEntry(of node: Int, _ body: (Entry) -> Bool) -> Int? {
    guard node >= 0, node < nodeCount, let start = offsets.uint32(at: node &* 4),
      let end = offsets.uint32(at: (node &+ 1) &* 4), start <= end,
      let bytes = data.slice(offset: Int(start), length: Int(end &- start))
    else { return nil }
    var at = 0
    var read = 0
    while at < bytes.count, read < listLength {
      guard let (id, a) = bytes.varint(at: at), id < UInt64(wordCount),
        let (m, b) = bytes.varint(at: at &+ a), m <= UInt64(bytes.count),
        let labels = bytes.slice(offset: at &+ a &+ b, length: Int(m))
      else { return nil }
      at &+= a &+ b &+ Int(m)
      read &+= 1
      if !body(Entry(id: Int(id), labels: labels)) { return read }
    }
    return at == bytes.count ? read : nil
  }
}
