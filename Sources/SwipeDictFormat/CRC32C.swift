/// CRC-32C (Castagnoli, polynomial 0x1EDC6F41, reflected 0x82F63B78), the checksum of
/// every section and of the header.
///
/// The check value of the ASCII bytes `123456789` is `0xE3069283`. The software
/// implementation uses slicing-by-8 tables (8 KiB, built once).
///
/// ```swift
/// var crc = CRC32C()
/// crc.update(bytes)
/// let value = crc.value
/// ```
package struct CRC32C: Sendable, Hashable {
  private var state: UInt32 = 0xFFFF_FFFF

  /// A checksum of no bytes.
  package init() {}

  /// The checksum of the bytes fed so far.
  package var value: UInt32 { state ^ 0xFFFF_FFFF }

  /// Feeds bytes into the checksum.
  /// - Parameter bytes: the next bytes of the checksummed stream.
  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    var crc = state
    var index = 0
    let count = bytes.count
    CRC32CTables.table.withUnsafeBufferPointer { t in
      while count - index >= 8 {
        let lo = UInt32(littleEndianBytes: base + index) ^ crc
        let hi = UInt32(littleEndianBytes: base + index + 4)
        crc =
          t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
          ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
          ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
        index += 8
      }
      while index < count {
        let byte = base.load(fromByteOffset: index, as: UInt8.self)
        crc = t[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        index += 1
      }
    }
    state = crc
  }

  /// Feeds bytes into the checksum.
  /// - Parameter bytes: the next bytes of the checksummed stream.
  package mutating func update<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
      update(UnsafeRawBufferPointer(buffer))
    }
    if done == nil {
      let copy = Array(bytes)
      copy.withUnsafeBytes { update($0) }
    }
  }

  /// The checksum of one buffer.
  /// - Parameter bytes: the bytes to checksum.
  /// - Returns: their CRC-32C.
  package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc = CRC32C()
    crc.update(bytes)
    return crc.value
  }

  /// The checksum of one byte sequence.
  /// - Parameter bytes: the bytes to checksum.
  /// - Returns: their CRC-32C.
  package static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    var crc = CRC32C()
    crc.update(bytes)
    return crc.value
  }
}

private enum CRC32CTables {
  /// Eight 256-entry tables, slice k at `k * 256`.
  static let table: [UInt32] = {
    var t = [UInt32](repeating: 0, count: 8 * 256)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
      t[n] = c
    }
    for n in 0..<256 {
      var c = t[n]
      for k in 1..<8 {
        c = t[Int(c & 0xFF)] ^ (c >> 8)
        t[k * 256 + n] = c
      }
    }
    return t
  }()
}

extension UInt32 {
  /// Reads four little-endian bytes at an address with no alignment requirement.
  @inline(__always)
  fileprivate init(littleEndianBytes pointer: UnsafeRawPointer) {
    self = UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self))
  }
}
