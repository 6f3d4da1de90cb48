@_spi(SwipeDictInternals) import SwipeDictFormat

/// The `MARK` section read in place: marked words and shortcuts (format in `MarkLayout`).
///
/// Every read is bounds-checked: on a damaged section a word's marks may be wrong or a
/// shortcut missing, never a read outside the section. ``validate(wordCount:)`` proves it.
struct MarkView: Sendable {
  /// `8 × markCount` bytes: (word ID u32, marks u32), ascending ID.
  let markRecords: UnsafeByteView
  /// `12 × shortcutCount` bytes of shortcut records.
  let shortcutRecords: UnsafeByteView
  /// The sources and targets.
  let text: UnsafeByteView
  let markCount: Int
  let shortcutCount: Int

  /// Validates the header and that the parts fill the section exactly (O(1)).
  /// The header is read from `head`, the section's first bytes (`BlobContainer.head(of:in:)`):
  /// in a blob of format 1.4 the table's copy, so this touches none of the section's pages.
  init(section: UnsafeByteView, head: UnsafeByteView, fileOffset: Int, wordCount: Int) throws(FormatError) {
    let fail = try SectionHeaderCheck(
      .marks, section: section, headerSize: MarkLayout.headerSize, fileOffset: fileOffset
    ).fail
    // safe: the section, so its head, holds the header, checked above.
    let words = head.uint64(at: 0)!
    guard words == UInt64(wordCount) else { throw fail("\(words) words, the automaton has \(wordCount)", 0) }
    let marks = Int(head.uint32(at: 8)!)
    let shortcuts = Int(head.uint32(at: 12)!)
    let textBytes = Int(head.uint32(at: 16)!)
    // u32 counts: the products cannot overflow Int.
    let expected =
      MarkLayout.headerSize + MarkLayout.markRecordSize * marks
      + MarkLayout.shortcutRecordSize * shortcuts + textBytes
    guard section.count == expected else {
      throw fail(
        "\(marks) marked words, \(shortcuts) shortcuts and \(textBytes) text bytes need \(expected) bytes,"
          + " the section has \(section.count)", 8)
    }
    var at = MarkLayout.headerSize
    markRecords = section.slice(offset: at, length: MarkLayout.markRecordSize * marks)!
    at += markRecords.count
    shortcutRecords = section.slice(offset: at, length: MarkLayout.shortcutRecordSize * shortcuts)!
    at += shortcutRecords.count
    text = section.slice(offset: at, length: textBytes)!
    markCount = marks
    shortcutCount = shortcuts
  }

