/// The SwipeDict blob format: one file per (word list, layout), little-endian throughout.
///
/// ```
/// offset  size  field
/// 0       8     magic            89 53 57 44 0D 0A 1A 0A  ("\x89SWD\r\n\x1A\n")
/// 8       2     major version    readers reject a major newer than `FormatVersion.current.major`
/// 10      2     minor version    additions a reader may ignore
/// 12      4     flags            bit 0: `scriptTreeFlag` (1.2), bit 1: `rankedLeavesFlag` (1.5),
///                                bit 2: `narrowFeaturesFlag` (1.5); readers reject unknown bits
/// 16      8     file size        the whole file, in bytes
/// 24      4     section count
/// 28      4     entry size       bytes per section-table entry (96 from 1.4; 32 before)
/// 32      8     table offset     where the section table starts (64)
/// 40      4     header checksum  CRC-32C of bytes 0..<64 with this field zeroed, then the table
/// 44      20    reserved         zero
/// ```
///
/// The section table has one entry per section:
///
/// ```
/// 0   4  tag        four ASCII bytes, e.g. "DAWG"
/// 4   4  flags      0
/// 8   8  offset     from the start of the file; a multiple of 64
/// 16  8  length     in bytes
/// 24  4  checksum   CRC-32C of the section's bytes
/// 28  4  reserved   zero
/// 32  64 head       (1.4) a copy of the section's first 64 bytes, zero-padded if it is shorter
/// ```
///
/// The head copy holds every section's fixed header, so a reader validates the whole blob at
/// open from the first page of the file (covered by the header checksum) without touching the
/// sections; `verify` checks that each copy matches its section. A reader takes the entry size
/// from the header and ignores bytes it does not know, so a 1.3 reader opens a 1.4 blob, and a
/// 1.4 reader reads the heads from the sections in blobs before 1.4 (whatever their entry size).
///
/// Sections do not overlap and lie inside the file. A reader ignores sections whose tag
/// it does not know. The sections themselves are described by their tags in `SectionTag`.
package enum BlobFormat {
  /// The eight bytes every blob starts with. The high byte and the CR LF / SUB pair catch
  /// files mangled by text-mode transfers, as in PNG.
  package static let magic: [UInt8] = [0x89, 0x53, 0x57, 0x44, 0x0D, 0x0A, 0x1A, 0x0A]
  /// The size of the fixed header.
  package static let headerSize = 64
  /// The size of a section-table entry without its head copy: the smallest a reader accepts.
  package static let sectionEntrySize = 32
  /// The bytes of a section's start copied into its table entry (format 1.4): every
  /// section's fixed header fits.
  package static let headCopySize = 64
  /// The size of one section-table entry as this version writes it.
  package static let entrySizeWithHead = sectionEntrySize + headCopySize
  /// Every section starts at a multiple of this, so columns can be scanned with SIMD loads.
  package static let sectionAlignment = 64
  /// The offset of the header checksum field.
  package static let headerChecksumOffset = 40
  /// The most sections a reader accepts (a bound against absurd tables).
  package static let maxSectionCount = 1024
  /// The longest word a blob holds, in Unicode scalars: 128. The compiler refuses longer ones
  /// (the longest of the default lists has 81), and queries answer nothing for longer typed
  /// text: correction's time grows with the typed length times the words' length.
  package static let maxWordLength = 128
  /// Header flag (format 1.2): the prefix tree puts characters from U+0080 up in child
  /// `code point mod 26` (`PrefixTreeLayout.ClassRule.allScripts`), not in "other". Set only
  /// when that changes the tree (the words have such letters), so a reader that does not
  /// know it refuses exactly the blobs it would misread.
  package static let scriptTreeFlag: UInt32 = 1 << 0
  /// Header flag (format 1.5): the prefix tree's leaves rank only their first words
  /// (`PrefixTreeLayout.rankedPerLeaf`; the section header says how many). Set only when a
  /// leaf has more words than that, so a reader that does not know it refuses exactly the
  /// blobs whose leaves it would misread.
  package static let rankedLeavesFlag: UInt32 = 1 << 1
  /// Header flag (format 1.5): the `FEAT` records are narrow, 3 bytes
  /// (`FeatureLayout.narrowRecordSize`, a layout of at most 31 keys). Set exactly when they
  /// are, so a reader that does not know it refuses the blobs it would misread.
  package static let narrowFeaturesFlag: UInt32 = 1 << 2
  /// Every header flag this version knows.
  package static let knownFlags: UInt32 = scriptTreeFlag | rankedLeavesFlag | narrowFeaturesFlag
}

/// The version of the blob format a blob was written with.
public struct FormatVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Incompatible changes: readers refuse a newer major.
  public var major: UInt16
  /// Compatible additions.
  public var minor: UInt16

  /// The version this code writes and the newest major it reads.
  public static let current = FormatVersion(major: 1, minor: 5)

  /// Creates a version.
  public init(major: UInt16, minor: UInt16) {
    self.major = major
    self.minor = minor
  }

  public var description: String { "\(major).\(minor)" }

  public static func < (lhs: FormatVersion, rhs: FormatVersion) -> Bool {
    (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
  }
}

