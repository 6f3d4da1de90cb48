@_spi(SwipeDictInternals) import SwipeDictFormat

/// The bytes of a user dictionary file: a header, then records appended one per write.
///
/// ```
/// header (32 bytes, little-endian)
///   0  8  magic "SWDUSER1"
///   8  2  major version (1; a reader refuses a larger one)
///  10  2  minor version (0; a reader accepts any, newer minors only add record types and
///         kinds, which it skips; an older writer's compaction drops them)
///  12  4  capacity: the most entries the store keeps (20,000 by default)
///  16  8  base sequence: the sequence number of the last write before this file was written
///         (a compacted file starts where its predecessor ended)
///  24  4  flags (0; reserved)
///  28  4  CRC-32C of bytes 0..<28
/// records, each
///   0  4  payload length n (1...maxPayload)
///   4  4  CRC-32C of the length field and the payload
///   8  n  payload:
///           0  1  type: 1 set an entry, 2 remove an entry
///           1  1  kind (set: 1 added, 2 learned, 3 blocked) or why (remove: 0 asked, 1 evicted)
///           2  4  uses (set; 0 for remove)
///           6  8  sequence number of this write (one more than the write before)
///          14  …  the word, UTF-8 (NFC), 1 to 256 bytes
/// ```
///
/// A set record holds the entry's whole state, so replaying the records in order gives the
/// state, and a record read twice or a compacted file give the same state. A record is
/// written with one `pwrite`; a writer killed during it leaves a prefix of it, which the
/// length (past the end of the file) exposes: readers stop before it and the next writer cuts
/// it off. A record whose checksum is right but whose type or kind a reader does not know
/// (a newer minor version's) is skipped. A damaged record (checksum wrong, or a word no store
/// writes) is skipped and reported, and the records after it are read: by its length when
/// that is possible and a record follows, else from the next offset where a whole record with
/// its checksum right starts. Nothing but an incomplete last record is ever cut off.
enum UserLogFormat {
  static let magic: [UInt8] = Array("SWDUSER1".utf8)
  static let majorVersion: UInt16 = 1
  static let minorVersion: UInt16 = 0
  static let headerSize = 32
  static let recordHeaderSize = 8
  /// The fixed part of a payload, before the word.
  static let payloadFixedSize = 14
  /// The longest word in bytes: 64 scalars of at most 4 bytes each.
  static let maxWordBytes = 256
  static let maxPayload = payloadFixedSize + maxWordBytes

  struct Header: Equatable {
    var capacity: Int
    var baseSequence: UInt64
  }

  /// What one record says.
  enum Record: Equatable {
    case set(UserEntry)
    case remove(word: String, sequence: UInt64, evicted: Bool)

    var sequence: UInt64 {
      switch self {
      case .set(let entry): return entry.lastUse
      case .remove(_, let sequence, _): return sequence
      }
    }
  }

  /// Why the records stop before the end of the file.
  enum Stop: Equatable {
    /// The last record runs past the end of the file: a write in flight, or one a killed
    /// writer left half done.
    case incomplete
    /// Damaged bytes (a length or checksum wrong) that no whole record follows.
    case damaged(String)
  }

  // MARK: Header

  static func encodeHeader(_ header: Header) -> [UInt8] {
    var bytes = magic
    append(&bytes, majorVersion)
    append(&bytes, minorVersion)
    append(&bytes, UInt32(clamping: header.capacity))
    append(&bytes, header.baseSequence)
    append(&bytes, UInt32(0))
    append(&bytes, CRC32C.checksum(bytes))
    return bytes
  }

  /// Reads a header.
  /// - Parameters:
  ///   - bytes: at least the first `headerSize` bytes of the file (fewer is an error).
  ///   - path: for errors.
  static func decodeHeader(_ bytes: ArraySlice<UInt8>, path: String) throws(UserDictionaryError) -> Header {
    let b = Array(bytes.prefix(headerSize))
    guard b.count >= magic.count, Array(b[0..<magic.count]) == magic else {
      let start = b.prefix(8).map { hex($0) }.joined(separator: " ")
      throw UserDictionaryError(
        .notAUserDictionary, file: path,
        message: b.isEmpty
          ? "not a user dictionary (the file is empty)"
          : "not a user dictionary (it starts with \(start))",
        hint: "give the path of a file that `swipedict user` or UserDictionary created, or a new path")
    }
    guard b.count == headerSize else {
      throw UserDictionaryError(
        .damagedHeader, file: path,
        message: "the header is cut short (\(b.count) of \(headerSize) bytes)",
        hint: damagedHint(path))
    }
    let major = UInt16(b[8]) | UInt16(b[9]) << 8
    if major > majorVersion {
      throw UserDictionaryError(
        .unsupportedVersion, file: path,
        message: "written by a newer version of the format (\(major), this reader knows \(majorVersion))",
        hint: "update SwipeDict, or export the words with the newer version and import them here")
    }
    guard load32(b, 28) == CRC32C.checksum(b[0..<28]) else {
      throw UserDictionaryError(
        .damagedHeader, file: path, message: "the header's checksum is wrong",
        hint: damagedHint(path))
    }
    let capacity = Int(clamping: load32(b, 12))
    guard major == majorVersion, capacity > 0, capacity <= UserDictionary.maximumCapacity else {
      throw UserDictionaryError(
        .damagedHeader, file: path,
        message: major == 0
          ? "version 0 is not a version"
          : "the capacity \(capacity) is not from 1 to \(UserDictionary.maximumCapacity)",
        hint: damagedHint(path))
    }
    return Header(capacity: capacity, baseSequence: load64(b, 16))
  }

