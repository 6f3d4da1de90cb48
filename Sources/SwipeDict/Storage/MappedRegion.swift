#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Owns the bytes of one blob: a read-only memory mapping of a file, or a heap copy.
///
/// A mapping is `PROT_READ`/`MAP_PRIVATE`, so its pages stay clean and the system can evict
/// them under memory pressure (a keyboard extension is charged for dirty memory, not for
/// clean mapped pages). The region is immutable after creation and unmapped in `deinit`;
/// views into it (`UnsafeByteView`) must not outlive it, which `SwipeDictionary` ensures by
/// holding the region.
final class MappedRegion: @unchecked Sendable {
  /// The blob's bytes.
  let bytes: UnsafeByteView
  /// What to release in `deinit`: a mapping, a heap buffer, or nothing (an empty file).
  private enum Owned {
    case mapping(UnsafeRawPointer, Int)
    case heap(UnsafeMutableRawPointer)
    case nothing
  }
  private let owned: Owned

  /// Maps a file read-only.
  /// - Throws: `SwipeDictError.io` when the file cannot be opened, sized or mapped.
  init(path: String) throws(SwipeDictError) {
    let fd = try Syscalls.openReadOnly(path)
    defer { _ = close(fd) }
    let size = try Syscalls.fileSize(fd, path: path)
    if size == 0 {
      bytes = UnsafeByteView(base: nil, count: 0)
      owned = .nothing
      return
    }
    let base = try Syscalls.mapReadOnly(fd, size: size, path: path)
    bytes = UnsafeByteView(base: base, count: size)
    owned = .mapping(base, size)
  }

  /// Copies bytes into a 64-byte-aligned heap buffer (for blobs that are not files).
  init(copying source: UnsafeRawBufferPointer) {
    guard source.count > 0, let from = source.baseAddress else {
      bytes = UnsafeByteView(base: nil, count: 0)
      owned = .nothing
      return
    }
    let buffer = UnsafeMutableRawPointer.allocate(
      byteCount: source.count, alignment: BlobFormat.sectionAlignment)
    buffer.copyMemory(from: from, byteCount: source.count)
    bytes = UnsafeByteView(base: UnsafeRawPointer(buffer), count: source.count)
    owned = .heap(buffer)
  }

  deinit {
    switch owned {
    case .mapping(let base, let size): munmap(UnsafeMutableRawPointer(mutating: base), size)
    case .heap(let buffer): buffer.deallocate()
    case .nothing: break
    }
  }
}
