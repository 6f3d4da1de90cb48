#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which file a path or descriptor names: device and inode. A compaction renames a new
/// file over the old one, which changes the identity the path names.
struct UserFileIdentity: Equatable {
  var device: UInt64
  var inode: UInt64
}

/// One open user dictionary file: the system calls the store makes, each with `-1 → errno`
/// in one place (``UserLogFile/check(_:_:)``) and EINTR retried.
///
/// The descriptor is closed in `deinit` (which also releases its lock). Reads and writes
/// take and return `[UInt8]`; the only pointers are inside the `withUnsafe…` closures
/// here, sized by the arrays they come from.
final class UserLogFile {
  /// The file's path (a temporary file's changes when it is renamed into place).
  private(set) var path: String
  private let descriptor: Int32
  /// Whether the file was opened for writing (a read-only file can still be read).
  let isWritable: Bool

  /// Opens an existing regular file, for reading and writing if allowed, else read-only.
  ///
  /// A symbolic link is refused (`O_NOFOLLOW`): a compaction renames a new file over the
  /// path, which would replace the link and leave its target behind, two files diverging.
  /// So is anything but a regular file (a FIFO, a directory, a device): opened without
  /// blocking, and named.
  /// - Parameter allowingLinks: accept a file with other hard links (reading only: salvage).
  init(path: String, allowingLinks: Bool = false) throws(UserDictionaryError) {
    self.path = path
    let flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
    var fd = Self.retrying { open(path, O_RDWR | flags) }
    var writable = true
    if fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM || errno == EISDIR) {
      fd = Self.retrying { open(path, O_RDONLY | flags) }
      writable = false
    }
    if fd < 0 && errno == ELOOP {
      var info = stat()
      if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK {
        throw UserDictionaryError(
          .notAUserDictionary, file: path,
          message: "the path is a symbolic link; a user dictionary must be opened by its own path",
          hint: "give the path of the file the link points to (a compaction renames a new file over the path, "
            + "which would replace the link)")
      }
    }
    guard fd >= 0 else { throw Self.failure(path, "open") }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      let kind: String
      switch info.st_mode & S_IFMT {
      case S_IFDIR: kind = "a directory"
      case S_IFIFO: kind = "a FIFO"
      case S_IFSOCK: kind = "a socket"
      case S_IFCHR, S_IFBLK: kind = "a device"
      default: kind = "not a regular file"
      }
      close(fd)
      throw UserDictionaryError(
        .notAUserDictionary, file: path, message: "not a regular file (\(kind))",
        hint: "give the path of a user dictionary file, or of a new file in an existing directory")
    }
    // A hard link is another path to this file: a compaction renames a new file over this
    // path, and the other path would keep the old file, two files diverging (as with a
    // symbolic link). A store's own temporary file is a second link while it is being created
    // (`createIfMissing` links it to the path, then unlinks it), or after its creator was
    // killed in between: that one is fine, and removed by the next store as stale.
    if !allowingLinks && info.st_nlink > 1 && !Self.isOwnTemporaryLink(of: path, inode: info.st_ino, links: info.st_nlink) {
      close(fd)
      throw UserDictionaryError(
        .notAUserDictionary, file: path,
        message: "the file has \(info.st_nlink) hard links; a user dictionary must have one path only",
        hint: "copy the file to a path of its own (cp \(path) NEW) and open that: a compaction replaces the file at "
          + "this path by a new one, which the other links would not see")
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    descriptor = fd
    isWritable = writable
  }

  /// Whether every link of the file but `path` is a temporary file of the store at `path`
  /// (`.NAME.new-XXXXXX`, `.NAME.compacting-XXXXXX` with the same inode).
  private static func isOwnTemporaryLink(of path: String, inode: ino_t, links: nlink_t) -> Bool {
    let (directory, prefix) = temporaryPrefix(of: path)
    guard let stream = opendir(directory) else { return false }
    defer { closedir(stream) }
    var found: nlink_t = 1
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard name.hasPrefix(prefix), temporarySuffixes.contains(where: { name.dropFirst(prefix.count).hasPrefix($0) })
      else { continue }
      var info = stat()
      if lstat("\(directory)/\(name)", &info) == 0 && info.st_ino == inode { found += 1 }
    }
    return found == links
  }

  /// Takes over a descriptor (of a file just written).
  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
    isWritable = true
  }

  deinit { close(descriptor) }

  /// Creates `path` with `contents` unless it exists, atomically: the contents are written
  /// to a temporary file beside it and linked to `path` (which fails if `path` appeared in
  /// the meantime: another process created it, and its file is kept). The temporary file
  /// is removed; one left by a process killed here is removed by the next store that opens
  /// the file for writing (``removeStaleTemporaries(of:)``).
  /// - Parameter durable: also flush the directory, so that the new file survives a power loss.
  /// - Returns: whether this call created the file.
  @discardableResult
  static func createIfMissing(_ path: String, contents: [UInt8], durable: Bool) throws(UserDictionaryError) -> Bool {
    if access(path, F_OK) == 0 { return false }
    let temporary = try writeTemporary(beside: path, suffix: "new", contents: contents)
    defer { unlink(temporary.path) }
    // A store that opened the file meanwhile may have removed our temporary file as stale:
    // then `path` exists, which is all we wanted.
    if link(temporary.path, path) != 0 && errno != EEXIST && access(path, F_OK) != 0 {
      throw failure(path, "create")
    }
    if durable { try synchronizeDirectory(of: path) }
    return true
  }

  /// The directory of `path` and the prefix of its temporary files (`.NAME.`).
  private static func temporaryPrefix(of path: String) -> (directory: String, prefix: String) {
    let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    return (directory(of: path), ".\(name).")
  }

  /// The suffixes of the temporary files a store writes beside its file.
  private static let temporarySuffixes = ["new-", "compacting-"]

  /// Writes `contents` to a new temporary file beside `path` (same directory, so it can be
  /// renamed over it), flushed to disk.
  /// - Parameters:
  ///   - path: the file the temporary one stands in for.
  ///   - suffix: names the temporary file `.NAME.SUFFIX-XXXXXX`, the last part random
  ///     (`mkstemp`: created with `O_CREAT | O_EXCL`, so never an existing file, nor
  ///     through a symbolic link someone put there).
  ///   - contents: the bytes.
  /// - Returns: the open file (read-write), named by its temporary path.
  static func writeTemporary(beside path: String, suffix: String, contents: [UInt8])
    throws(UserDictionaryError) -> UserLogFile
  {
    let (directory, prefix) = temporaryPrefix(of: path)
    let template = "\(directory)/\(prefix)\(suffix)-XXXXXX"
    var bytes = Array(template.utf8CString)
    let fd = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let start = buffer.baseAddress else { return -1 }
      return mkstemp(start)
    }
    guard fd >= 0 else {
      // Name the user's file, not our temporary one.
      if errno == ENOENT {
        throw UserDictionaryError(
          .io, file: path, message: "cannot create the file: the directory \(directory) does not exist",
          hint: "create the directory first, or give a path in an existing one")
      }
      let reason = String(cString: strerror(errno))
      var error = failure(path, "write")  // its hint, by errno
      error.message = "cannot create a file in \(directory): \(reason)"
      throw error
    }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    let temporaryPath = bytes.withUnsafeBufferPointer { buffer in
      String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    let file = UserLogFile(path: temporaryPath, descriptor: fd)
    do throws(UserDictionaryError) {
      _ = fchmod(fd, 0o644)
      try file.write(contents, at: 0)
      try file.synchronize()
    } catch {
      unlink(temporaryPath)
      throw error
    }
    return file
  }

  /// Removes the temporary files of the store at `path` (`.NAME.new-XXXXXX`,
  /// `.NAME.compacting-XXXXXX`) that processes killed while writing them left. Called
  /// under the file's lock, so no compaction is writing one; a creator whose file is
  /// removed finds `path` created (``createIfMissing(_:contents:)``).
  /// - Returns: the names removed.
  @discardableResult
  static func removeStaleTemporaries(of path: String) -> [String] {
    let (directory, prefix) = temporaryPrefix(of: path)
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var stale: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard name.hasPrefix(prefix) else { continue }
      let rest = name.dropFirst(prefix.count)
      for suffix in temporarySuffixes where rest.hasPrefix(suffix) && rest.utf8.count == suffix.utf8.count + 6 {
        stale.append(name)
      }
    }
    return stale.filter { unlink("\(directory)/\($0)") == 0 }
  }

  /// The identity and size of the open file (`fstat`).
  func status() throws(UserDictionaryError) -> (identity: UserFileIdentity, size: Int) {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw Self.failure(path, "stat") }
    return (Self.identity(info), Int(info.st_size))
  }

  /// The identity of the file `path` names now (`stat`), or `nil` if there is none.
  static func identity(of path: String) -> UserFileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return identity(info)
  }

  /// `dev_t` is signed on Apple systems: its bits, not its value.
  private static func identity(_ info: stat) -> UserFileIdentity {
    UserFileIdentity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
  }

  /// Reads `count` bytes at `offset`, fewer if the file ends first (`pread`).
  func read(count: Int, at offset: Int) throws(UserDictionaryError) -> [UInt8] {
    guard count > 0 else { return [] }
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = 0
      guard let base = buffer.baseAddress else { return }
      while initialized < count {
        let n = pread(descriptor, base + initialized, count - initialized, off_t(offset + initialized))
        if n > 0 {
          initialized += n
        } else if n == 0 {
          return
        } else if errno != EINTR {
          failed = true
          return
        }
      }
    }
    if failed { throw Self.failure(path, "read") }
    return bytes
  }

  /// Writes all of `bytes` at `offset` (`pwrite`, repeated after a short write).
  func write(_ bytes: [UInt8], at offset: Int) throws(UserDictionaryError) {
    var failed = false
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var done = 0
      while done < buffer.count {
        let n = pwrite(descriptor, base + done, buffer.count - done, off_t(offset + done))
        if n >= 0 {
          done += n
        } else if errno != EINTR {
          failed = true
          return
        }
      }
    }
    if failed { throw Self.failure(path, "write") }
  }

  /// Cuts the file to `size` bytes (`ftruncate`).
  func truncate(to size: Int) throws(UserDictionaryError) {
    guard Self.retrying({ ftruncate(descriptor, off_t(size)) }) == 0 else {
      throw Self.failure(path, "truncate")
    }
  }

  /// Flushes the file's data to the storage device (``flush(_:path:what:)``).
  func synchronize() throws(UserDictionaryError) {
    try Self.flush(descriptor, path: path, what: "the file")
  }

  /// Flushes what an open file or directory holds to the storage device, retried on EINTR.
  ///
  /// On Apple systems `fsync` only hands the data to the drive, whose cache may lose it on a
  /// power loss; `fcntl(F_FULLFSYNC)` also empties that cache (Apple's `fsync(2)` man page), for
  /// the directory too, as SQLite does. A file system without it (`ENOTSUP`, `EINVAL`, `ENOTTY`:
  /// some network and FAT volumes) gets `fsync`, the most it offers. Any other failure is an
  /// error, never a silent fallback. Elsewhere `fsync`; a directory whose file system cannot
  /// flush directories (`EINVAL`) is left as it is.
  static func flush(_ descriptor: Int32, path: String, what: String) throws(UserDictionaryError) {
    #if canImport(Darwin)
      if retrying({ fcntl(descriptor, F_FULLFSYNC) }) == 0 { return }
      guard errno == ENOTSUP || errno == EINVAL || errno == ENOTTY else {
        throw failure(path, "flush \(what) (F_FULLFSYNC)")
      }
    #endif
    guard retrying({ fsync(descriptor) }) == 0 else {
      if what == "the directory" && errno == EINVAL { return }
      throw failure(path, "flush \(what) (fsync)")
    }
  }

  /// Takes the exclusive advisory lock of the file (`flock(LOCK_EX | LOCK_NB)`), trying again
  /// with pauses of 1 to 16 ms until `limit` has passed.
  ///
  /// Never an unbounded wait: on iOS a process suspended while it holds the lock (the app,
  /// mid-compaction) holds it until the system kills it, and a keyboard extension blocked on
  /// it meanwhile would be killed by its watchdog.
  /// - Throws: ``UserDictionaryError/Reason/busy`` when another process still holds the lock
  ///   at `limit`; `.io` when the call fails otherwise.
  func lock(waitingAtMost limit: Duration) throws(UserDictionaryError) {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    var pause = Duration.milliseconds(1)
    while true {
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
      if errno == EINTR { continue }
      guard errno == EWOULDBLOCK || errno == EAGAIN else { throw Self.failure(path, "lock") }
      let left = clock.now.duration(to: deadline)
      guard left > .zero else {
        throw UserDictionaryError(
          .busy, file: path,
          message: "another process has held the file's lock for more than \(limit) (an app suspended while it "
            + "writes?)",
          hint: "try the write again later; a keyboard extension can keep the word and write it with the next one")
      }
      Self.sleep(min(pause, left))
      pause = min(pause * 2, .milliseconds(16))
    }
  }

  private static func sleep(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }

  /// Releases the lock (`flock(LOCK_UN)`); closing the descriptor releases it too.
  func unlock() {
    _ = flock(descriptor, LOCK_UN)
  }

  /// Renames this (temporary) file over `destination`, which becomes its path.
  func rename(over destination: String) throws(UserDictionaryError) {
    #if canImport(Glibc)
      let result = Glibc.rename(path, destination)
    #elseif canImport(Musl)
      let result = Musl.rename(path, destination)
    #else
      let result = Darwin.rename(path, destination)
    #endif
    guard result == 0 else {
      let error = Self.failure(destination, "replace (rename)")
      unlink(path)
      throw error
    }
    path = destination
  }

  /// Removes the file's path (a temporary file given up).
  func remove() { unlink(path) }

  /// Flushes the directory holding `path` (``flush(_:path:what:)``), so that a file created or
  /// renamed in it survives a power loss.
  static func synchronizeDirectory(of path: String) throws(UserDictionaryError) {
    let directory = directory(of: path)
    let fd = retrying { open(directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY) }
    guard fd >= 0 else { throw failure(directory, "open the directory to flush it") }
    defer { close(fd) }
    try flush(fd, path: directory, what: "the directory")
  }

  /// The directory holding `path` ("." for a bare name).
  static func directory(of path: String) -> String {
    let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    return directory.isEmpty ? "/" : directory
  }

  /// Whether the directory holding `path` exists but this process may not create files in it
  /// (`access(W_OK)` fails with `EACCES`, `EPERM` or `EROFS`): a read-only App Group container
  /// (a keyboard without Full Access), a read-only volume, a directory without write
  /// permission. A directory that does not exist is not read-only: creating the file there
  /// fails, naming it.
  static func isReadOnlyDirectory(holding path: String) -> Bool {
    access(directory(of: path), W_OK) != 0 && (errno == EACCES || errno == EPERM || errno == EROFS)
  }

  /// Calls `body` again while it fails with EINTR.
  static func retrying(_ body: () -> Int32) -> Int32 {
    while true {
      let result = body()
      if result != -1 || errno != EINTR { return result }
    }
  }

  /// The error for a failed call, with `errno`'s text.
  static func failure(_ path: String, _ operation: String) -> UserDictionaryError {
    let reason = String(cString: strerror(errno))
    let hint: String
    switch errno {
    case ENOENT: hint = "check the path; the directory must exist"
    case EACCES, EPERM, EROFS: hint = "check the permissions of the file and its directory"
    case ENOSPC, EDQUOT: hint = "free some space on the device"
    default: hint = "check the file and its directory"
    }
    return UserDictionaryError(.io, file: path, message: "cannot \(operation) the file: \(reason)", hint: hint)
  }
}
