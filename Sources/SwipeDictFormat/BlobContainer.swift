/// Encoding and validation of the container: header, section table, aligned sections.
///
/// `encode` is what the compiler writes; `parse` is what the loader runs at open. `parse`
/// reads only the header and the table (plus their checksum) — never the sections' bytes —
/// so opening costs the same for a 100 KB and a 100 MB blob. From format 1.4 the table also
/// holds a copy of each section's head (``head(of:in:)``), so the loader checks the
/// sections' fixed headers without touching the sections either.
package enum BlobContainer {
  /// A section to write: its tag and bytes.
  package struct Section: Sendable {
    /// The section's tag.
    package var tag: SectionTag
    /// The section's bytes.
    package var bytes: [UInt8]
    /// Creates a section.
    package init(tag: SectionTag, bytes: [UInt8]) {
      self.tag = tag
      self.bytes = bytes
    }
  }

  /// Lays out a blob: header, table (each entry with a copy of its section's head), then each
  /// section at a 64-byte boundary, in the order given, zero padding between them.
  /// Deterministic: the same sections give the same bytes.
  /// - Parameters:
  ///   - sections: the sections, each tag once.
  ///   - flags: the header flags (``BlobFormat/knownFlags``).
  /// - Returns: the whole file.
  package static func encode(_ sections: [Section], flags: UInt32 = 0) -> [UInt8] {
    let tableEnd = BlobFormat.headerSize + sections.count * BlobFormat.entrySizeWithHead
    var offset = align(tableEnd)
    var entries: [SectionEntry] = []
    for (index, section) in sections.enumerated() {
      entries.append(
        SectionEntry(
          tag: section.tag, offset: UInt64(offset), length: UInt64(section.bytes.count),
          checksum: CRC32C.checksum(section.bytes),
          headCopyOffset: UInt64(
            BlobFormat.headerSize + index * BlobFormat.entrySizeWithHead + BlobFormat.sectionEntrySize)))
      offset = align(offset + section.bytes.count)
    }
    let fileSize = sections.isEmpty ? tableEnd : Int(entries.last!.offset + entries.last!.length)
    var out = ByteWriter()
    let header = BlobHeader(flags: flags, fileSize: UInt64(fileSize), sectionCount: UInt32(sections.count))
    writeHeader(header, to: &out)
    for (section, entry) in zip(sections, entries) {
      writeEntry(entry, to: &out)
      let head = section.bytes.prefix(BlobFormat.headCopySize)
      out.append(contentsOf: head)
      out.append(contentsOf: repeatElement(0, count: BlobFormat.headCopySize - head.count))
    }
    let checksum = CRC32C.checksum(out.bytes)
    out.set(checksum, at: BlobFormat.headerChecksumOffset)
    for (section, entry) in zip(sections, entries) {
      out.append(contentsOf: repeatElement(0, count: Int(entry.offset) - out.count))
      out.append(contentsOf: section.bytes)
    }
    return out.bytes
  }

  /// The result of `parse`: the header and the section table, validated.
  package struct Contents: Sendable {
    /// The decoded header.
    package var header: BlobHeader
    /// The section table, in file order.
    package var sections: [SectionEntry]

    /// The entry with `tag`, if present.
    package func section(_ tag: SectionTag) -> SectionEntry? {
      sections.first { $0.tag == tag }
    }
  }

  /// Validates the header and the section table of a blob.
  ///
  /// Checks: size, magic, major version, flags, declared file size, table position and
  /// size, the header checksum (covering header and table), and for every section its
  /// alignment, that it lies inside the file after the table, that no two overlap and no
  /// tag repeats. It does not read the sections' bytes.
  /// - Parameter file: the whole blob.
  /// - Returns: the header and table.
  /// - Throws: `FormatError` naming what is wrong and where.
  package static func parse(_ file: UnsafeByteView) throws(FormatError) -> Contents {
    let header = try checkedHeader(of: file)
    let tableOffset = Int(header.tableOffset)
    let dataStart = tableOffset + Int(header.sectionCount) * Int(header.entrySize)
    let entries = try sectionEntries(of: file, header: header, dataStart: dataStart)
    try checkSectionsTile(entries, file: file, dataStart: dataStart)
    return Contents(header: header, sections: entries)
  }

  /// The header, checked: size, magic, version, flags, declared file size, the table's
  /// entry size, position and length, and the checksum of header and table.
  private static func checkedHeader(of file: UnsafeByteView) throws(FormatError) -> BlobHeader {
    guard file.count >= BlobFormat.headerSize else {
      throw FormatError(.truncatedHeader(size: file.count), offset: 0)
    }
    for (i, byte) in BlobFormat.magic.enumerated() where file.byte(at: i) != byte {
      throw FormatError(.badMagic, offset: i)
    }
    // safe: the file holds at least the 64-byte header, checked above.
    let version = FormatVersion(major: file.uint16(at: 8)!, minor: file.uint16(at: 10)!)
    guard version.major >= 1, version.major <= FormatVersion.current.major else {
      throw FormatError(
        .unsupportedVersion(expected: FormatVersion.current, found: version), offset: 8)
    }
    let header = BlobHeader(
      version: version, flags: file.uint32(at: 12)!, fileSize: file.uint64(at: 16)!,
      sectionCount: file.uint32(at: 24)!, entrySize: file.uint32(at: 28)!,
      tableOffset: file.uint64(at: 32)!, checksum: file.uint32(at: 40)!)
    guard header.flags & ~BlobFormat.knownFlags == 0 else {
      throw FormatError(.unknownFlags(header.flags), offset: 12)
    }
    guard header.fileSize == UInt64(file.count) else {
      throw FormatError(.fileSizeMismatch(declared: header.fileSize, actual: file.count), offset: 16)
    }
    guard header.sectionCount <= BlobFormat.maxSectionCount else {
      throw FormatError(.badSectionTable("\(header.sectionCount) sections"), offset: 24)
    }
    guard header.entrySize >= UInt32(BlobFormat.sectionEntrySize), header.entrySize % 8 == 0,
      header.entrySize <= 1024
    else {
      throw FormatError(.badSectionTable("entry size \(header.entrySize)"), offset: 28)
    }
    // Format 1.4 added the head copy to every entry.
    let hasHeadCopies = version >= FormatVersion(major: 1, minor: 4)
    guard !hasHeadCopies || header.entrySize >= UInt32(BlobFormat.entrySizeWithHead) else {
      throw FormatError(
        .badSectionTable(
          "entry size \(header.entrySize) leaves no room for the section heads format \(version) copies "
            + "(at least \(BlobFormat.entrySizeWithHead))"),
        offset: 28)
    }
    let tableLength = Int(header.sectionCount) * Int(header.entrySize)
    guard header.tableOffset >= UInt64(BlobFormat.headerSize),
      header.tableOffset <= UInt64(file.count),
      file.contains(offset: Int(header.tableOffset), length: tableLength)
    else {
      throw FormatError(
        .badSectionTable("table at \(header.tableOffset) does not fit in the file"), offset: 32)
    }
    let tableOffset = Int(header.tableOffset)
    let computed = headerChecksum(file, tableOffset: tableOffset, tableLength: tableLength)
    guard computed == header.checksum else {
      throw FormatError(
        .headerChecksumMismatch(stored: header.checksum, computed: computed),
        offset: BlobFormat.headerChecksumOffset)
    }
    return header
  }

  /// The table's entries, each aligned, inside the data area after the table (from
  /// `dataStart`), its tag not seen before.
  private static func sectionEntries(
    of file: UnsafeByteView, header: BlobHeader, dataStart: Int
  ) throws(FormatError) -> [SectionEntry] {
    // Format 1.4 added the head copy to every entry.
    let hasHeadCopies = header.version >= FormatVersion(major: 1, minor: 4)
    let tableOffset = Int(header.tableOffset)
    var entries: [SectionEntry] = []
    entries.reserveCapacity(Int(header.sectionCount))
    for i in 0..<Int(header.sectionCount) {
      let at = tableOffset + i * Int(header.entrySize)
      let entry = SectionEntry(
        tag: SectionTag(rawValue: file.uint32(at: at)!), flags: file.uint32(at: at + 4)!,
        offset: file.uint64(at: at + 8)!, length: file.uint64(at: at + 16)!,
        checksum: file.uint32(at: at + 24)!,
        headCopyOffset: hasHeadCopies ? UInt64(at + BlobFormat.sectionEntrySize) : nil)
      guard entry.offset % UInt64(BlobFormat.sectionAlignment) == 0 else {
        throw FormatError(
          .badSectionBounds("offset \(entry.offset) is not a multiple of 64"), section: entry.tag,
          offset: at + 8)
      }
      guard entry.offset >= UInt64(dataStart), entry.offset <= UInt64(file.count),
        entry.length <= UInt64(file.count) - entry.offset
      else {
        throw FormatError(
          .badSectionBounds(
            "bytes \(entry.offset)..<\(entry.offset &+ entry.length) outside the data area "
              + "\(dataStart)..<\(file.count)"),
          section: entry.tag, offset: at + 8)
      }
      if entries.contains(where: { $0.tag == entry.tag }) {
        throw FormatError(.duplicateSection, section: entry.tag, offset: at)
      }
      entries.append(entry)
    }
    return entries
  }

  /// Checks that no two sections overlap and that the file ends where its last section does.
  private static func checkSectionsTile(
    _ entries: [SectionEntry], file: UnsafeByteView, dataStart: Int
  ) throws(FormatError) {
    // The encoder writes the table in file order, so the sort is rarely needed.
    let inFileOrder = zip(entries, entries.dropFirst()).allSatisfy { $0.offset <= $1.offset }
    let byOffset = inFileOrder ? entries : entries.sorted { $0.offset < $1.offset }
    for (a, b) in zip(byOffset, byOffset.dropFirst()) where a.offset + a.length > b.offset {
      throw FormatError(
        .badSectionBounds("overlaps section \(a.tag) (ends at \(a.offset + a.length))"),
        section: b.tag, offset: Int(b.offset))
    }
    // The file ends where its last section does (the encoder writes nothing after it): bytes
    // appended after it, even with the header resealed to count them, are no blob's.
    // safe: every section lies inside the file, checked above.
    let end = byOffset.last.map { Int($0.offset + $0.length) } ?? dataStart
    guard end == file.count else {
      throw FormatError(
        .badSectionBounds("\(file.count - end) bytes follow the last section, which ends at \(end)"), offset: end)
    }
  }

  /// CRC-32C of the header with its checksum field read as zero, then of the table.
  /// - Precondition: the header and the table lie inside `file`.
  private static func headerChecksum(_ file: UnsafeByteView, tableOffset: Int, tableLength: Int) -> UInt32 {
    var crc = CRC32C()
    let checksumEnd = BlobFormat.headerChecksumOffset + 4
    file.slice(offset: 0, length: BlobFormat.headerChecksumOffset)!.withUnsafeBytes { crc.update($0) }
    withUnsafeBytes(of: UInt32(0)) { crc.update($0) }
    file.slice(offset: checksumEnd, length: BlobFormat.headerSize - checksumEnd)!
      .withUnsafeBytes { crc.update($0) }
    file.slice(offset: tableOffset, length: tableLength)!.withUnsafeBytes { crc.update($0) }
    return crc.value
  }

  /// Rewrites the declared file size and the header checksum after an edit of the header or
  /// the section table, so that the edit reaches the checks behind the header's. For tests
  /// and the fuzzer, which damage blobs on purpose.
  /// - Returns: `false` (and changes nothing) when the bytes cannot hold the header and the
  ///   table the header declares.
  package static func reseal(_ bytes: inout [UInt8]) -> Bool {
    guard bytes.count >= BlobFormat.headerSize else { return false }
    let fileSize = UInt64(bytes.count)
    var resealed = bytes
    for i in 0..<8 { resealed[16 + i] = UInt8(truncatingIfNeeded: fileSize >> (8 * UInt64(i))) }
    let checksum: UInt32? = resealed.withUnsafeBytes { raw in
      let file = UnsafeByteView(raw)
      // safe: the 64-byte header is inside the bytes, checked above.
      let count = Int(file.uint32(at: 24)!)
      let entrySize = Int(file.uint32(at: 28)!)
      let tableOffset = file.uint64(at: 32)!
      guard count <= BlobFormat.maxSectionCount, entrySize <= 1024,
        tableOffset >= UInt64(BlobFormat.headerSize), tableOffset <= UInt64(file.count),
        file.contains(offset: Int(tableOffset), length: count * entrySize)
      else { return nil }
      return headerChecksum(file, tableOffset: Int(tableOffset), tableLength: count * entrySize)
    }
    guard let checksum else { return false }
    for i in 0..<4 {
      resealed[BlobFormat.headerChecksumOffset + i] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt32(i)))
    }
    bytes = resealed
    return true
  }

  /// The first bytes of a section of `file` (up to ``BlobFormat/headCopySize``, all of a
  /// shorter section): the table's copy when the blob has one (format 1.4), so reading a
  /// section's fixed header does not touch the section's pages, else the section's own.
  /// - Precondition: `entry` comes from `parse(file)`, which checked that both lie in the file.
  package static func head(of entry: SectionEntry, in file: UnsafeByteView) -> UnsafeByteView {
    // safe: `parse` checked the section and the table (which holds the copies) against the file.
    file.slice(offset: Int(entry.headCopyOffset ?? entry.offset), length: entry.headLength)!
  }

  /// Checks that the table's copy of a section's head (format 1.4) is the section's first
  /// bytes, zero-padded to ``BlobFormat/headCopySize``. `verify` runs it for every section;
  /// open, which reads the fixed headers from the copies, runs it only when a header is
  /// refused, so the error names the copy when the copy is what is damaged.
  /// - Parameters:
  ///   - entry: an entry from `parse(file)`.
  ///   - file: the whole blob.
  /// - Throws: `FormatError.Reason.badSectionTable` at the first differing byte of the copy.
  package static func checkHeadCopy(of entry: SectionEntry, in file: UnsafeByteView) throws(FormatError) {
    guard let copyOffset = entry.headCopyOffset.map(Int.init) else { return }
    for i in 0..<BlobFormat.headCopySize {
      // safe: `parse` checked that the table, copies included, and the section lie in the file.
      let copied = file.byte(at: copyOffset + i)!
      let expected = i < entry.headLength ? file.byte(at: Int(entry.offset) + i)! : 0
      guard copied == expected else {
        throw FormatError(
          .badSectionTable("the table's copy of the section's first 64 bytes differs at byte \(i)"),
          section: entry.tag, offset: copyOffset + i)
      }
    }
  }

  /// Rounds up to the section alignment.
  static func align(_ offset: Int) -> Int {
    (offset + BlobFormat.sectionAlignment - 1) / BlobFormat.sectionAlignment
      * BlobFormat.sectionAlignment
  }

  private static func writeHeader(_ header: BlobHeader, to out: inout ByteWriter) {
    out.append(contentsOf: BlobFormat.magic)
    out.append(header.version.major)
    out.append(header.version.minor)
    out.append(header.flags)
    out.append(header.fileSize)
    out.append(header.sectionCount)
    out.append(header.entrySize)
    out.append(header.tableOffset)
    out.append(header.checksum)
    out.append(contentsOf: repeatElement(0, count: 20))
  }

  private static func writeEntry(_ entry: SectionEntry, to out: inout ByteWriter) {
    out.append(entry.tag.rawValue)
    out.append(entry.flags)
    out.append(entry.offset)
    out.append(entry.length)
    out.append(entry.checksum)
    out.append(UInt32(0))
  }
}
