/// Why a blob was rejected: what is wrong, and where.
///
/// Every error names the section (when one is involved) and the byte offset in the file,
/// so a damaged download can be diagnosed from the message alone.
public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of damage.
  public enum Reason: Sendable, Hashable {
    /// The file is shorter than a header.
    case truncatedHeader(size: Int)
    /// The first eight bytes are not the SwipeDict magic.
    case badMagic
    /// The blob was written by a newer, incompatible format.
    case unsupportedVersion(expected: FormatVersion, found: FormatVersion)
    /// Header flags this reader does not know.
    case unknownFlags(UInt32)
    /// The header's file size differs from the real one (truncated or appended to).
    case fileSizeMismatch(declared: UInt64, actual: Int)
    /// The section table is malformed (count, entry size or position).
    case badSectionTable(String)
    /// The header or table checksum does not match.
    case headerChecksumMismatch(stored: UInt32, computed: UInt32)
    /// A section lies outside the file, is misaligned, or overlaps another.
    case badSectionBounds(String)
    /// A section the loader needs is absent.
    case missingSection
    /// A section appears twice.
    case duplicateSection
    /// A section's checksum does not match its bytes.
    case sectionChecksumMismatch(stored: UInt32, computed: UInt32)
    /// A section's contents break a structural rule.
    case malformed(String)
  }

  /// The kind of damage.
  public var reason: Reason
  /// The section involved, if any.
  public var section: SectionTag?
  /// The byte offset in the file where the damage was found.
  public var offset: Int

  /// Creates an error.
  package init(_ reason: Reason, section: SectionTag? = nil, offset: Int) {
    self.reason = reason
    self.section = section
    self.offset = offset
  }

  public var description: String {
    let place = section.map { "section \($0) at byte \(offset)" } ?? "byte \(offset)"
    let what: String
    switch reason {
    case .truncatedHeader(let size):
      what = "file is \(size) bytes, shorter than the \(BlobFormat.headerSize)-byte header"
    case .badMagic: what = "not a SwipeDict blob (bad magic bytes)"
    case .unsupportedVersion(let expected, let found):
      what = "format version \(found) is newer than this reader (\(expected)); update SwipeDict"
    case .unknownFlags(let flags): what = "unknown header flags 0x\(String(flags, radix: 16))"
    case .fileSizeMismatch(let declared, let actual):
      what = "header declares \(declared) bytes but the file has \(actual) (truncated or appended)"
    case .badSectionTable(let detail): what = "bad section table: \(detail)"
    case .headerChecksumMismatch(let stored, let computed):
      what = "header checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))"
    case .badSectionBounds(let detail): what = "bad section bounds: \(detail)"
    case .missingSection: what = "required section is missing"
    case .duplicateSection: what = "section appears more than once"
    case .sectionChecksumMismatch(let stored, let computed):
      what = "checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))"
    case .malformed(let detail): what = detail
    }
    return "\(place): \(what)"
  }
}

private func hex(_ value: UInt32) -> String {
  let digits = String(value, radix: 16)
  return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