  /// The marks of word `id` (empty when it has none or is out of range).
  func marks(of id: Int) -> WordMarks {
    guard markCount > 0, id >= 0, id <= Int(UInt32.max) else { return [] }
    var lo = 0
    var hi = markCount
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      // safe: mid < markCount, and the records are 8 × markCount bytes.
      if markRecords.uncheckedUInt32(at: mid &* 8) < UInt32(id) { lo = mid &+ 1 } else { hi = mid }
    }
    guard lo < markCount, markRecords.uncheckedUInt32(at: lo &* 8) == UInt32(id) else { return [] }
    return WordMarks(rawValue: markRecords.uncheckedUInt32(at: lo &* 8 &+ 4))
  }

  /// Calls `body` with each marked word's ID and marks, ascending ID.
  func forEachMarked(_ body: (Int, WordMarks) -> Void) {
    for i in 0..<markCount {
      // safe: i < markCount.
      body(
        Int(markRecords.uncheckedUInt32(at: i &* 8)), WordMarks(rawValue: markRecords.uncheckedUInt32(at: i &* 8 &+ 4)))
    }
  }

  /// One shortcut record, its text ranges checked against the text.
  private struct Record {
    var source: Range<Int>
    var target: Range<Int>
    var frequency: UInt8
    var flags: UInt8
  }

  private func record(_ index: Int) -> Record? {
    guard index >= 0, index < shortcutCount else { return nil }
    let at = index &* MarkLayout.shortcutRecordSize
    // safe: index < shortcutCount, so the 12 bytes are inside the records.
    let offset = Int(shortcutRecords.uncheckedUInt32(at: at))
    guard let sourceLength = shortcutRecords.uint16(at: at &+ 4),
      let targetLength = shortcutRecords.uint16(at: at &+ 6),
      let frequency = shortcutRecords.byte(at: at &+ 8), let flags = shortcutRecords.byte(at: at &+ 9),
      text.contains(offset: offset, length: Int(sourceLength) &+ Int(targetLength))
    else { return nil }
    let split = offset &+ Int(sourceLength)
    return Record(
      source: offset..<split, target: split..<(split &+ Int(targetLength)), frequency: frequency,
      flags: flags)
  }

  /// The text bytes of a record's range (checked against the text by ``record(_:)``).
  private func bytes(_ range: Range<Int>) -> [UInt8]? {
    text.bytes(offset: range.lowerBound, length: range.count)
  }

  /// A record's shortcut, its target decoded; `nil` when damaged.
  private func shortcut(_ record: Record) -> Shortcut? {
    bytes(record.target).map {
      Shortcut(
        target: String(decoding: $0, as: UTF8.self),
        isWhitelisted: record.flags & MarkLayout.whitelistedFlag != 0, frequency: record.frequency)
    }
  }

  /// Compares the source of shortcut `index` with `key` (bytes); `nil` when damaged.
  private func compareSource(_ index: Int, _ key: [UInt8]) -> Int? {
    guard let record = record(index), let source = bytes(record.source) else { return nil }
    if source.elementsEqual(key) { return 0 }
    return source.lexicographicallyPrecedes(key) ? -1 : 1
  }

  /// The most shortcuts one spelling returns: a damaged section cannot make a query decode
  /// thousands of records (AOSP lists give a word one or two).
  static let maxShortcutsPerSource = 16

  /// The shortcuts whose source is exactly `key` (UTF-8 bytes), in section order, at most
  /// ``maxShortcutsPerSource``.
  func shortcuts(for key: [UInt8]) -> [Shortcut] {
    guard shortcutCount > 0 else { return [] }
    var lo = 0
    var hi = shortcutCount
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      guard let c = compareSource(mid, key) else { return [] }
      if c < 0 { lo = mid &+ 1 } else { hi = mid }
    }
    var found: [Shortcut] = []
    var i = lo
    while i < shortcutCount, found.count < Self.maxShortcutsPerSource, compareSource(i, key) == 0,
      let record = record(i), let shortcut = shortcut(record)
    {
      found.append(shortcut)
      i += 1
    }
    return found
  }

  /// Every shortcut with its source, in section order (for `dump`).
  func allShortcuts() -> [(source: String, shortcut: Shortcut)] {
    (0..<shortcutCount).compactMap { i in
      guard let record = record(i), let source = bytes(record.source), let shortcut = shortcut(record)
      else { return nil }
      return (String(decoding: source, as: UTF8.self), shortcut)
    }
  }

  /// Proves the section: marked IDs strictly ascending and below `wordCount`, only known
  /// mark bits and none empty; the shortcuts' texts one after the other, filling the text
  /// area exactly (so no text is read twice), each valid UTF-8 and not empty, flags known,
  /// reserved bytes zero, sources in order.
  func validate(wordCount: Int, fileOffset: Int) throws(FormatError) {
    func fail(_ detail: String) -> FormatError {
      FormatError(.malformed(detail), section: .marks, offset: fileOffset)
    }
    var previous = -1
    for i in 0..<markCount {
      let id = Int(markRecords.uncheckedUInt32(at: i &* 8))
      let marks = WordMarks(rawValue: markRecords.uncheckedUInt32(at: i &* 8 &+ 4))
      guard id > previous, id < wordCount else {
        throw fail("marked word \(i) has ID \(id) (after \(previous), \(wordCount) words)")
      }
      guard !marks.isEmpty, marks.isSubset(of: .known) else {
        throw fail("marked word \(id) has marks \(marks.rawValue), not a known non-empty set")
      }
      previous = id
    }
    var previousSource: [UInt8]?
    var textEnd = 0
    for i in 0..<shortcutCount {
      guard let record = record(i) else { throw fail("shortcut \(i) points outside the text") }
      guard record.source.lowerBound == textEnd else {
        throw fail("shortcut \(i)'s text starts at \(record.source.lowerBound), not after the one before (\(textEnd))")
      }
      textEnd = record.target.upperBound
      let at = i &* MarkLayout.shortcutRecordSize
      guard record.flags & ~MarkLayout.whitelistedFlag == 0, shortcutRecords.uint16(at: at &+ 10) == 0 else {
        throw fail("shortcut \(i) has unknown flags \(record.flags) or reserved bytes set")
      }
      // safe: record(i) checked both ranges against the text.
      let source = bytes(record.source)!
      let target = bytes(record.target)!
      guard !source.isEmpty, !target.isEmpty, String(validatingUTF8: source) != nil,
        String(validatingUTF8: target) != nil
      else { throw fail("shortcut \(i) has an empty or invalid UTF-8 source or target") }
      if let previousSource, source.lexicographicallyPrecedes(previousSource) {
        throw fail("shortcut \(i)'s source is out of order")
      }
      previousSource = source
    }
    guard textEnd == text.count else {
      throw fail("the shortcuts' texts end at \(textEnd), the text area at \(text.count)")
    }
  }
}
