/// A bounds-checked, read-only view of bytes that someone else owns.
///
/// This is the one type through which the loader reads blob bytes. Every `get` checks its
/// range against `count` and returns `nil` when it would read past the end, so no value
/// derived from untrusted bytes can make a read leave the buffer. Loads are unaligned and
/// little-endian.
///
/// It is "unsafe" only in its lifetime: it does not own its memory. Whoever creates it
/// (a `MappedRegion`, an `Array` inside `withUnsafeBytes`) must keep the bytes alive
/// and unchanged for as long as the view is used.
@_spi(SwipeDictInternals) public struct UnsafeByteView: @unchecked Sendable {
  /// The first byte (a static dummy when `count` is 0, never read then).
  @usableFromInline let base: UnsafeRawPointer
  /// The number of readable bytes.
  @_spi(SwipeDictInternals) public let count: Int

  /// Views `count` bytes at `base`.
  /// - Precondition: `count >= 0`, and `base` is non-nil when `count > 0`.
  @_spi(SwipeDictInternals) public init(base: UnsafeRawPointer?, count: Int) {
    precondition(count >= 0 && (count == 0 || base != nil), "invalid byte view")
    self.base = count == 0 ? UnsafeRawPointer(emptyByteViewStorage) : base!
    self.count = count
  }

  /// Views the bytes of a buffer.
  package init(_ buffer: UnsafeRawBufferPointer) {
    self.init(base: buffer.baseAddress, count: buffer.count)
  }

  /// Whether `length` bytes at `offset` lie inside the view (overflow-safe).
  @inlinable @inline(__always)
  @_spi(SwipeDictInternals) public func contains(offset: Int, length: Int) -> Bool {
    offset >= 0 && length >= 0 && offset <= count && length <= count &- offset
  }

  /// The byte at `offset`, or `nil` outside the view.
  @inlinable @inline(__always)
  @_spi(SwipeDictInternals) public func byte(at offset: Int) -> UInt8? {
    guard offset >= 0, offset < count else { return nil }
    return base.load(fromByteOffset: offset, as: UInt8.self)
  }

  /// The byte at `offset`, without a bounds check: for hot loops whose caller has already
  /// proved `0 <= offset < count` (say so in a comment at the call). Debug builds check.
  @inlinable @inline(__always)
  @_spi(SwipeDictInternals) public func uncheckedByte(at offset: Int) -> UInt8 {
    #if SWIPEDICT_INTERNAL_CHECKS
      precondition(offset >= 0 && offset < count, "unchecked read outside the view")
    #endif
    return base.load(fromByteOffset: offset, as: UInt8.self)
  }

