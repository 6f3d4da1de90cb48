@_spi(SwipeDictInternals) import SwipeDictFormat

/// The `BIGR` section read in place: each word's followers (format in `BigramLayout`).
///
/// Every read is bounds-checked: on a damaged section a word's followers may be wrong or
/// missing, never a read outside the section, and decoding one word's followers takes at most
/// as many steps as its entry bytes. ``validate(wordCount:fileOffset:)`` proves the rest.
struct BigramView: Sendable {
  /// `8 × firstCount` bytes: (word ID u32, entry offset u32), ascending ID.
  let records: UnsafeByteView
  /// The followers' entries.
  let entries: UnsafeByteView
  let firstCount: Int
  let bigramCount: Int
  let wordCount: Int
  /// `ln(1 + the largest bigram count)`.
  let scale: Double
  /// `ln Σ (1 + count)` over the blob's words (their `FREQ` counts).
  let unigramTotal: Double

  /// Validates the header and that the parts fill the section exactly (O(1)).
  /// The header is read from `head`, the section's first bytes (`BlobContainer.head(of:in:)`):
  /// in a blob of format 1.4 the table's copy, so this touches none of the section's pages.
  init(section: UnsafeByteView, head: UnsafeByteView, fileOffset: Int, wordCount: Int) throws(FormatError) {
    let fail = try SectionHeaderCheck(
      .bigrams, section: section, headerSize: BigramLayout.headerSize, fileOffset: fileOffset
    ).fail
    // safe: the section, so its head, holds the header, checked above.
    let words = head.uint64(at: 0)!
    guard words == UInt64(wordCount) else { throw fail("\(words) words, the automaton has \(wordCount)", 0) }
    let firsts = Int(head.uint32(at: 8)!)
    let bigrams = Int(head.uint32(at: 12)!)
    let entryBytes = Int(head.uint32(at: 16)!)
    let scale = head.float64(at: 24)!
    guard scale.isFinite, scale >= 0 else { throw fail("scale \(scale) is not a finite non-negative number", 24) }
    let total = head.float64(at: 32)!
    guard total.isFinite, total >= 0 else {
      throw fail("unigram total \(total) is not a finite non-negative number", 32)
    }
    guard firsts <= wordCount, firsts > 0 else {
      throw fail("\(firsts) first words for \(wordCount) words (the section is written only with pairs)", 8)
    }
    guard head.uint32(at: 20)! == 0, (40..<64).allSatisfy({ head.byte(at: $0)! == 0 }) else {
      throw fail("reserved header bytes are not 0", 20)
    }
    // Each follower takes at least two bytes (a varint and a frequency byte).
    guard bigrams <= entryBytes / 2, firsts <= bigrams else {
      throw fail("\(bigrams) bigrams of \(firsts) first words cannot fill \(entryBytes) entry bytes", 12)
    }
    // u32 counts: the sum cannot overflow Int.
    let expected = BigramLayout.headerSize + BigramLayout.firstRecordSize * firsts + entryBytes
    guard section.count == expected else {
      throw fail(
        "\(firsts) first words and \(entryBytes) entry bytes need \(expected) bytes, the section has \(section.count)",
        8)
    }
    records = section.slice(offset: BigramLayout.headerSize, length: BigramLayout.firstRecordSize * firsts)!
    entries = section.slice(offset: BigramLayout.headerSize + records.count, length: entryBytes)!
    firstCount = firsts
    bigramCount = bigrams
    self.wordCount = wordCount
    self.scale = scale
    unigramTotal = total
  }

  /// The entry bytes of the followers of word `id`, or `nil` if it has none (or the record
  /// is damaged).
  private func entryRange(of id: Int) -> Range<Int>? {
    guard firstCount > 0, id >= 0, id < wordCount, id <= Int(UInt32.max) else { return nil }
    var lo = 0
    var hi = firstCount
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      // safe: mid < firstCount, and the records are 8 × firstCount bytes.
      if records.uncheckedUInt32(at: mid &* 8) < UInt32(id) { lo = mid &+ 1 } else { hi = mid }
    }
    // safe: lo < firstCount.
    guard lo < firstCount, records.uncheckedUInt32(at: lo &* 8) == UInt32(id) else { return nil }
    let start = Int(records.uncheckedUInt32(at: lo &* 8 &+ 4))
    let end = lo &+ 1 < firstCount ? Int(records.uncheckedUInt32(at: (lo &+ 1) &* 8 &+ 4)) : entries.count
    guard start < end, end <= entries.count else { return nil }
    return start..<end
  }

  /// Calls `body` with each follower of word `id` and its frequency byte, by ascending ID,
  /// until `body` returns `false`. A damaged entry ends the walk.
  func forEachFollower(of id: Int, _ body: (Int, UInt8) -> Bool) {
    guard let range = entryRange(of: id) else { return }
    var at = range.lowerBound
    var previous = -1
    while at < range.upperBound {
      guard let (delta, size) = entries.varint(at: at), delta < UInt64(wordCount),
        let frequency = entries.byte(at: at &+ size), at &+ size < range.upperBound
      else { return }
      let next = previous &+ 1 &+ Int(delta)
      guard next < wordCount else { return }
      if !body(next, frequency) { return }
      previous = next
      at &+= size &+ 1
    }
  }

  /// The frequency byte of `next` after `previous`, or `nil`.
  func frequency(of next: Int, after previous: Int) -> UInt8? {
    var found: UInt8?
    forEachFollower(of: previous) { id, frequency in
      if id == next { found = frequency }
      return id < next
    }
    return found
  }

  /// Checks the whole section: first words ascending and in range, offsets ascending from 0
  /// and inside the entries, every follower ID ascending and in range, frequency bytes
  /// non-zero, and the entries decoding to exactly `bigramCount` followers with no byte left.
  func validate(wordCount: Int, fileOffset: Int) throws(FormatError) {
    func fail(_ detail: String) -> FormatError {
      FormatError(.malformed(detail), section: .bigrams, offset: fileOffset)
    }
    var previousFirst = -1
    var previousOffset = -1
    var total = 0
    for i in 0..<firstCount {
      // safe: i < firstCount.
      let first = Int(records.uncheckedUInt32(at: i &* 8))
      let offset = Int(records.uncheckedUInt32(at: i &* 8 &+ 4))
      guard first > previousFirst, first < wordCount else { throw fail("first word \(i): ID \(first) out of order") }
      guard offset > previousOffset, offset < entries.count, i > 0 || offset == 0 else {
        throw fail("first word \(i): entry offset \(offset) out of order")
      }
      let end = i &+ 1 < firstCount ? Int(records.uncheckedUInt32(at: (i &+ 1) &* 8 &+ 4)) : entries.count
      guard end > offset, end <= entries.count else { throw fail("first word \(i): entries end at \(end)") }
      var at = offset
      var previous = -1
      while at < end {
        guard let (delta, size) = entries.varint(at: at), delta < UInt64(wordCount), at &+ size < end,
          let frequency = entries.byte(at: at &+ size), frequency > 0
        else { throw fail("first word \(i): damaged follower at entry byte \(at)") }
        let next = previous &+ 1 &+ Int(delta)
        guard next < wordCount else { throw fail("first word \(i): follower ID \(next) out of range") }
        previous = next
        at &+= size &+ 1
        total &+= 1
      }
      previousFirst = first
      previousOffset = offset
    }
    guard total == bigramCount else { throw fail("entries hold \(total) bigrams, the header says \(bigramCount)") }
  }
}
