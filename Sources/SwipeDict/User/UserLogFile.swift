import SwipeDictSystem

/// Which file a path or descriptor names: device and inode. A compaction renames a new
/// file over the old one, which changes the identity the path names.
struct UserFileIdentity: Equatable {
  var device: UInt64
  var inode: UInt64
}

/// One open user dictionary file: the system calls the store makes, through the package's
/// system-call layer (`SwipeDictSystem`: EINTR retried there), each failure turned into a
/// ``UserDictionaryError`` naming the file in one place (``UserLogFile/failure(_:_:_:)``).
///
/// The descriptor is closed in `deinit` (which also releases its lock). Reads and writes
/// take and return `[UInt8]`.
final class UserLogFile {
  /// The file's path (a temporary file's changes when it is renamed into place).
  private(set) var path: String
  private let descriptor: FileDescriptor
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
    let options: FileDescriptor.OpenOptions = [.closeOnExec, .noFollow, .nonBlocking]
    var opened: Result<FileDescriptor, Errno> = Result { () throws(Errno) in
      try .open(path, .readWrite, options: options)
    }
    var writable = true
    if case .failure(let error) = opened,
      [.permissionDenied, .readOnlyFileSystem, .notPermitted, .isDirectory].contains(error)
    {
      opened = Result { () throws(Errno) in try .open(path, .readOnly, options: options) }
      writable = false
    }
    if case .failure(.tooManySymbolicLinkLevels) = opened,
      (try? FileSystem.status(of: path, followingLinks: false))?.type == .symbolicLink
    {
      throw UserDictionaryError(
        .notAUserDictionary, file: path,
        message: "the path is a symbolic link; a user dictionary must be opened by its own path",
        hint: "give the path of the file the link points to (a compaction renames a new file over the path, "
          + "which would replace the link)")
    }
    let fd: FileDescriptor
    switch opened {
    case .success(let descriptor): fd = descriptor
    case .failure(let error): throw Self.failure(path, "open", error)
    }
    let info = try? fd.stat()
    guard let info, info.type == .regular else {
      let kind: String
      switch info?.type {
      case .directory: kind = "a directory"
      case .fifo: kind = "a FIFO"
      case .socket: kind = "a socket"
      case .characterSpecial, .blockSpecial: kind = "a device"
      default: kind = "not a regular file"
      }
      fd.closeIgnoringFailure()
      throw UserDictionaryError(
        .notAUserDictionary, file: path, message: "not a regular file (\(kind))",
        hint: "give the path of a user dictionary file, or of a new file in an existing directory")
    }
    // A hard link is another path to this file: a compaction renames a new file over this
    // path, and the other path would keep the old file, two files diverging (as with a
    // symbolic link). A store's own temporary file is a second link while it is being created
    // (`createIfMissing` links it to the path, then unlinks it), or after its creator was
    // killed in between: that one is fine, and removed by the next store as stale.
    if !allowingLinks && info.linkCount > 1
      && !Self.isOwnTemporaryLink(of: path, inode: info.inode, links: info.linkCount)
    {
      fd.closeIgnoringFailure()
      throw UserDictionaryError(
        .notAUserDictionary, file: path,
        message: "the file has \(info.linkCount) hard links; a user dictionary must have one path only",
        hint: "copy the file to a path of its own (cp \(path) NEW) and open that: a compaction replaces the file at "
          + "this path by a new one, which the other links would not see")
    }
    fd.setBlocking()
    descriptor = fd
    isWritable = writable
  }

  /// Whether every link of the file but `path` is a temporary file of the store at `path`
  /// (`.NAME.new-XXXXXX`, `.NAME.compacting-XXXXXX` with the same inode).
  private static func isOwnTemporaryLink(of path: String, inode: Inode, links: Int) -> Bool {
    let (directory, prefix) = temporaryPrefix(of: path)
    guard let names = FileSystem.names(in: directory) else { return false }
    var found = 1
    for name in names {
      guard name.hasPrefix(prefix), temporarySuffixes.contains(where: { name.dropFirst(prefix.count).hasPrefix($0) })
      else { continue }
      if (try? FileSystem.status(of: "\(directory)/\(name)", followingLinks: false))?.inode == inode { found += 1 }
    }
    return found == links
  }

  /// Takes over a descriptor (of a file just written).
  private init(path: String, descriptor: FileDescriptor) {
    self.path = path
    self.descriptor = descriptor
    isWritable = true
  }

  deinit { descriptor.closeIgnoringFailure() }

  /// Creates `path` with `contents` unless it exists, atomically: the contents are written
  /// to a temporary file beside it and linked to `path` (which fails if `path` appeared in
  /// the meantime: another process created it, and its file is kept). The temporary file
  /// is removed; one left by a process killed here is removed by the next store that opens
  /// the file for writing (``removeStaleTemporaries(of:)``).
  /// - Parameter durable: also flush the directory, so that the new file survives a power loss.
  /// - Returns: whether this call created the file.
  @discardableResult
  static func createIfMissing(_ path: String, contents: [UInt8], durable: Bool) throws(UserDictionaryError) -> Bool {
    if FileSystem.exists(path) { return false }
    let temporary = try writeTemporary(beside: path, suffix: "new", contents: contents)
    defer { try? FileSystem.remove(temporary.path) }
    // A store that opened the file meanwhile may have removed our temporary file as stale:
    // then `path` exists, which is all we wanted.
    do throws(Errno) {
      try FileSystem.link(temporary.path, as: path)
    } catch {
      if error != .fileExists && !FileSystem.exists(path) { throw failure(path, "create", error) }
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
    let created: (FileDescriptor, path: String)
    do throws(Errno) {
      created = try FileSystem.makeTemporaryFile(template: "\(directory)/\(prefix)\(suffix)-XXXXXX")
    } catch {
      // Name the user's file, not our temporary one.
      if error == .noSuchFileOrDirectory {
        throw UserDictionaryError(
          .io, file: path, message: "cannot create the file: the directory \(directory) does not exist",
          hint: "create the directory first, or give a path in an existing one")
      }
      var problem = failure(path, "write", error)  // its hint, by errno
      problem.message = "cannot create a file in \(directory): \(error)"
      throw problem
    }
    let file = UserLogFile(path: created.path, descriptor: created.0)
    do throws(UserDictionaryError) {
      try? created.0.setPermissions(FilePermissions(rawValue: 0o644))
      try file.write(contents, at: 0)
      try file.synchronize()
    } catch {
      try? FileSystem.remove(created.path)
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
    var stale: [String] = []
    for name in FileSystem.names(in: directory) ?? [] {
      guard name.hasPrefix(prefix) else { continue }
      let rest = name.dropFirst(prefix.count)
      for suffix in temporarySuffixes where rest.hasPrefix(suffix) && rest.utf8.count == suffix.utf8.count + 6 {
        stale.append(name)
      }
    }
    return stale.filter { (try? FileSystem.remove("\(directory)/\($0)")) != nil }
  }

  /// The identity and size of the open file (`fstat`).
  func status() throws(UserDictionaryError) -> (identity: UserFileIdentity, size: Int) {
    do throws(Errno) {
      let info = try descriptor.stat()
      return (Self.identity(info), Int(info.size))
    } catch {
      throw Self.failure(path, "stat", error)
    }
  }

  /// The identity of the file `path` names now (`stat`), or `nil` if there is none.
  static func identity(of path: String) -> UserFileIdentity? {
    (try? FileSystem.status(of: path)).map(identity)
  }

  /// `dev_t` is signed on Apple systems: its bits, not its value.
  private static func identity(_ info: Stat) -> UserFileIdentity {
    UserFileIdentity(
      device: UInt64(truncatingIfNeeded: info.deviceID.rawValue), inode: UInt64(truncatingIfNeeded: info.inode.rawValue)
    )
  }

  /// Reads `count` bytes at `offset`, fewer if the file ends first (`pread`).
  func read(count: Int, at offset: Int) throws(UserDictionaryError) -> [UInt8] {
    do throws(Errno) {
      return try descriptor.read(count: count, at: offset)
    } catch {
      throw Self.failure(path, "read", error)
    }
  }

  /// Writes all of `bytes` at `offset` (`pwrite`, repeated after a short write).
  func write(_ bytes: [UInt8], at offset: Int) throws(UserDictionaryError) {
    do throws(Errno) {
      try descriptor.write(all: bytes, at: offset)
    } catch {
      throw Self.failure(path, "write", error)
    }
  }

  /// Cuts the file to `size` bytes (`ftruncate`).
  func truncate(to size: Int) throws(UserDictionaryError) {
    do throws(Errno) {
      try descriptor.truncate(to: size)
    } catch {
      throw Self.failure(path, "truncate", error)
    }
  }

  /// Flushes the file's data to the storage device (``flush(_:path:what:)``).
  func synchronize() throws(UserDictionaryError) {
    try Self.flush(descriptor, path: path, what: "the file")
  }

  /// Flushes what an open file or directory holds to the storage device
  /// (`FileDescriptor.synchronizeToStorage()`: `F_FULLFSYNC` on Apple systems, falling back on
  /// `fsync` where the file system lacks it; `fsync` elsewhere; EINTR retried). A directory
  /// whose file system cannot flush directories (`fsync` fails with `EINVAL`) is left as it is.
  static func flush(_ descriptor: FileDescriptor, path: String, what: String) throws(UserDictionaryError) {
    do throws(FileDescriptor.SynchronizationFailure) {
      try descriptor.synchronizeToStorage()
    } catch {
      if what == "the directory" && error.call == "fsync" && error.error == .invalidArgument { return }
      throw failure(path, "flush \(what) (\(error.call))", error.error)
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
      do throws(Errno) {
        if try descriptor.tryLock() { return }
      } catch {
        throw Self.failure(path, "lock", error)
      }
      let left = clock.now.duration(to: deadline)
      guard left > .zero else {
        throw UserDictionaryError(
          .busy, file: path,
          message: "another process has held the file's lock for more than \(limit) (an app suspended while it "
            + "writes?)",
          hint: "try the write again later; a keyboard extension can keep the word and write it with the next one")
      }
      SystemCall.sleep(for: min(pause, left))
      pause = min(pause * 2, .milliseconds(16))
    }
  }

  /// Releases the lock (`flock(LOCK_UN)`); closing the descriptor releases it too.
  func unlock() {
    descriptor.unlock()
  }

  /// Renames this (temporary) file over `destination`, which becomes its path.
  func rename(over destination: String) throws(UserDictionaryError) {
    do throws(Errno) {
      try FileSystem.rename(path, over: destination)
    } catch {
      try? FileSystem.remove(path)
      throw Self.failure(destination, "replace (rename)", error)
    }
    path = destination
  }

  /// Removes the file's path (a temporary file given up).
  func remove() { try? FileSystem.remove(path) }

  /// Flushes the directory holding `path` (``flush(_:path:what:)``), so that a file created or
  /// renamed in it survives a power loss.
  static func synchronizeDirectory(of path: String) throws(UserDictionaryError) {
    let directory = directory(of: path)
    let fd: FileDescriptor
    do throws(Errno) {
      fd = try .open(directory, .readOnly, options: [.closeOnExec, .directory])
    } catch {
      throw failure(directory, "open the directory to flush it", error)
    }
    defer { fd.closeIgnoringFailure() }
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
    let failure = FileSystem.accessFailure(directory(of: path), writable: true)
    return failure == .permissionDenied || failure == .notPermitted || failure == .readOnlyFileSystem
  }

  /// The error for a failed call, with `error`'s text.
  static func failure(_ path: String, _ operation: String, _ error: Errno) -> UserDictionaryError {
    let hint: String
    switch error {
    case .noSuchFileOrDirectory: hint = "check the path; the directory must exist"
    case .permissionDenied, .notPermitted, .readOnlyFileSystem:
      hint = "check the permissions of the file and its directory"
    case .noSpace, .diskQuotaExceeded: hint = "free some space on the device"
    default: hint = "check the file and its directory"
    }
    return UserDictionaryError(.io, file: path, message: "cannot \(operation) the file: \(error)", hint: hint)
  }
}
