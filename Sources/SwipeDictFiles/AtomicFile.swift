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
public enum AtomicFile {
  /// Writes `bytes` to a temporary file beside `path`, flushes it to disk, and renames it
  /// over `path`. On any failure the temporary file is removed and `path` is untouched.
  /// - Parameters:
  ///   - bytes: the new contents.
  ///   - path: the destination.
  ///   - inputs: files the write must not replace (see ``refuseOverwriting(_:with:)``).
  /// - Throws: ``FileWriteError/outputIsInput(output:input:)`` when `path` is one of `inputs`, ``FileWriteError/io(path:message:)``
  ///   with the system's reason.
  public static func write(
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
  public static func refuseOverwriting(_ inputs: [String], with output: String) throws(FileWriteError) {
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
  public final class Writer {
    /// The destination.
    public let path: String
    /// The temporary file being written (in the destination's directory).
    public let temporaryPath: String
    private var descriptor: Int32
    private var finished = false

    /// Creates the temporary file.
    /// - Parameters:
    ///   - path: the destination.
    ///   - inputs: files the destination must not be (see
    ///     ``AtomicFile/refuseOverwriting(_:with:)``); checked before anything is created.
    /// - Throws: ``FileWriteError/outputIsInput(output:input:)`` when `path` is one of `inputs`,
    ///   ``FileWriteError/io(path:message:)`` when the directory is not writable.
    public init(path: String, protecting inputs: [String] = []) throws(FileWriteError) {
      try AtomicFile.refuseOverwriting(inputs, with: path)
      self.path = path
      let url = URL(fileURLWithPath: path)
      let directory = url.deletingLastPathComponent().path
      var template = Array("\(directory)/.\(url.lastPathComponent).tmp-XXXXXX".utf8CString)
      descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard descriptor >= 0 else {
        throw .io(path: path, message: "cannot create a temporary file in \(directory): \(AtomicFile.errnoText())")
      }
      temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Appends bytes.
    public func write(_ bytes: ArraySlice<UInt8>) throws(FileWriteError) {
      var failure: String?
      bytes.withUnsafeBytes { buffer in
        var done = 0
        while done < buffer.count {
          let n = Foundation.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
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

    /// Flushes the file to disk and renames it over the destination.
    public func commit() throws(FileWriteError) {
      var failure: String?
      if fsync(descriptor) != 0 { failure = "fsync failed: \(AtomicFile.errnoText())" }
      if failure == nil, fchmod(descriptor, 0o644) != 0 { failure = "chmod failed: \(AtomicFile.errnoText())" }
      close(descriptor)
      descriptor = -1
      if failure == nil, rename(temporaryPath, path) != 0 {
        failure = "rename failed: \(AtomicFile.errnoText())"
      }
      finished = true
      if let failure {
        unlink(temporaryPath)
        throw .io(path: path, message: failure)
      }
    }

    /// Removes the temporary file; the destination stays as it was.
    public func abort() {
      guard !finished else { return }
      finished = true
      if descriptor >= 0 { close(descriptor) }
      unlink(temporaryPath)
    }

    deinit { abort() }
  }
}
