#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls the loader makes, one function each, with `-1 → errno` in one place.
enum Syscalls {
  /// `open(path, O_RDONLY | O_CLOEXEC)`, retried on EINTR.
  static func openReadOnly(_ path: String) throws(SwipeDictError) -> Int32 {
    while true {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      if fd >= 0 { return fd }
      if errno != EINTR { throw .io(path: path, message: "cannot open: \(errnoText())") }
    }
  }

  /// The size of an open regular file (`fstat`).
  static func fileSize(_ fd: Int32, path: String) throws(SwipeDictError) -> Int {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .io(path: path, message: "cannot stat: \(errnoText())") }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw .io(path: path, message: "not a regular file")
    }
    return Int(info.st_size)
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
