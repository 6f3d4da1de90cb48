import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be written.
public enum FileWriteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The system refused (the reason included).
  case io(path: String, message: String)
  /// The output is one of the inputs (the same file under any name): writing it would
  /// destroy the input.
  case outputIsInput(output: String, input: String)

  /// `path: what is wrong`, and what to do where there is something to do.
  public var description: String {
    switch self {
    case .io(let path, let message):
      return "\(path): \(message)"
    case .outputIsInput(let output, let input):
      let same = output == input ? "" : " (the same file as \(input))"
      return "\(output): is also an input\(same); writing it would destroy the input\n"
        + "  hint: write the output to another file"
    }
  }
}

/// Writes files so that readers see the old file or the new one, never a half-written one.
package enum AtomicFile {
  /// Writes `bytes` to a temporary file beside `path`, flushes it to disk, and renames it
  /// over `path`. On any failure the temporary file is removed and `path` is untouched.
  /// - Parameters:
  ///   - bytes: the new contents.
  ///   - path: the destination.
  ///   - inputs: files the write must not replace (see ``refuseOverwriting(_:with:)``).
  /// - Throws: ``FileWriteError/outputIsInput(output:input:)`` when `path` is one of `inputs`, ``FileWriteError/io(path:message:)``
  ///   with the system's reason.
  package static func write(
    _ bytes: [UInt8], to path: String, protecting inputs: [String] = []
  ) throws(FileWriteError) {
    let writer = try Writer(path: path, protecting: inputs)
    try writer.write(bytes[...])
    try writer.commit()
  }

  /// Refuses an output that is one of the inputs, before anything is written.
  ///
  /// Files are compared by identity (device and inode, following symbolic links), so
  /// `./list.tsv` and `list.tsv`, a symbolic link to it and a hard link of it all count as
  /// the same file. An output that does not exist yet clashes with nothing; an input that
  /// does not exist (or `-`, standard input) is left to the reader to complain about.
  /// - Parameters:
  ///   - inputs: the files read.
  ///   - output: the file to write.
  /// - Throws: ``FileWriteError/outputIsInput(output:input:)`` naming the output and the input it would replace.
  package static func refuseOverwriting(_ inputs: [String], with output: String) throws(FileWriteError) {
    guard let target = identity(of: output) else { return }
    for input in inputs where identity(of: input) == target {
      throw .outputIsInput(output: output, input: input)
    }
  }

  /// The device and inode of the file `path` names (after symbolic links), or `nil` if it
  /// does not exist.
  private static func identity(of path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  private struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
  }

  fileprivate static func errnoText() -> String { String(cString: strerror(errno)) }

  /// A file written in pieces to a temporary file beside its destination, then renamed over
  /// it by `commit()`. Dropped without a commit (or after `abort()`), it leaves nothing
  /// behind and the destination untouched.
  ///
  /// A destination that is a character device or a FIFO (`/dev/null`, `/dev/stdout`, a pipe,
  /// `mkfifo`) is written to directly instead (``isStreaming``): renaming a file over it would
  /// replace the device for every program. A directory, a block device or a socket is refused.
  ///
  /// The temporary file (`.NAME.tmp-XXXXXX`) is locked (`flock`) while it is written. A writer
  /// removes the temporary files of its destination that a killed writer left: those nobody
  /// holds locked and that are older than ten seconds.
  package final class Writer {
    /// The destination.
    package let path: String
    /// The temporary file being written (in the destination's directory); the destination
    /// itself when streaming.
    package let temporaryPath: String
    /// Whether the bytes go straight to the destination (a device or FIFO), with nothing to
    /// rename and nothing to take back.
    package let isStreaming: Bool
    private var descriptor: Int32
    private var finished = false

    /// Creates the temporary file, or opens the device or FIFO to stream to.
    /// - Parameters:
    ///   - path: the destination.
    ///   - inputs: files the destination must not be (see
    ///     ``AtomicFile/refuseOverwriting(_:with:)``); checked before anything is created.
    ///   - allowsStreaming: whether a device or FIFO destination is written to directly;
    ///     without it such a destination is refused (for what must be checked before it is
    ///     in place, as an installed blob).
    /// - Throws: ``FileWriteError/outputIsInput(output:input:)`` when `path` is one of `inputs`,
    ///   ``FileWriteError/io(path:message:)`` when the directory is not writable or the
    ///   destination is not something to write a file to.
    package init(path: String, protecting inputs: [String] = [], allowsStreaming: Bool = true) throws(FileWriteError) {
      try AtomicFile.refuseOverwriting(inputs, with: path)
      self.path = path
      var info = stat()
      if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
        let kind = info.st_mode & S_IFMT
        guard allowsStreaming, kind == S_IFCHR || kind == S_IFIFO else {
          let what: String
          switch kind {
          case S_IFDIR: what = "is a directory: give the path of a file in it"
          case S_IFBLK: what = "is a block device: refusing to write to it"
          case S_IFSOCK: what = "is a socket: refusing to write to it"
          default: what = "is a device or FIFO: give the path of a regular file"
          }
          throw .io(path: path, message: what)
        }
        // A device or FIFO: written to as it is (a FIFO waits for its reader, as a shell's
        // redirection does).
        var fd: Int32
        repeat { fd = open(path, O_WRONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw .io(path: path, message: "cannot open for writing: \(AtomicFile.errnoText())") }
        descriptor = fd
        temporaryPath = path
        isStreaming = true
        return
      }
      let url = URL(fileURLWithPath: path)
      let directory = url.deletingLastPathComponent().path
      let prefix = ".\(url.lastPathComponent).tmp-"
      AtomicFile.removeStaleTemporaries(in: directory, prefix: prefix)
      var template = Array("\(directory)/\(prefix)XXXXXX".utf8CString)
      descriptor = template.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.map { mkstemp($0) } ?? -1
      }
      guard descriptor >= 0 else {
        let reason = AtomicFile.errnoText()
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
          throw .io(path: path, message: "cannot write it: the directory \(directory) does not exist")
        }
        throw .io(path: path, message: "cannot write it: cannot create a file in \(directory) (\(reason))")
      }
      _ = flock(descriptor, LOCK_EX | LOCK_NB)  // ours alone: marks it as being written
      temporaryPath = template.withUnsafeBufferPointer { buffer in
        String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      }
      isStreaming = false
    }

    /// Appends bytes.
    package func write(_ bytes: ArraySlice<UInt8>) throws(FileWriteError) {
      var failure: String?
      bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
          let n = Foundation.write(descriptor, base + done, buffer.count - done)
          if n < 0 {
            if errno == EINTR { continue }
            failure = "write failed: \(AtomicFile.errnoText())"
            return
          }
          done += n
        }
      }
      if let failure {
        abort()
        throw .io(path: path, message: failure)
      }
    }

    /// Flushes the file to disk and renames it over the destination (a device or FIFO: only
    /// closes it).
    package func commit() throws(FileWriteError) {
      var failure: String?
      if isStreaming {
        if close(descriptor) != 0 && errno != EINTR { failure = "close failed: \(AtomicFile.errnoText())" }
        descriptor = -1
        finished = true
        if let failure { throw .io(path: path, message: failure) }
        return
      }
      if fsync(descriptor) != 0 { failure = "fsync failed: \(AtomicFile.errnoText())" }
      if failure == nil, fchmod(descriptor, 0o644) != 0 { failure = "chmod failed: \(AtomicFile.errnoText())" }
      if failure == nil, rename(temporaryPath, path) != 0 {
        failure = "rename failed: \(AtomicFile.errnoText())"
      }
      close(descriptor)
      descriptor = -1
      finished = true
      if let failure {
        unlink(temporaryPath)
        throw .io(path: path, message: failure)
      }
    }

    /// Removes the temporary file; the destination stays as it was. (Streaming, what was
    /// written is gone already: it only closes.)
    package func abort() {
      guard !finished else { return }
      finished = true
      if descriptor >= 0 { close(descriptor) }
      if !isStreaming { unlink(temporaryPath) }
    }

    deinit { abort() }
  }

  /// How old a temporary file nobody holds locked must be to count as left by a killed writer.
  static let staleAge: Double = 10

  /// Removes the temporary files `prefix…` in `directory` that no writer holds locked and that
  /// are older than ``staleAge`` seconds (a writer locks its file the moment it creates it; the
  /// age covers that moment). Best effort: what cannot be checked is left.
  /// - Returns: the names removed.
  @discardableResult
  static func removeStaleTemporaries(in directory: String, prefix: String) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
    var removed: [String] = []
    for name in names where name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 6 {
      let candidate = "\(directory)/\(name)"
      let modified = (try? FileManager.default.attributesOfItem(atPath: candidate))?[.modificationDate] as? Date
      guard let modified, -modified.timeIntervalSinceNow >= staleAge else { continue }
      let fd = open(candidate, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
      guard fd >= 0 else { continue }
      defer { close(fd) }
      var info = stat()
      guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
      if unlink(candidate) == 0 { removed.append(name) }
    }
    return removed
  }
}
