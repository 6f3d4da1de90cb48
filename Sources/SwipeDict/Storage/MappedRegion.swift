@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
  ///
  /// The file is opened without blocking (`O_NONBLOCK`): a FIFO nobody writes to would hold
  /// `open` forever; anything but a regular file is then refused, named. (A regular file's
  /// reads and its mapping ignore the flag.)
  /// - Throws: `SwipeDictError.io` when the file cannot be opened, sized or mapped.
  init(path: String) throws(SwipeDictError) {
    let file: FileDescriptor
    do throws(Errno) {
      file = try .open(path, .readOnly, options: [.closeOnExec, .nonBlocking])
    } catch {
      throw .io(path: path, message: "cannot open: \(error)")
    }
    defer { file.closeIgnoringFailure() }
    let size = try Self.regularFileSize(file, path: path)
    if size == 0 {
      bytes = UnsafeByteView(base: nil, count: 0)
      owned = .nothing
      return
    }
    let base = try Self.mapReadOnly(file, size: size, path: path)
    bytes = UnsafeByteView(base: base, count: size)
    owned = .mapping(base, size)
  }

  /// The size of an open regular file (`fstat`); anything else is refused, named.
  private static func regularFileSize(_ file: FileDescriptor, path: String) throws(SwipeDictError) -> Int {
    let status: Stat
    do throws(Errno) {
      status = try file.stat()
    } catch {
      throw .io(path: path, message: "cannot stat: \(error)")
    }
    guard status.type == .regular else {
      throw .io(
        path: path,
        message: "not a regular file (\(kind(of: status.type))): a blob is a file; give the path of a .swipedict file")
    }
    return Int(status.size)
  }

  /// What a file of type `type` is, in words ("a FIFO", "a directory").
  private static func kind(of type: FileType) -> String {
    switch type {
    case .directory: return "a directory"
    case .fifo: return "a FIFO or pipe"
    case .socket: return "a socket"
    case .characterSpecial: return "a character device"
    case .blockSpecial: return "a block device"
    case .symbolicLink: return "a symbolic link"
    default: return "not a regular file"
    }
  }

  /// `mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0)`.
  private static func mapReadOnly(_ file: FileDescriptor, size: Int, path: String) throws(SwipeDictError)
    -> UnsafeRawPointer
  {
    guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, file.rawValue, 0),
      address != MAP_FAILED
    else { throw .io(path: path, message: "cannot map: \(Errno(rawValue: errno))") }
    return UnsafeRawPointer(address)
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
