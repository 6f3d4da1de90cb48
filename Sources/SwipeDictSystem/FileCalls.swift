#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Opening, reading, writing (swift-system, with typed errors)

extension FileDescriptor {
  /// Opens `path` (`open(2)`), retried on EINTR.
  /// - Parameter permissions: the mode of a file `options` creates (`.create`).
  package static func open(
    _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: FilePermissions? = nil
  ) throws(Errno) -> FileDescriptor {
    try SystemCall.typed {
      try FileDescriptor.open(FilePath(path), mode, options: options, permissions: permissions)
    }
  }

  /// Reads at most `buffer.count` bytes at the file's offset (`read(2)`), retried on EINTR.
  /// - Returns: the number of bytes read; 0 at the end of the file.
  @inlinable
  package func readSome(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    try SystemCall.typed { try read(into: buffer) }
  }

  /// Reads `count` bytes at `offset` (`pread(2)`, again after a short read and on EINTR), fewer
  /// if the file ends first.
  @inlinable
  package func read(count: Int, at offset: Int) throws(Errno) -> [UInt8] {
    guard count > 0 else { return [] }
    var failure: Errno?
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      initialized = 0
      while initialized < count {
        let rest = UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[initialized...]))
        do throws(Errno) {
          let n = try SystemCall.typed { try read(fromAbsoluteOffset: Int64(offset + initialized), into: rest) }
          if n == 0 { return }
          initialized += n
        } catch {
          failure = error
          return
        }
      }
    }
    if let failure { throw failure }
    return bytes
  }

  /// Writes all of `bytes` at the file's offset (`write(2)`, again after a short write and on
  /// EINTR).
  @inlinable
  package func write(all bytes: some Sequence<UInt8>) throws(Errno) {
    _ = try SystemCall.typed { try writeAll(bytes) }
  }

  /// Writes all of `bytes` at `offset` (`pwrite(2)`, again after a short write and on EINTR).
  @inlinable
  package func write(all bytes: some Sequence<UInt8>, at offset: Int) throws(Errno) {
    _ = try SystemCall.typed { try writeAll(toAbsoluteOffset: Int64(offset), bytes) }
  }

  /// Cuts or extends the file to `size` bytes (`ftruncate(2)`), retried on EINTR.
  @inlinable
  package func truncate(to size: Int) throws(Errno) {
    try SystemCall.typed { try resize(to: Int64(size)) }
  }

  /// Closes the descriptor, reporting a failure (`close(2)`: a write-back error of some file
  /// systems shows only here). An EINTR is not a failure and is not retried: POSIX leaves the
  /// descriptor's state unspecified then, Linux releases it in every case (its `close(2)`), and
  /// a second `close` could close a descriptor another thread has just opened.
  package func closeReportingFailure() throws(Errno) {
    do throws(Errno) {
      try SystemCall.typed { try close() }
    } catch  where error == .interrupted {
      return
    }
  }

  /// Closes the descriptor, whatever happens (`close(2)`): for a descriptor only read from, or
  /// one given up after an error already reported.
  package func closeIgnoringFailure() {
    _ = try? close()
  }
}

// MARK: - What swift-system lacks: fcntl, flock, fsync, fchmod

extension FileDescriptor {
  /// Clears `O_NONBLOCK` (`fcntl(F_SETFL)`): a descriptor opened without blocking, so that a
  /// FIFO could not hold `open`, reads and writes as usual from here on. Best effort: a
  /// descriptor that refuses keeps its flags, and a later read tells.
  package func setBlocking() {
    let flags = fcntl(rawValue, F_GETFL)
    if flags != -1 { _ = fcntl(rawValue, F_SETFL, flags & ~O_NONBLOCK) }
  }

  /// Sets `FD_CLOEXEC` (`fcntl(F_SETFD)`): a program this process starts does not inherit it.
  package func setCloseOnExec() {
    _ = fcntl(rawValue, F_SETFD, FD_CLOEXEC)
  }

  /// Sets the file's permissions (`fchmod(2)`), retried on EINTR.
  package func setPermissions(_ permissions: FilePermissions) throws(Errno) {
    _ = try SystemCall.retryingOnInterrupt { fchmod(rawValue, permissions.rawValue) }
  }

  /// Tries to take the exclusive advisory lock of the file without waiting
  /// (`flock(LOCK_EX | LOCK_NB)`), retried on EINTR.
  /// - Returns: `false` when another open file description holds it (`EWOULDBLOCK`).
  /// - Throws: any other failure.
  @inlinable
  package func tryLock() throws(Errno) -> Bool {
    do throws(Errno) {
      _ = try SystemCall.retryingOnInterrupt { flock(rawValue, LOCK_EX | LOCK_NB) }
      return true
    } catch  where error == .wouldBlock || error == .resourceTemporarilyUnavailable {
      return false
    }
  }

  /// Releases the lock (`flock(LOCK_UN)`); closing the descriptor releases it too.
  @inlinable
  package func unlock() {
    _ = flock(rawValue, LOCK_UN)
  }

  /// Hands what the system holds of the file to the storage device (`fsync(2)`), retried on
  /// EINTR. On Apple systems the drive may still hold it in its cache:
  /// ``synchronizeToStorage()`` empties that too.
  package func synchronize() throws(Errno) {
    _ = try SystemCall.retryingOnInterrupt { fsync(rawValue) }
  }

