#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls the loader makes, one function each, with `-1 → errno` in one place.
enum Syscalls {
  /// `open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)`, retried on EINTR. Without blocking: a
  /// FIFO nobody writes to would hold `open` forever; ``fileSize(_:path:)`` then refuses it.
  /// (A regular file's reads and its mapping ignore the flag.)
  static func openReadOnly(_ path: String) throws(SwipeDictError) -> Int32 {
    while true {
      let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
      if fd >= 0 { return fd }
      if errno != EINTR { throw .io(path: path, message: "cannot open: \(errnoText())") }
    }
  }

  /// The size of an open regular file (`fstat`); anything else is refused, named.
  static func fileSize(_ fd: Int32, path: String) throws(SwipeDictError) -> Int {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .io(path: path, message: "cannot stat: \(errnoText())") }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw .io(
        path: path,
        message: "not a regular file (\(kind(of: info.st_mode))): a blob is a file; give the path of a .swipedict file")
    }
    return Int(info.st_size)
  }

  /// What a file of mode `mode` is, in words ("a FIFO", "a directory").
  static func kind(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a FIFO or pipe"
    case S_IFSOCK: return "a socket"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFLNK: return "a symbolic link"
    default: return "not a regular file"
    }
  }

  /// `mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0)`.
  static func mapReadOnly(_ fd: Int32, size: Int, path: String) throws(SwipeDictError)
    -> UnsafeRawPointer
  {
    guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
      address != MAP_FAILED
    else { throw .io(path: path, message: "cannot map: \(errnoText())") }
    return UnsafeRawPointer(address)
  }

  static func errnoText() -> String { String(cString: strerror(errno)) }
}
