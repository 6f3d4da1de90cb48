import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes files so that readers see the old file or the new one, never a half-written one.
public enum AtomicFile {
  /// Writes `bytes` to a temporary file beside `path`, flushes it to disk, and renames it
  /// over `path`. On any failure the temporary file is removed and `path` is untouched.
  /// - Parameters:
  ///   - bytes: the new contents.
  ///   - path: the destination.
  /// - Throws: `CompileError.io` with the system's reason.
  public static func write(_ bytes: [UInt8], to path: String) throws(CompileError) {
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    var template = Array("\(directory)/.\(url.lastPathComponent).tmp-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      throw .io(path: path, message: "cannot create a temporary file in \(directory): \(errnoText())")
    }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    var failure: String?
    bytes.withUnsafeBytes { buffer in
      var done = 0
      while done < buffer.count {
        let n = Foundation.write(fd, buffer.baseAddress! + done, buffer.count - done)
        if n < 0 {
          if errno == EINTR { continue }
          failure = "write failed: \(errnoText())"
          return
        }
        done += n
      }
    }
    if failure == nil, fsync(fd) != 0 { failure = "fsync failed: \(errnoText())" }
    if failure == nil, fchmod(fd, 0o644) != 0 { failure = "chmod failed: \(errnoText())" }
    close(fd)
    if failure == nil, rename(temporary, path) != 0 { failure = "rename failed: \(errnoText())" }
    if let failure {
      unlink(temporary)
      throw .io(path: path, message: failure)
    }
  }

  private static func errnoText() -> String { String(cString: strerror(errno)) }
}
