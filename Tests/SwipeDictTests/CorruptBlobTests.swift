import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

/// Hand-corrupted blobs: each validation rule rejects its damage with a specific reason.
@Suite("Damaged blobs are rejected with a reason", .timeLimit(.minutes(1)))
struct CorruptBlobTests {
  let blob: [UInt8]

  init() throws {
    blob = try openDictionary(randomWords(count: 300, seed: 99)).1
  }

  /// Opens bytes and returns the format error, or nil if they open.
  func reason(_ bytes: [UInt8], verify: Bool = false) -> FormatError.Reason? {
    do {
      _ = try SwipeDictionary(bytes: bytes, verify: verify)
      return nil
    } catch {
      guard case .invalid(let formatError) = error else { return nil }
      return formatError.reason
    }
  }

  /// The header checksum rewritten after a deliberate change to the header or table.
  func resealed(_ bytes: [UInt8]) -> [UInt8] { bytes.resealed() }

  /// Where the table entry of `tag` starts.
  func entryOffset(_ tag: SectionTag) -> Int { blob.entryOffset(of: tag)! }

  /// Where the loader reads the fixed header of `tag` at open: the table's copy of the
  /// section's first 64 bytes (format 1.4).
  func headOffset(_ tag: SectionTag) -> Int { blob.headOffset(of: tag)! }

  @Test func emptyFile() {
    #expect(reason([]) == .truncatedHeader(size: 0))
  }

  @Test func shortFile() {
    #expect(reason(Array(blob.prefix(40))) == .truncatedHeader(size: 40))
  }

  @Test("bytes appended after the last section are refused, even with the header resealed to count them")
  func bytesAfterTheLastSection() {
    let appended = resealed(blob + [UInt8](repeating: 0x41, count: 100))
    #expect(reason(appended) == .badSectionBounds("100 bytes follow the last section, which ends at \(blob.count)"))
    #expect(reason(appended, verify: true) != nil)
    #expect(reason(blob) == nil)
  }