  /// The little-endian `UInt32` at `offset`, without a bounds check: for hot loops whose
  /// caller has already proved `0 <= offset` and `offset + 4 <= count` (say so in a comment
  /// at the call). Debug builds check.
  @inlinable @inline(__always)
  @_spi(SwipeDictInternals) public func uncheckedUInt32(at offset: Int) -> UInt32 {
    #if SWIPEDICT_INTERNAL_CHECKS
      precondition(contains(offset: offset, length: 4), "unchecked read outside the view")
    #endif
    return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  /// A little-endian unsigned integer of `width` bytes (1 to 8) at `offset`, or `nil`.
  @inlinable @inline(__always)
  @_spi(SwipeDictInternals) public func unsigned(at offset: Int, width: Int) -> UInt64? {
    guard width >= 1, width <= 8, contains(offset: offset, length: width) else { return nil }
    if width <= 4, contains(offset: offset, length: 4) {
      // One unaligned load, masked to `width` bytes.
      let word = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
      return UInt64(word) & ((1 << UInt64(8 &* width)) &- 1)
    }
    var value: UInt64 = 0
    var i = width &- 1
    // safe: offset + width <= count was checked above.
    while i >= 0 {
      value = value << 8 | UInt64(base.load(fromByteOffset: offset &+ i, as: UInt8.self))
      i &-= 1
    }
    return value
  }

  /// A little-endian `UInt16` at `offset`, or `nil`.
  @inlinable @inline(__always)
  @_spi(SwipeDictInternals) public func uint16(at offset: Int) -> UInt16? {
    guard contains(offset: offset, length: 2) else { return nil }
    return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
  }

  /// A little-endian `UInt32` at `offset`, or `nil`.
  @inlinable @inline(__always)
  @_spi(SwipeDictInternals) public func uint32(at offset: Int) -> UInt32? {
    guard contains(offset: offset, length: 4) else { return nil }
    return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  /// A little-endian `UInt64` at `offset`, or `nil`.
  @inlinable @inline(__always)
  @_spi(SwipeDictInternals) public func uint64(at offset: Int) -> UInt64? {
    guard contains(offset: offset, length: 8) else { return nil }
    return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// A little-endian IEEE `Float` at `offset`, or `nil`.
  @inlinable
  @_spi(SwipeDictInternals) public func float32(at offset: Int) -> Float? {
    uint32(at: offset).map { Float(bitPattern: $0) }
  }

  /// A little-endian IEEE `Double` at `offset`, or `nil`.
  @inlinable
  @_spi(SwipeDictInternals) public func float64(at offset: Int) -> Double? {
    uint64(at: offset).map { Double(bitPattern: $0) }
  }

  /// The sub-view of `length` bytes at `offset`, or `nil` if it does not fit.
  @inlinable
  @_spi(SwipeDictInternals) public func slice(offset: Int, length: Int) -> UnsafeByteView? {
    guard contains(offset: offset, length: length) else { return nil }
    return UnsafeByteView(base: base + offset, count: length)
  }

  /// The bytes at `offset..<offset+length` copied into an array, or `nil`.
  package func bytes(offset: Int, length: Int) -> [UInt8]? {
    guard let part = slice(offset: offset, length: length) else { return nil }
    return part.withUnsafeBytes { Array($0) }
  }

  /// Calls `body` with the viewed bytes as a raw buffer.
  package func withUnsafeBytes<R, E: Error>(
    _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R {
    try body(UnsafeRawBufferPointer(start: base, count: count))
  }

  /// The unsigned LEB128 varint at `offset` and its size in bytes, or `nil` if it runs past
  /// the end or is longer than 9 bytes (more than 63 bits).
  @inlinable
  @_spi(SwipeDictInternals) public func varint(at offset: Int) -> (value: UInt64, size: Int)? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    var at = offset
    while shift < 63 {
      guard let byte = self.byte(at: at) else { return nil }
      value |= UInt64(byte & 0x7F) << shift
      at &+= 1
      if byte < 0x80 { return (value, at &- offset) }
      shift &+= 7
    }
    return nil
  }

  /// The CRC-32C of the viewed bytes.
  package var crc32c: UInt32 {
    withUnsafeBytes { CRC32C.checksum($0) }
  }
}

/// What an empty view points to: never read (every read is bounds-checked against 0) and
/// never written, so sharing it is safe.
nonisolated(unsafe) private let emptyByteViewStorage = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)

/// A growable little-endian byte buffer, for writing blobs and test fixtures.
package struct ByteWriter: Sendable {
  /// The bytes written so far.
  package private(set) var bytes: [UInt8] = []

  /// An empty buffer.
  package init() {}

  /// The number of bytes written.
  package var count: Int { bytes.count }

  /// Makes room for at least `capacity` bytes in all, so that writing that many allocates once.
  package mutating func reserveCapacity(_ capacity: Int) { bytes.reserveCapacity(capacity) }

  /// Appends one byte.
  package mutating func append(_ value: UInt8) { bytes.append(value) }
  /// Appends bytes.
  package mutating func append<S: Sequence<UInt8>>(contentsOf values: S) {
    bytes.append(contentsOf: values)
  }
  /// Appends a little-endian `UInt16`.
  package mutating func append(_ value: UInt16) { appendUnsigned(UInt64(value), width: 2) }
  /// Appends a little-endian `UInt32`.
  package mutating func append(_ value: UInt32) { appendUnsigned(UInt64(value), width: 4) }
  /// Appends a little-endian `UInt64`.
  package mutating func append(_ value: UInt64) { appendUnsigned(value, width: 8) }
  /// Appends a little-endian IEEE `Float`.
  package mutating func append(_ value: Float) { append(value.bitPattern) }
  /// Appends a little-endian IEEE `Double`.
  package mutating func append(_ value: Double) { append(value.bitPattern) }

  /// Appends the low `width` bytes of `value`, least significant first.
  /// - Precondition: `value` fits in `width` bytes.
  package mutating func appendUnsigned(_ value: UInt64, width: Int) {
    precondition(width >= 1 && width <= 8 && (width == 8 || value >> UInt64(width * 8) == 0))
    var v = value
    for _ in 0..<width {
      bytes.append(UInt8(truncatingIfNeeded: v))
      v >>= 8
    }
  }

  /// Appends `value` as an unsigned LEB128 varint (7 bits per byte, low bits first).
  package mutating func appendVarint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  /// Appends zero bytes until `count` is a multiple of `alignment`.
  package mutating func pad(toMultipleOf alignment: Int) {
    while bytes.count % alignment != 0 { bytes.append(0) }
  }

  /// Overwrites a little-endian `UInt32` at `offset`.
  package mutating func set(_ value: UInt32, at offset: Int) {
    for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> UInt32(8 * i)) }
  }

  /// Overwrites a little-endian `UInt64` at `offset`.
  package mutating func set(_ value: UInt64, at offset: Int) {
    for i in 0..<8 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> UInt64(8 * i)) }
  }
}
