// The system calls of the ingest code: open(2), fstat(2), read(2) and close(2), through the
// package's system-call layer.
import SwipeDictSystem

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
    self.reason = Errno(rawValue: code).description
  }

  /// Describes a file that cannot be read for what it is, not for a system call's failure.
  package init(path: String, operation: Operation, reason: String) {
    self.path = path
    self.operation = operation
    self.code = 0
    self.reason = reason
  }

  /// The path, then what failed and why.
  public var description: String {
    "\(path): error: cannot \(operation.rawValue) the file: \(reason)"
  }
}

/// A file opened read-only and read front to back in chunks; closed when released.
package final class InputFile {
  /// What a path may name.
  package enum Kinds: Sendable {
    /// A regular file, or a pipe or FIFO read as a stream (a word list, a swipe file: `-`
    /// and process substitution are normal). A FIFO waits for its writer at open, as `cat`
    /// does. A device (`/dev/zero` has no end), a directory or a socket is refused.
    case filesAndPipes
    /// A regular file only (a layout, a blob to pack): anything else is refused at open,
    /// without waiting for a FIFO's writer.
    case regularFiles
  }

  package let path: String
  private let descriptor: FileDescriptor
  private let ownsDescriptor: Bool

  /// Opens a file for reading.
  /// - Parameters:
  ///   - path: the file to open.
  ///   - kinds: what it may be (a regular file or a pipe by default).
  /// - Throws: ``InputFileError`` with `operation == .open`, naming what the path is when it
  ///   is not something to read.
  package init(openingForReading path: String, kinds: Kinds = .filesAndPipes) throws(InputFileError) {
    self.path = path
    let nonBlocking: FileDescriptor.OpenOptions = kinds == .regularFiles ? .nonBlocking : []
    let descriptor: FileDescriptor
    do throws(Errno) {
      descriptor = try .open(path, .readOnly, options: [.closeOnExec, nonBlocking])
    } catch {
      throw InputFileError(path: path, operation: .open, code: error.rawValue)
    }
    if let kind = try? descriptor.stat().type {
      let accepted = kind == .regular || (kinds == .filesAndPipes && kind == .fifo)
      if !accepted {
        descriptor.closeIgnoringFailure()
        throw InputFileError(path: path, operation: .open, reason: Self.refusal(kind, kinds))
      }
    }
    if !nonBlocking.isEmpty { descriptor.setBlocking() }
    self.descriptor = descriptor
    ownsDescriptor = true
  }

  private init(standardInput: Void) {
    path = "-"
    descriptor = .standardInput
    ownsDescriptor = false
  }

  /// Standard input (not closed when released).
  package static var standardInput: InputFile { InputFile(standardInput: ()) }

  private static func refusal(_ kind: FileType, _ kinds: Kinds) -> String {
    let what: String
    switch kind {
    case .directory: what = "a directory"
    case .fifo: what = "a FIFO or pipe"
    case .characterSpecial: what = "a character device"
    case .blockSpecial: what = "a block device"
    case .socket: what = "a socket"
    default: what = "not a regular file"
    }
    return kinds == .regularFiles ? "it is \(what), not a regular file" : "it is \(what), not a file or a pipe"
  }

  deinit { if ownsDescriptor { descriptor.closeIgnoringFailure() } }

  /// Reads the rest of the file.
  /// - Parameter limit: the most bytes to read; a larger file is an error.
  /// - Throws: ``InputFileError`` with `operation == .read`.
  package func readAll(limit: Int) throws(InputFileError) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = try read(into: &buffer)
      if count == 0 { return bytes }
      guard bytes.count + count <= limit else {
        throw InputFileError(path: path, operation: .read, reason: "it is larger than \(limit) bytes")
      }
      bytes += buffer[..<count]
    }
  }

  /// Reads the next bytes of the file into the front of `buffer`.
  /// - Parameter buffer: receives up to `buffer.count` bytes.
  /// - Returns: the number of bytes read; 0 at the end of the file.
  /// - Throws: ``InputFileError`` with `operation == .read`.
  package func read(into buffer: inout [UInt8]) throws(InputFileError) -> Int {
    let result = buffer.withUnsafeMutableBytes { bytes in
      Result { () throws(Errno) in try descriptor.readSome(into: bytes) }
    }
    do throws(Errno) {
      return try result.get()
    } catch {
      throw InputFileError(path: path, operation: .read, code: error.rawValue)
    }
  }
}