  /// Which call of ``synchronizeToStorage()`` failed, and how.
  package struct SynchronizationFailure: Error, Equatable {
    /// `"F_FULLFSYNC"` or `"fsync"`.
    package var call: String
    /// Its errno.
    package var error: Errno
  }

  /// Flushes the file (or directory) to the storage medium itself, so that it survives a power
  /// loss, each call retried on EINTR.
  ///
  /// On Apple systems `fsync` only hands the data to the drive, whose cache may lose it on a
  /// power loss; `fcntl(F_FULLFSYNC)` also empties that cache (Apple's `fsync(2)` and
  /// `fcntl(2)` man pages), as SQLite does. A file system without it (`ENOTSUP`, `EINVAL`,
  /// `ENOTTY`: some network and FAT volumes) gets `fsync`, the most it offers; any other
  /// failure is thrown, never a silent fallback. Elsewhere `fsync`.
  package func synchronizeToStorage() throws(SynchronizationFailure) {
    #if canImport(Darwin)
      do throws(Errno) {
        _ = try SystemCall.retryingOnInterrupt { fcntl(rawValue, F_FULLFSYNC) }
        return
      } catch  where error == .notSupported || error == .invalidArgument || error == .inappropriateIOCTLForDevice {
        // fsync below.
      } catch {
        throw SynchronizationFailure(call: "F_FULLFSYNC", error: error)
      }
    #endif
    do throws(Errno) {
      try synchronize()
    } catch {
      throw SynchronizationFailure(call: "fsync", error: error)
    }
  }
}

// MARK: - Paths

/// The calls on paths that swift-system 1.8.1 lacks, and its `stat` with a `String`.
@usableFromInline
package enum FileSystem {
  /// The status of what `path` names (`stat(2)`; `lstat(2)` when `followingLinks` is false),
  /// retried on EINTR.
  ///
  /// Takes the path's C string as it is, without `FilePath`'s parsing (a store checks its path
  /// on every write).
  @inlinable
  package static func status(of path: String, followingLinks: Bool = true) throws(Errno) -> Stat {
    let result = path.withCString { cPath in
      Result { () throws(Errno) in try Stat(cPath, followTargetSymlink: followingLinks) }
    }
    return try result.get()
  }

  /// Whether `path` names something (`access(F_OK)`).
  package static func exists(_ path: String) -> Bool {
    accessFailure(path) == nil
  }

  /// Why `path` cannot be reached, or (`writable`) why this process may not create files in the
  /// directory `path` (`access(F_OK)`, `access(W_OK)`), retried on EINTR.
  /// - Returns: `nil` when it can; else the errno (`ENOENT`, `EACCES`, `EROFS`…).
  package static func accessFailure(_ path: String, writable: Bool = false) -> Errno? {
    do throws(Errno) {
      _ = try SystemCall.retryingOnInterrupt { access(path, writable ? W_OK : F_OK) }
      return nil
    } catch {
      return error
    }
  }

  /// Renames `source` over `destination`, atomically (`rename(2)`).
  package static func rename(_ source: String, over destination: String) throws(Errno) {
    #if canImport(Glibc)
      _ = try SystemCall.retryingOnInterrupt { Glibc.rename(source, destination) }
    #elseif canImport(Musl)
      _ = try SystemCall.retryingOnInterrupt { Musl.rename(source, destination) }
    #else
      _ = try SystemCall.retryingOnInterrupt { Darwin.rename(source, destination) }
    #endif
  }

  /// Makes `newPath` a second name of the file `existing` names (`link(2)`); fails with
  /// `EEXIST` when `newPath` exists.
  package static func link(_ existing: String, as newPath: String) throws(Errno) {
    _ = try SystemCall.retryingOnInterrupt { SwipeDictSystem.systemLink(existing, newPath) }
  }

  /// Removes the name `path` (`unlink(2)`).
  package static func remove(_ path: String) throws(Errno) {
    _ = try SystemCall.retryingOnInterrupt { unlink(path) }
  }

  /// Creates a new file from `template`, whose last six characters are `XXXXXX` (`mkstemp(3)`:
  /// `O_CREAT | O_EXCL`, so never an existing file, nor through a symbolic link someone put
  /// there), close-on-exec.
  /// - Returns: its descriptor (read-write) and its path.
  package static func makeTemporaryFile(template: String) throws(Errno) -> (FileDescriptor, path: String) {
    var bytes = Array(template.utf8CString)
    let fd = try SystemCall.retryingOnInterrupt {
      bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
        guard let start = buffer.baseAddress else { return -1 }
        return mkstemp(start)
      }
    }
    let descriptor = FileDescriptor(rawValue: fd)
    descriptor.setCloseOnExec()
    let path = bytes.withUnsafeBufferPointer { buffer in
      String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    return (descriptor, path)
  }

  /// The names in `directory` (`opendir(3)`, `readdir(3)`), `.` and `..` among them; `nil`
  /// when it cannot be read.
  package static func names(in directory: String) -> [String]? {
    guard let stream = opendir(directory) else { return nil }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      names.append(
        withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        })
    }
    return names
  }
}

/// `link(2)`, named apart from ``FileSystem/link(_:as:)``.
private func systemLink(_ existing: String, _ newPath: String) -> Int32 {
  link(existing, newPath)
}
