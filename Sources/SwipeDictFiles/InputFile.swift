// The system calls of the ingest code: open(2), read(2) and close(2), and nothing else.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that could not be opened or read: its path and the system's reason.
///
/// `description` reads like `"en.tsv: error: cannot open the file: No such file or
/// directory"`.
public struct InputFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The system call that failed.
  public enum Operation: String, Sendable, Hashable {
    /// `open(2)`: the file is missing or not readable.
    case open
    /// `read(2)`: for example the path names a directory.
    case read
  }

  /// The path as given.
  public var path: String
  /// The system call that failed.
  public var operation: Operation
  /// The `errno` value.
  public var code: Int32
  /// `strerror(code)`, such as "No such file or directory".
  public var reason: String

  /// Describes a failed system call.
  /// - Parameters:
  ///   - path: the path as given.
  ///   - operation: the system call that failed.
  ///   - code: its `errno`.
  public init(path: String, operation: Operation, code: Int32) {
    self.path = path
    self.operation = operation
    self.code = code
    self.reason = String(cString: strerror(code))
  }

  /// The path, then what failed and why.
  public var description: String {
    "\(path): error: cannot \(operation.rawValue) the file: \(reason)"
  }
}

/// A file opened read-only and read front to back in chunks; closed when released.
package final class InputFile {
  package let path: String
  private let descriptor: CInt

  /// Opens a file for reading.
  /// - Parameter path: the file to open.
  /// - Throws: ``InputFileError`` with `operation == .open`.
  package init(openingForReading path: String) throws(InputFileError) {
    self.path = path
    var descriptor: CInt
    repeat {
      descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
    } while descriptor < 0 && errno == EINTR
    guard descriptor >= 0 else { throw InputFileError(path: path, operation: .open, code: errno) }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Reads the next bytes of the file into the front of `buffer`.
  /// - Parameter buffer: receives up to `buffer.count` bytes.
  /// - Returns: the number of bytes read; 0 at the end of the file.
  /// - Throws: ``InputFileError`` with `operation == .read`.
  package func read(into buffer: inout [UInt8]) throws(InputFileError) -> Int {
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count >= 0 { return count }
      let code = errno
      if code != EINTR { throw InputFileError(path: path, operation: .read, code: code) }
    }
  }
}

/// `read(2)`, named apart from ``InputFile/read(into:)``.
private func systemRead(_ descriptor: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int
{
  #if canImport(Darwin)
    return Darwin.read(descriptor, buffer, count)
  #elseif canImport(Glibc)
    return Glibc.read(descriptor, buffer, count)
  #else
    return Musl.read(descriptor, buffer, count)
  #endif
}
