#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import SwipeDictFormat

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
  private let mapped: Bool

  /// Maps a file read-only.
  /// - Throws: `SwipeDictError.io` when the file cannot be opened, sized or mapped.
  init(path: String) throws(SwipeDictError) {
    let fd = try Syscalls.openReadOnly(path)
    defer { _ = close(fd) }
    let size = try Syscalls.fileSize(fd, path: path)
    if size == 0 {
      bytes = UnsafeByteView(base: nil, count: 0)
      mapped = false
      return
    }
    bytes = UnsafeByteView(base: try Syscalls.mapReadOnly(fd, size: size, path: path), count: size)
    mapped = true
  }

  /// Copies bytes into a 64-byte-aligned heap buffer (for blobs that are not files).
  init(copying source: UnsafeRawBufferPointer) {
    mapped = false
    guard source.count > 0, let from = source.baseAddress else {
      bytes = UnsafeByteView(base: nil, count: 0)
      return
    }
    let buffer = UnsafeMutableRawPointer.allocate(
      byteCount: source.count, alignment: BlobFormat.sectionAlignment)
    buffer.copyMemory(from: from, byteCount: source.count)
    bytes = UnsafeByteView(base: UnsafeRawPointer(buffer), count: source.count)
  }

  deinit {
    guard let base = bytes.withUnsafeBytes({ $0.baseAddress }) else { return }
    if mapped {
      munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
    } else {
      UnsafeMutableRawPointer(mutating: base).deallocate()
    }
  }
}
