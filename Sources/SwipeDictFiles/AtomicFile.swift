import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that could not be written: the destination and the system's reason.
public struct FileWriteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The destination.
  public var path: String
  /// What went wrong (the system's reason included).
  public var message: String

  /// A failure to write `path`.
  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  /// `path: message`.
  public var description: String { "\(path): \(message)" }
}

/// Writes files so that readers see the old file or the new one, never a half-written one.
public enum AtomicFile {
  /// Writes `bytes` to a temporary file beside `path`, flushes it to disk, and renames it
  /// over `path`. On any failure the temporary file is removed and `path` is untouched.
  /// - Parameters:
  ///   - bytes: the new contents.
  ///   - path: the destination.
  /// - Throws: ``FileWriteError`` with the system's reason.
  public static func write(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
    let writer = try Writer(path: path)
    try writer.write(bytes[...])
    try writer.commit()
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
    /// - Throws: ``FileWriteError`` when the directory is not writable.
    public init(path: String) throws(FileWriteError) {
      self.path = path
      let url = URL(fileURLWithPath: path)
      let directory = url.deletingLastPathComponent().path
      var template = Array("\(directory)/.\(url.lastPathComponent).tmp-XXXXXX".utf8CString)
      descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard descriptor >= 0 else {
        throw FileWriteError(path: path, message: "cannot create a temporary file in \(directory): \(AtomicFile.errnoText())")
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
        throw FileWriteError(path: path, message: failure)
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
        throw FileWriteError(path: path, message: failure)
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
