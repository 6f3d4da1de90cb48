import Foundation
import SwipeDictTestSupport
import Testing

@testable import SwipeDictFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Inputs: what a path may name, said at open, and reads bounded.
@Suite("Input files", .timeLimit(.minutes(1)))
struct InputFileTests {
  let directory = TemporaryDirectory()

  @Test("regular files read to their end, within a limit")
  func regularFiles() throws {
    let path = directory.write("in.txt", "hello\n")
    #expect(try InputFile(openingForReading: path).readAll(limit: 100) == Array("hello\n".utf8))
    #expect(try InputFile(openingForReading: path, kinds: .regularFiles).readAll(limit: 100).count == 6)
    #expect(throws: InputFileError(path: path, operation: .read, reason: "it is larger than 3 bytes")) {
      try InputFile(openingForReading: path).readAll(limit: 3)
    }
  }

  @Test("devices and directories are refused at open, named; a FIFO only where pipes are allowed")
  func otherKinds() throws {
    let fifo = directory.path + "/in.fifo"
    #expect(mkfifo(fifo, 0o644) == 0)
    // Regular files only: refused without waiting for a writer.
    #expect(throws: InputFileError(path: fifo, operation: .open, reason: "it is a FIFO or pipe, not a regular file")) {
      try InputFile(openingForReading: fifo, kinds: .regularFiles)
    }
    #expect(
      throws: InputFileError(
        path: "/dev/zero", operation: .open, reason: "it is a character device, not a file or a pipe")
    ) {
      try InputFile(openingForReading: "/dev/zero")
    }
    #expect(
      throws: InputFileError(path: directory.path, operation: .open, reason: "it is a directory, not a file or a pipe")
    ) {
      try InputFile(openingForReading: directory.path)
    }
    // Pipes allowed: the FIFO is read once a writer comes.
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
      let fd = open(fifo, O_WRONLY)
      _ = write(fd, "piped", 5)
      close(fd)
    }
    #expect(try InputFile(openingForReading: fifo).readAll(limit: 100) == Array("piped".utf8))
  }
}