  /// What to do about a damaged header: the records cannot be reached through it, so the
  /// file is set aside and an export imported into a new one.
  static func damagedHint(_ path: String) -> String {
    "the file is damaged: move it aside (mv \(path) \(path).damaged), then import your last export into a new "
      + "file (swipedict user \(path) import LIST); `swipedict user \(path).damaged salvage` lists the records "
      + "it still has"
  }

  // MARK: Records

  static func encode(_ record: Record, into bytes: inout [UInt8]) {
    let type: UInt8
    let second: UInt8
    let uses: UInt32
    let word: String
    switch record {
    case .set(let entry):
      (type, second, uses, word) = (1, entry.kind.rawValue, UInt32(clamping: entry.uses), entry.word)
    case .remove(let removed, _, let evicted):
      (type, second, uses, word) = (2, evicted ? 1 : 0, 0, removed)
    }
    let wordBytes = Array(word.utf8)
    precondition(!wordBytes.isEmpty && wordBytes.count <= maxWordBytes, "unvalidated word")
    let start = bytes.count
    append(&bytes, UInt32(payloadFixedSize + wordBytes.count))
    append(&bytes, UInt32(0))  // the checksum, filled in below
    bytes.append(type)
    bytes.append(second)
    append(&bytes, uses)
    append(&bytes, record.sequence)
    bytes.append(contentsOf: wordBytes)
    var crc = CRC32C()
    crc.update(bytes[start..<(start + 4)])
    crc.update(bytes[(start + 8)...])
    let value = crc.value
    for i in 0..<4 { bytes[start + 4 + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
  }

  /// The size of a record holding `word` (any type).
  static func recordSize(wordBytes: Int) -> Int { recordHeaderSize + payloadFixedSize + wordBytes }

  /// What ``decodeRecords(_:atEnd:_:)`` found in some bytes.
  struct Decoded {
    /// How many bytes were read: whole records, and the damaged bytes skipped.
    var consumed = 0
    /// The damaged bytes skipped, in order: where (in the bytes), how many, what is wrong.
    var damaged: [(offset: Int, count: Int, message: String)] = []
    /// Why the bytes after `consumed` were not read, or `nil` when all were (or, not at
    /// the end, when the rest must wait for the next bytes).
    var stop: Stop?
  }

  /// What is at one offset.
  private enum Parsed {
    /// A record this reader knows.
    case record(Record, size: Int)
    /// A whole record with its checksum right that this reader does not know (a type or
    /// kind of a newer minor version), or whose contents no store writes (`damage`).
    case skipped(size: Int, damage: String?)
    /// The record runs past the end of the bytes.
    case short
    /// The length is impossible or the checksum wrong; `length` is the payload length
    /// when it is a possible one.
    case bad(String, length: Int?)
  }

  /// The bytes a decoder looks at past a record before deciding about it: the record after
  /// a damaged one, or the next record start it scans for.
  static let lookahead = 2 * (recordHeaderSize + maxPayload)

  /// Decodes the records in `bytes`, in order.
  ///
  /// A whole record with its checksum right is read, or skipped when this reader does not
  /// know its type or kind (a newer minor version's). A damaged record (checksum wrong,
  /// length impossible, or a word no store writes) is skipped when what follows it is a
  /// record: by its length when that is possible, else at the next offset where a whole
  /// record with its checksum right starts. Only the bytes at the end that no record
  /// follows stop the decoding: a record running past the end (`.incomplete`: a write in
  /// flight, or one a killed writer left), or damaged bytes (`.damaged`).
  /// - Parameters:
  ///   - bytes: bytes of records (after the header, or after the records already read).
  ///   - atEnd: whether they run to the end of the file; if not, decoding stops
  ///     ``lookahead`` bytes before their end, to go on with the next bytes.
  ///   - body: receives each record.
  /// - Returns: what was read, skipped and why it stopped.
  static func decodeRecords(_ bytes: ArraySlice<UInt8>, atEnd: Bool, _ body: (Record) -> Void) -> Decoded {
    var result = Decoded()
    let start = bytes.startIndex
    let end = bytes.endIndex
    var offset = start
    /// Skips `count` damaged bytes.
    func skip(_ count: Int, _ message: String) {
      if let last = result.damaged.last, last.offset + last.count == offset - start {
        result.damaged[result.damaged.count - 1].count += count
      } else {
        result.damaged.append((offset - start, count, message))
      }
      offset += count
    }
    /// Whether a whole record with its checksum right starts at `position`.
    func isRecord(at position: Int) -> Bool {
      switch parse(bytes, at: position) {
      case .record, .skipped: return true
      case .short, .bad: return false
      }
    }
    /// The next offset after `offset` where a record starts: `nil` if none does before the
    /// end; not at the end, the last offset scanned when none does before the lookahead.
    func nextRecord() -> (position: Int, found: Bool)? {
      var position = offset + 1
      while position < end {
        if !atEnd && end - position < lookahead { return (position, false) }
        if isRecord(at: position) { return (position, true) }
        position += 1
      }
      return nil
    }
    while offset < end {
      if !atEnd && end - offset < lookahead { break }
      switch parse(bytes, at: offset) {
      case .record(let record, let size):
        body(record)
        offset += size
      case .skipped(let size, let damage):
        if let damage { skip(size, "a damaged record (\(damage))") } else { offset += size }
      case .short:
        guard let (next, _) = nextRecord() else {
          result.stop = .incomplete
          result.consumed = offset - start
          return result
        }
        skip(next - offset, "damaged bytes (a record cut short)")
      case .bad(let message, let length):
        if let length, offset + recordHeaderSize + length < end, isRecord(at: offset + recordHeaderSize + length) {
          skip(recordHeaderSize + length, "a damaged record (\(message))")
        } else if let (next, _) = nextRecord() {
          skip(next - offset, "damaged bytes (\(message))")
        } else {
          result.stop = .damaged(message)
          result.consumed = offset - start
          return result
        }
      }
    }
    result.consumed = offset - start
    return result
  }

  /// What is at `offset` in `bytes`.
  private static func parse(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Parsed {
    let end = bytes.endIndex
    guard end - offset >= recordHeaderSize else { return .short }
    let length = Int(truncatingIfNeeded: load32(bytes, offset))
    guard length >= payloadFixedSize + 1, length <= maxPayload else {
      return .bad("a record length of \(load32(bytes, offset)) bytes", length: nil)
    }
    guard end - offset - recordHeaderSize >= length else { return .short }
    let size = recordHeaderSize + length
    let payload = bytes[(offset + recordHeaderSize)..<(offset + size)]
    var crc = CRC32C()
    crc.update(bytes[offset..<(offset + 4)])
    crc.update(payload)
    guard crc.value == load32(bytes, offset + 4) else {
      return .bad("a record's checksum is wrong", length: length)
    }
    let p = payload.startIndex
    let wordBytes = payload[(p + payloadFixedSize)...]
    let sequence = load64(payload, p + 6)
    let type = payload[p]
    let second = payload[p + 1]
    // Newer minor versions may add types and kinds: skipped, as the header promises.
    guard type == 1 || type == 2 else { return .skipped(size: size, damage: nil) }
    guard type == 2 || UserEntry.Kind(rawValue: second) != nil else { return .skipped(size: size, damage: nil) }
    guard let word = String(validatingUTF8: wordBytes) else {
      return .skipped(size: size, damage: "its word is not UTF-8")
    }
    // What no store writes (a TAB, a newline, a `#` first, not NFC) must not load either:
    // export and import would break on it.
    guard let valid = try? UserWordRules.validate(word), valid.utf8.elementsEqual(wordBytes) else {
      return .skipped(size: size, damage: "its word \(UserWordRules.quoted(word)) is not a valid word")
    }
    if type == 2 { return .record(.remove(word: word, sequence: sequence, evicted: second == 1), size: size) }
    let kind = UserEntry.Kind(rawValue: second) ?? .added  // checked above
    let uses = Int(clamping: load32(payload, p + 2))
    return .record(.set(UserEntry(word: word, kind: kind, uses: uses, lastUse: sequence)), size: size)
  }

  // MARK: Little-endian helpers

  static func append(_ bytes: inout [UInt8], _ value: some FixedWidthInteger) {
    var v = value.littleEndian
    withUnsafeBytes(of: &v) { bytes.append(contentsOf: $0) }
  }

  /// The little-endian `UInt32` at `offset`; the caller has checked that 4 bytes are there.
  static func load32<C: RandomAccessCollection<UInt8>>(_ b: C, _ offset: C.Index) -> UInt32
  where C.Index == Int {
    UInt32(b[offset]) | UInt32(b[offset + 1]) << 8 | UInt32(b[offset + 2]) << 16
      | UInt32(b[offset + 3]) << 24
  }

  /// The little-endian `UInt64` at `offset`; the caller has checked that 8 bytes are there.
  static func load64<C: RandomAccessCollection<UInt8>>(_ b: C, _ offset: C.Index) -> UInt64
  where C.Index == Int {
    UInt64(load32(b, offset)) | UInt64(load32(b, offset + 4)) << 32
  }

  static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
  }
}
