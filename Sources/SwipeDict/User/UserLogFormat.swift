@_spi(SwipeDictInternals) import SwipeDictFormat

/// The bytes of a user dictionary file: a header, then records appended one per write.
///
/// ```
/// header (32 bytes, little-endian)
///   0  8  magic "SWDUSER1"
///   8  2  major version (1; a reader refuses a larger one)
///  10  2  minor version (0; a reader accepts any, newer minors only add record types it skips)
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
/// length (past the end of the file) or the checksum exposes: readers stop before it and the
/// next writer cuts it off.
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
    /// A whole record whose checksum or contents are wrong.
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
        message: b.isEmpty ? "not a user dictionary (the file is empty)"
          : "not a user dictionary (it starts with \(start))",
        hint: "give the path of a file that `swipedict user` or UserDictionary created, or a new path")
    }
    guard b.count == headerSize else {
      throw UserDictionaryError(
        .damagedHeader, file: path,
        message: "the header is cut short (\(b.count) of \(headerSize) bytes)",
        hint: "the file is damaged; restore it from an export (`swipedict user FILE import`)")
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
        hint: "the file is damaged; restore it from an export (`swipedict user FILE import`)")
    }
    let capacity = Int(load32(b, 12))
    guard major == majorVersion, capacity > 0 else {
      throw UserDictionaryError(
        .damagedHeader, file: path,
        message: major == 0 ? "version 0 is not a version" : "the capacity is 0",
        hint: "the file is damaged; restore it from an export (`swipedict user FILE import`)")
    }
    return Header(capacity: capacity, baseSequence: load64(b, 16))
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

  /// Decodes the records in `bytes`, in order, up to the first that is incomplete or
  /// damaged.
  /// - Parameters:
  ///   - bytes: the bytes after the header (or after the records already read).
  ///   - body: receives each record and the offset in `bytes` just after it.
  /// - Returns: how many bytes were whole records, and why the rest (if any) was not read.
  static func decodeRecords(
    _ bytes: ArraySlice<UInt8>, _ body: (Record, Int) -> Void
  ) -> (consumed: Int, stop: Stop?) {
    var offset = bytes.startIndex
    let end = bytes.endIndex
    while offset < end {
      guard end - offset >= recordHeaderSize else { return (offset - bytes.startIndex, .incomplete) }
      let length = Int(load32(bytes, offset))
      guard length >= payloadFixedSize + 1, length <= maxPayload else {
        return (offset - bytes.startIndex, .damaged("a record length of \(length) bytes"))
      }
      guard end - offset - recordHeaderSize >= length else {
        return (offset - bytes.startIndex, .incomplete)
      }
      let payload = bytes[(offset + recordHeaderSize)..<(offset + recordHeaderSize + length)]
      var crc = CRC32C()
      crc.update(bytes[offset..<(offset + 4)])
      crc.update(payload)
      guard crc.value == load32(bytes, offset + 4) else {
        return (offset - bytes.startIndex, .damaged("a record's checksum is wrong"))
      }
      let p = payload.startIndex
      let wordBytes = payload[(p + payloadFixedSize)...]
      let sequence = load64(payload, p + 6)
      // String(validating:) needs iOS 18; a decode that replaced nothing is valid UTF-8.
      let word = String(decoding: wordBytes, as: UTF8.self)
      guard word.utf8.elementsEqual(wordBytes) else {
        return (offset - bytes.startIndex, .damaged("a record's word is not UTF-8"))
      }
      // What no store writes (a TAB, a newline, a `#` first, not NFC) must not load either:
      // export and import would break on it.
      guard let valid = try? UserWordRules.validate(word), valid.utf8.elementsEqual(wordBytes) else {
        return (offset - bytes.startIndex, .damaged("a record's word \(UserWordRules.quoted(word)) is not a valid word"))
      }
      let record: Record
      switch (payload[p], payload[p + 1]) {
      case (1, let kind):
        guard let kind = UserEntry.Kind(rawValue: kind) else {
          return (offset - bytes.startIndex, .damaged("a record has the unknown kind \(kind)"))
        }
        record = .set(UserEntry(word: word, kind: kind, uses: Int(load32(payload, p + 2)), lastUse: sequence))
      case (2, let why):
        record = .remove(word: word, sequence: sequence, evicted: why == 1)
      case (let type, _):
        return (offset - bytes.startIndex, .damaged("a record has the unknown type \(type)"))
      }
      offset += recordHeaderSize + length
      body(record, offset - bytes.startIndex)
    }
    return (offset - bytes.startIndex, nil)
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