/// A four-character section tag.
public struct SectionTag: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The four ASCII bytes as a little-endian integer ("DAWG" is stored as the bytes D A W G).
  public var rawValue: UInt32

  /// Creates a tag from its little-endian integer.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Creates a tag from four ASCII characters.
  public init(_ text: StaticString) {
    precondition(text.utf8CodeUnitCount == 4, "a section tag has four ASCII characters")
    let p = text.utf8Start
    rawValue = UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
  }

  /// The tag as text; bytes outside printable ASCII are shown as `?`.
  public var description: String {
    var s = ""
    for shift in stride(from: 0, to: 32, by: 8) {
      let b = UInt8((rawValue >> UInt32(shift)) & 0xFF)
      s.unicodeScalars.append(b >= 0x20 && b < 0x7F ? Unicode.Scalar(b) : "?")
    }
    return s
  }

  /// The minimal acyclic automaton of the words with path outputs (word ↔ ID). See `DAWGLayout`.
  public static let dawg = SectionTag("DAWG")
  /// The per-blob alphabet: label → character and its folding class. See `AlphabetLayout`.
  public static let alphabet = SectionTag("ALPH")
  /// The quantized frequency of every word, one byte per word ID. See `FrequencyLayout`.
  public static let frequency = SectionTag("FREQ")
  /// The keyboard layout the blob was built for. See `KeyboardLayout.encoded()`.
  public static let layout = SectionTag("LYOT")
  /// The swipe features of every word, one 32-bit record per word ID. See `FeatureLayout`.
  public static let features = SectionTag("FEAT")
  /// The 27-ary prefix tree over the words and the top-1000 list. See `PrefixTreeLayout`.
  public static let prefixTree = SectionTag("PTRE")
  /// The most frequent words below each interior node of the prefix tree, spelled (format
  /// 1.3). See `BestListLayout`.
  public static let bestLists = SectionTag("BEST")
  /// Marked words (possibly offensive, abbreviation) and shortcuts (whitelisted corrections),
  /// when the word lists carry them (format 1.2). See `MarkLayout`.
  public static let marks = SectionTag("MARK")
  /// How often one word follows another, when the build is given a bigram list. See
  /// `BigramLayout`.
  public static let bigrams = SectionTag("BIGR")
  /// Build metadata as UTF-8 JSON: inputs with checksums, options, tool version. No timestamps.
  public static let metadata = SectionTag("META")
}

/// One entry of the section table.
package struct SectionEntry: Sendable, Hashable {
  /// What the section holds.
  package var tag: SectionTag
  /// Reserved flags (0).
  package var flags: UInt32
  /// Where the section starts, from the start of the file.
  package var offset: UInt64
  /// The section's length in bytes.
  package var length: UInt64
  /// CRC-32C of the section's bytes.
  package var checksum: UInt32
  /// Where the entry's copy of the section's first bytes lies in the file (format 1.4), or
  /// `nil` when the table has no head copies.
  package var headCopyOffset: UInt64?

  /// Creates an entry.
  package init(
    tag: SectionTag, flags: UInt32 = 0, offset: UInt64, length: UInt64, checksum: UInt32,
    headCopyOffset: UInt64? = nil
  ) {
    self.tag = tag
    self.flags = flags
    self.offset = offset
    self.length = length
    self.checksum = checksum
    self.headCopyOffset = headCopyOffset
  }

  /// The length of the section's head: its first bytes, up to ``BlobFormat/headCopySize``.
  package var headLength: Int { Int(min(length, UInt64(BlobFormat.headCopySize))) }
}

/// The decoded fixed header.
package struct BlobHeader: Sendable, Hashable {
  /// The format version the blob was written with.
  package var version: FormatVersion
  /// Reserved flags (0).
  package var flags: UInt32
  /// The file size the header declares.
  package var fileSize: UInt64
  /// The number of sections.
  package var sectionCount: UInt32
  /// The size of one table entry.
  package var entrySize: UInt32
  /// Where the section table starts.
  package var tableOffset: UInt64
  /// CRC-32C over the header (checksum field zeroed) and the section table.
  package var checksum: UInt32

  /// Creates a header.
  package init(
    version: FormatVersion = .current, flags: UInt32 = 0, fileSize: UInt64, sectionCount: UInt32,
    entrySize: UInt32 = UInt32(BlobFormat.entrySizeWithHead),
    tableOffset: UInt64 = UInt64(BlobFormat.headerSize), checksum: UInt32 = 0
  ) {
    self.version = version
    self.flags = flags
    self.fileSize = fileSize
    self.sectionCount = sectionCount
    self.entrySize = entrySize
    self.tableOffset = tableOffset
    self.checksum = checksum
  }
}