  @Test("a FIFO nobody writes to and a device are refused at once, named; never waited on")
  func nonRegularFilesAreRefused() throws {
    let directory = TemporaryDirectory()
    let fifo = directory.path + "/words.swipedict"
    #expect(mkfifo(fifo, 0o644) == 0)
    for path in [fifo, "/dev/zero", directory.path] {
      #expect {
        try SwipeDictionary(contentsOf: path)
      } throws: { error in
        "\(error)".contains("\(path): not a regular file (")
      }
    }
  }

  @Test func badMagic() {
    var bytes = blob
    bytes[1] = UInt8(ascii: "X")
    #expect(reason(bytes) == .badMagic)
  }

  @Test func newerMajorVersion() {
    var bytes = blob
    bytes[8] = 2
    #expect(
      reason(bytes)
        == .unsupportedVersion(
          expected: .current, found: FormatVersion(major: 2, minor: FormatVersion.current.minor)))
  }

  @Test func newerMinorVersionIsAccepted() throws {
    var bytes = blob
    bytes[10] = 7
    let dictionary = try SwipeDictionary(bytes: resealed(bytes))
    #expect(dictionary.formatVersion == FormatVersion(major: 1, minor: 7))
  }

  @Test func unknownFlags() {
    var bytes = blob
    bytes[12] = 8  // bits 0–2: script tree (format 1.2), ranked leaves and narrow features (1.5)
    #expect(reason(bytes) == .unknownFlags(8))
  }

  @Test func truncatedAtEverySectionBoundary() throws {
    let dictionary = try SwipeDictionary(bytes: blob)
    for entry in dictionary.contents.sections {
      for cut in [Int(entry.offset), Int(entry.offset + entry.length) - 1] {
        #expect(
          reason(Array(blob.prefix(cut)))
            == .fileSizeMismatch(declared: UInt64(blob.count), actual: cut), "cut at \(cut)")
      }
    }
  }

  @Test func appendedBytes() {
    #expect(
      reason(blob + [0]) == .fileSizeMismatch(declared: UInt64(blob.count), actual: blob.count + 1))
  }

  @Test func headerBitFlipsBreakTheChecksum() {
    for offset in [44, 50, 63] {
      var bytes = blob
      bytes[offset] ^= 0x10
      guard case .headerChecksumMismatch = reason(bytes) else {
        Issue.record("flip at \(offset) not caught")
        continue
      }
    }
  }

  @Test func sectionTableBitFlipsAreCaught() {
    let count = Int(blob.uint32(at: 24))
    let entrySize = Int(blob.uint32(at: 28))
    #expect(entrySize == 96)
    for offset in stride(from: 64, to: 64 + entrySize * count, by: 5) {
      var bytes = blob
      bytes[offset] ^= 0x04
      #expect(reason(bytes) != nil, "flip at \(offset)")
    }
  }

  @Test func misalignedSection() {
    var bytes = blob
    let at = entryOffset(.frequency) + 8
    bytes.setUInt64(bytes.uint64(at: at) + 8, at: at)
    guard case .badSectionBounds = reason(resealed(bytes)) else {
      Issue.record("misaligned section accepted")
      return
    }
  }

  @Test func sectionOutsideTheFile() {
    var bytes = blob
    let at = entryOffset(.dawg) + 16
    bytes.setUInt64(UInt64.max - 3, at: at)
    guard case .badSectionBounds = reason(resealed(bytes)) else {
      Issue.record("huge section length accepted")
      return
    }
  }

  @Test func overlappingSections() {
    var bytes = blob
    let dawg = entryOffset(.dawg)
    let frequency = entryOffset(.frequency)
    bytes.setUInt64(bytes.uint64(at: dawg + 8), at: frequency + 8)
    guard case .badSectionBounds = reason(resealed(bytes)) else {
      Issue.record("overlap accepted")
      return
    }
  }

  @Test func duplicateSection() {
    var bytes = blob
    bytes.setUInt32(SectionTag.dawg.rawValue, at: entryOffset(.frequency))
    #expect(reason(resealed(bytes)) == .duplicateSection)
  }

  @Test func missingSection() {
    var bytes = blob
    bytes.setUInt32(SectionTag("XXXX").rawValue, at: entryOffset(.dawg))
    #expect(reason(resealed(bytes)) == .missingSection)
  }

  @Test func hugeSectionCount() {
    var bytes = blob
    bytes.setUInt32(1_000_000, at: 24)
    guard case .badSectionTable = reason(bytes) else {
      Issue.record("huge section count accepted")
      return
    }
  }

  @Test func sectionBitFlipsAreFoundByVerify() throws {
    let dictionary = try SwipeDictionary(bytes: blob)
    for entry in dictionary.contents.sections {
      var bytes = blob
      bytes[Int(entry.offset + entry.length / 2)] ^= 0x01
      let reasonAtOpen = reason(bytes)
      if reasonAtOpen == nil {
        guard case .sectionChecksumMismatch = reason(bytes, verify: true) else {
          Issue.record("flip in \(entry.tag) not found by verify")
          continue
        }
      }
    }
  }

  @Test func structuralDamageIsFoundByVerifyEvenWithFixedChecksums() throws {
    let dictionary = try SwipeDictionary(bytes: blob)
    let dawg = try #require(dictionary.contents.section(.dawg))
    var caught = 0
    for delta in stride(from: 64, to: Int(dawg.length), by: 97) {
      var bytes = blob
      let at = Int(dawg.offset) + delta
      bytes[at] ^= 0x21
      // Reseal the section checksum so only the structure check can notice.
      if case .malformed = reason(bytes.resealed(section: .dawg), verify: true) { caught += 1 }
    }
    #expect(caught > 0)
  }

  @Test func wrongDAWGHeaderFields() {
    for (field, value) in [(8, UInt64(1)), (16, UInt64.max), (36, UInt64(UInt32.max))] {
      var bytes = blob
      bytes.setHeaderField(of: .dawg, at: field, to: value, width: field == 36 ? 4 : 8)
      guard case .malformed = reason(resealed(bytes)) else {
        Issue.record("DAWG header field \(field) accepted")
        continue
      }
    }
  }

  @Test("ranked leaves (1.5): the header flag and the tree's ranked count must agree")
  func rankedCountAndFlagDisagree() throws {
    // 300 random words: some leaf has more than 16, so the blob has the flag.
    #expect(blob.uint32(at: 12) & BlobFormat.rankedLeavesFlag != 0)
    var unflagged = blob
    unflagged.setUInt32(blob.uint32(at: 12) & ~BlobFormat.rankedLeavesFlag, at: 12)
    #expect(reason(resealed(unflagged)) == .malformed("ranked count 16 without the blob header's ranked-leaves flag"))
    var uncounted = blob
    uncounted.setHeaderField(of: .prefixTree, at: 40, to: 0, width: 4)
    #expect(
      reason(resealed(uncounted))
        == .malformed("the blob header says leaves rank only their first words, but the ranked count is 0"))
  }

  @Test("narrow features (1.5): the header flag and the record size must agree")
  func narrowRecordSizeAndFlagDisagree() throws {
    #expect(blob.uint32(at: 12) & BlobFormat.narrowFeaturesFlag != 0)  // 26 keys: narrow
    var unflagged = blob
    unflagged.setUInt32(blob.uint32(at: 12) & ~BlobFormat.narrowFeaturesFlag, at: 12)
    #expect(
      reason(resealed(unflagged)) == .malformed("records of 3 bytes without the blob header's narrow-features flag"))
    var wide = blob
    wide.setHeaderField(of: .features, at: 12, to: 4, width: 4)
    #expect(reason(resealed(wide)) == .malformed("the blob header says the records are narrow, but they are 4 bytes"))
  }

  @Test("narrow features (1.5): a nonzero byte after the records fails verify")
  func narrowRecordsTrailingByte() throws {
    let entry = try #require(SwipeDictionary(bytes: blob).contents.section(.features))
    var bytes = blob
    bytes[Int(entry.offset + entry.length) - 1] = 1
    #expect(
      reason(bytes.resealed(section: .features), verify: true)
        == .malformed("the byte after the narrow records is not 0"))
  }

  @Test func frequencyColumnOfTheWrongLength() {
    var bytes = blob
    bytes.setHeaderField(of: .frequency, at: 0, to: bytes.uint64(at: headOffset(.frequency)) + 1, width: 8)
    guard case .malformed = reason(resealed(bytes)) else {
      Issue.record("frequency column accepted")
      return
    }
  }

  @Test func wrongSwipeSectionHeaders() {
    let cases: [(at: Int, value: UInt32, tag: SectionTag)] = [
      (0, 301, .features),  // word count
      (8, 25, .features),  // key count ≠ layout's 26
      (0, 301, .prefixTree),  // word count
      (8, 2, .prefixTree),  // node count: the parts no longer fill the section
      (16, 1001, .prefixTree),  // top count
      (24, 1 << 30, .prefixTree),  // leaf data size
      (0, 301, .bestLists),  // word count
      (8, 2, .bestLists),  // node count ≠ the tree's
      (12, 0, .bestLists),  // list length
      (16, 1 << 30, .bestLists),  // data size: the parts no longer fill the section
    ]
    for (at, value, tag) in cases {
      var bytes = blob
      bytes.setHeaderField(of: tag, at: at, to: UInt64(value), width: 4)
      do {
        _ = try SwipeDictionary(bytes: resealed(bytes))
        Issue.record("\(tag) header field at \(at) accepted")
      } catch {
        #expect("\(error)".contains("section \(tag)"), "\(error)")
        guard case .invalid(let formatError) = error, case .malformed = formatError.reason else {
          Issue.record("\(tag) field \(at): \(error)")
          continue
        }
      }
    }
  }

  /// Flips bytes inside FEAT, PTRE and BEST, reseals the section checksum so only the structural
  /// proof can notice, and checks that verify does while every query stays safe.
  @Test(arguments: [SectionTag.features, .prefixTree, .bestLists])
  func swipeSectionDamageIsFoundByVerify(tag: SectionTag) throws {
    let dictionary = try SwipeDictionary(bytes: blob)
    let entry = try #require(dictionary.contents.section(tag))
    var caught = 0
    var tried = 0
    // Every 41st byte, or at least 20 places in a small section.
    for delta in stride(from: 64, to: Int(entry.length), by: min(41, max(1, (Int(entry.length) - 64) / 20))) {
      var bytes = blob
      let at = Int(entry.offset) + delta
      bytes[at] ^= 0x5A
      let sealed = bytes.resealed(section: tag)
      guard let damaged = try? SwipeDictionary(bytes: sealed) else { continue }
      tried += 1
      fuzzSwipeQueries(damaged, probes: ["a", "ab", "Ämse", "zz"])
      if case .malformed = reason(sealed, verify: true) { caught += 1 }
    }
    #expect(tried > 10)
    #expect(caught == tried, "\(caught) of \(tried) damaged \(tag) sections caught")
  }

  @Test func errorsNameTheSectionAndOffset() {
    var bytes = blob
    let at = Int(blob.uint64(at: entryOffset(.frequency) + 8))
    bytes.setHeaderField(of: .frequency, at: 0, to: 12345, width: 8)
    do {
      _ = try SwipeDictionary(bytes: resealed(bytes))
      Issue.record("accepted")
    } catch {
      // A header wrong in the section and its copy alike is named by its place in the section.
      #expect("\(error)".contains("section FREQ at byte \(at)"), "\(error)")
    }
  }

  /// A header whose copy alone is damaged (the section is intact): open refuses it and the
  /// error names the copy's byte, not the section's.
  @Test(arguments: [SectionTag.dawg, .frequency, .features, .prefixTree, .bestLists])
  func damagedHeadCopyIsNamedAtOpen(tag: SectionTag) throws {
    var bytes = blob
    let head = headOffset(tag)
    bytes.setUInt32(bytes.uint32(at: head) &+ 1, at: head)  // the word count (or DAWG's)
    guard case .badSectionTable(let detail) = reason(resealed(bytes)) else {
      Issue.record("\(tag): a damaged copy was not named: \(String(describing: reason(resealed(bytes))))")
      return
    }
    #expect(detail.contains("copy"))
    do {
      _ = try SwipeDictionary(bytes: resealed(bytes))
    } catch {
      #expect("\(error)".contains("section \(tag) at byte \(head)"), "\(error)")
    }
  }

  /// The loader reads the fixed headers from the table's copies; damage to a section's own
  /// header leaves open working and is found by verify: by the section's checksum, or, with
  /// that checksum rewritten, by comparing the copy.
  @Test(arguments: [SectionTag.dawg, .frequency, .features, .prefixTree, .bestLists])
  func sectionHeadDamageIsFoundByVerify(tag: SectionTag) throws {
    let offset = Int(blob.uint64(at: entryOffset(tag) + 8))
    var bytes = blob
    bytes[offset] ^= 0x01
    #expect(reason(bytes) == nil)
    guard case .sectionChecksumMismatch = reason(bytes, verify: true) else {
      Issue.record("a flip in the head of \(tag) not found by verify")
      return
    }
    let sealed = bytes.resealed(section: tag)
    #expect(reason(sealed) == nil)
    guard case .badSectionTable(let detail) = reason(sealed, verify: true) else {
      Issue.record("a head of \(tag) that differs from its copy passed verify")
      return
    }
    #expect(detail.contains("copy"))
  }

  /// Blobs of format 1.3 and before have 32-byte table entries without head copies: the
  /// loader reads the headers from the sections, and still rejects a damaged one at open.
  @Test func blobsWithoutHeadCopies() throws {
    let bytes = [UInt8](
      try Data(contentsOf: repositoryRoot.appendingPathComponent("Fuzz/Corpus/small-1.3-best.swipedict")))
    #expect(bytes.uint32(at: 28) == 32)
    let dictionary = try SwipeDictionary(bytes: bytes, verify: true)
    #expect(dictionary.formatVersion == FormatVersion(major: 1, minor: 3))
    for id in [0, dictionary.wordCount / 2, dictionary.wordCount - 1] {
      let word = try #require(dictionary.word(for: id))
      #expect(dictionary.id(of: word) == id)
    }
    #expect(!dictionary.completions(prefix: "a", limit: 3).isEmpty)
    // The FREQ word count, in the section itself, is checked at open.
    let at = try #require(bytes.headOffset(of: .frequency))
    #expect(at == Int(bytes.uint64(at: bytes.entryOffset(of: .frequency)! + 8)))
    var damaged = bytes
    damaged.setUInt64(bytes.uint64(at: at) + 1, at: at)
    guard case .malformed = reason(damaged) else {
      Issue.record("a damaged FREQ header of a 1.3 blob was accepted at open")
      return
    }
  }

  @Test func fileErrorsNameThePath() {
    do {
      _ = try SwipeDictionary(contentsOf: "/nonexistent/x.swipedict")
      Issue.record("opened a missing file")
    } catch {
      #expect("\(error)".contains("/nonexistent/x.swipedict"))
      #expect("\(error)".contains("No such file"))
    }
  }
}
