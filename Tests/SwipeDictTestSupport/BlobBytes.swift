@_spi(SwipeDictInternals) import SwipeDictFormat

/// Reading and editing a blob's bytes in tests that damage blobs on purpose: little-endian
/// fields, where a section's table entry and its head copy are, and resealing the checksums
/// so that the damage reaches the check under test.
extension [UInt8] {
  package func uint32(at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
  }

  package func uint64(at offset: Int) -> UInt64 {
    (0..<8).reduce(0) { $0 | UInt64(self[offset + $1]) << (8 * $1) }
  }

  package mutating func setUInt32(_ value: UInt32, at offset: Int) {
    for i in 0..<4 { self[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
  }

  package mutating func setUInt64(_ value: UInt64, at offset: Int) {
    for i in 0..<8 { self[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
  }

  /// Where the section table's entry for `tag` starts (the entry size from the header).
  package func entryOffset(of tag: SectionTag) -> Int? {
    let entrySize = Int(uint32(at: 28))
    return (0..<Int(uint32(at: 24))).map { 64 + entrySize * $0 }.first { uint32(at: $0) == tag.rawValue }
  }

  /// Where the loader reads the fixed header of `tag` at open: the table's copy of the
  /// section's first 64 bytes (format 1.4), or the section itself in older blobs.
  package func headOffset(of tag: SectionTag) -> Int? {
    guard let entry = entryOffset(of: tag) else { return nil }
    let version = (major: Int(self[8]) | Int(self[9]) << 8, minor: Int(self[10]) | Int(self[11]) << 8)
    return version >= (1, 4) ? entry + 32 : Int(uint64(at: entry + 8))
  }

  /// Writes `value` (little-endian, `width` bytes) into the fixed header of section `tag`, at
  /// `field`: in the section and, in a 1.4 blob, in the table's copy, so that the header is
  /// wrong where open reads it and where verify compares it.
  package mutating func setHeaderField(of tag: SectionTag, at field: Int, to value: UInt64, width: Int) {
    let entry = entryOffset(of: tag)!
    var places = [Int(uint64(at: entry + 8))]
    if let head = headOffset(of: tag), head != places[0] { places.append(head) }
    for place in places {
      for i in 0..<width { self[place + field + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }
  }

  /// The bytes after rewriting the checksum of section `tag` (if given) and then the header's.
  package func resealed(section tag: SectionTag? = nil) -> [UInt8] {
    var bytes = self
    if let tag, let entry = entryOffset(of: tag) {
      let offset = Int(uint64(at: entry + 8))
      let length = Int(uint64(at: entry + 16))
      bytes.setUInt32(CRC32C.checksum(bytes[offset..<(offset + length)]), at: entry + 24)
    }
    _ = BlobContainer.reseal(&bytes)
    return bytes
  }
}
