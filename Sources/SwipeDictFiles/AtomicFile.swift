import Foundation
import SwipeDictSystem

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
    guard let info = try? FileSystem.status(of: path) else { return nil }
    return FileIdentity(
      device: UInt64(truncatingIfNeeded: info.deviceID.rawValue), inode: UInt64(truncatingIfNeeded: info.inode.rawValue)
    )
  }

  private struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
  }

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
    /// The open file; `nil` once closed.
    private var descriptor: FileDescriptor?
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
      if let kind = (try? FileSystem.status(of: path))?.type, kind != .regular {
        guard allowsStreaming, kind == .characterSpecial || kind == .fifo else {
          let what: String
          switch kind {
          case .directory: what = "is a directory: give the path of a file in it"
          case .blockSpecial: what = "is a block device: refusing to write to it"
          case .socket: what = "is a socket: refusing to write to it"
          default: what = "is a device or FIFO: give the path of a regular file"
          }
          throw .io(path: path, message: what)
        }
        // A device or FIFO: written to as it is (a FIFO waits for its reader, as a shell's
        // redirection does).
        do throws(Errno) {
          descriptor = try .open(path, .writeOnly, options: [.closeOnExec])
        } catch {
          throw .io(path: path, message: "cannot open for writing: \(error)")
        }
        temporaryPath = path
        isStreaming = true
        return
      }
      let url = URL(fileURLWithPath: path)
      let directory = url.deletingLastPathComponent().path
      let prefix = ".\(url.lastPathComponent).tmp-"
      AtomicFile.removeStaleTemporaries(in: directory, prefix: prefix)
      let created: (FileDescriptor, path: String)
      do throws(Errno) {
        created = try FileSystem.makeTemporaryFile(template: "\(directory)/\(prefix)XXXXXX")
      } catch {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
          throw .io(path: path, message: "cannot write it: the directory \(directory) does not exist")
        }
        throw .io(path: path, message: "cannot write it: cannot create a file in \(directory) (\(error))")
      }
      _ = try? created.0.tryLock()  // ours alone: marks it as being written
      descriptor = created.0
      temporaryPath = created.path
      isStreaming = false
    }

    /// Appends bytes.
    package func write(_ bytes: ArraySlice<UInt8>) throws(FileWriteError) {
      guard let descriptor else { throw .io(path: path, message: "write failed: the file is closed") }
      do throws(Errno) {
        try descriptor.write(all: bytes)
      } catch {
        abort()
        throw .io(path: path, message: "write failed: \(error)")
      }
    }

    /// Flushes the file to disk and renames it over the destination (a device or FIFO: only
    /// closes it).
    package func commit() throws(FileWriteError) {
      guard let descriptor, !finished else { throw .io(path: path, message: "commit failed: the file is closed") }
      self.descriptor = nil
      finished = true
      if isStreaming {
        do throws(Errno) {
          try descriptor.closeReportingFailure()
        } catch {
          throw .io(path: path, message: "close failed: \(error)")
        }
        return
      }
      var failure: String?
      do throws(Errno) {
        try descriptor.synchronize()
      } catch {
        failure = "fsync failed: \(error)"
      }
      if failure == nil {
        do throws(Errno) { try descriptor.setPermissions(FilePermissions(rawValue: 0o644)) } catch {
          failure = "chmod failed: \(error)"
        }
      }
      if failure == nil {
        do throws(Errno) { try FileSystem.rename(temporaryPath, over: path) } catch {
          failure = "rename failed: \(error)"
        }
      }
      descriptor.closeIgnoringFailure()
      if let failure {
        try? FileSystem.remove(temporaryPath)
        throw .io(path: path, message: failure)
      }
    }

    /// Removes the temporary file; the destination stays as it was. (Streaming, what was
    /// written is gone already: it only closes.)
    package func abort() {
      guard !finished else { return }
      finished = true
      descriptor?.closeIgnoringFailure()
      descriptor = nil
      if !isStreaming { try? FileSystem.remove(temporaryPath) }
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
      guard let fd = try? FileDescriptor.open(candidate, .readOnly, options: [.closeOnExec, .noFollow, .nonBlocking])
      else { continue }
      defer { fd.closeIgnoringFailure() }
      guard (try? fd.stat())?.type == .regular, (try? fd.tryLock()) == true else { continue }
      if (try? FileSystem.remove(candidate)) != nil { removed.append(name) }
    }
    return removed
  }
}
