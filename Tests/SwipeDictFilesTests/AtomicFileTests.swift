import Foundation
import SwipeDictFiles
import SwipeDictTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Outputs: a regular file replaced whole or not at all; a device or FIFO streamed to, never
/// replaced; what a killed writer left removed; an input never overwritten.
@Suite("Atomic file writes", .timeLimit(.minutes(1)))
struct AtomicFileTests {
  let directory = TemporaryDirectory()

  func kind(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  @Test("a regular file is replaced whole; a dropped writer leaves the old one and no temporary file")
  func regularFiles() throws {
    let path = directory.write("out.txt", "old")
    try AtomicFile.write(Array("new".utf8), to: path)
    #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
    do {
      let writer = try AtomicFile.Writer(path: path)
      #expect(!writer.isStreaming && writer.temporaryPath != path)
      try writer.write(Array("half".utf8)[...])
    }  // dropped without commit
    #expect(FileManager.default.contents(atPath: path) == Data("new".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"])
  }

  @Test("a FIFO is written to, not replaced; install's kind of writer refuses it")
  func fifosAreStreamedTo() throws {
    let fifo = directory.path + "/out.fifo"
    #expect(mkfifo(fifo, 0o644) == 0)
    let received = Locked(Data())
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let fd = open(fifo, O_RDONLY)
      var buffer = [UInt8](repeating: 0, count: 4096)
      while fd >= 0 {
        let n = read(fd, &buffer, buffer.count)
        if n <= 0 { break }
        received.withLock { $0.append(contentsOf: buffer[0..<n]) }
      }
      if fd >= 0 { close(fd) }
      done.signal()
    }
    try AtomicFile.write(Array("streamed\n".utf8), to: fifo)
    #expect(done.wait(timeout: .now() + 30) == .success)
    #expect(received.withLock { $0 } == Data("streamed\n".utf8))
    #expect(kind(fifo) == S_IFIFO)
    #expect(throws: FileWriteError.self) { try AtomicFile.Writer(path: fifo, allowsStreaming: false) }
    #expect(kind(fifo) == S_IFIFO)
  }

  @Test("a directory is refused by name")
  func directoriesAreRefused() {
    #expect(throws: FileWriteError.io(path: directory.path, message: "is a directory: give the path of a file in it")) {
      try AtomicFile.write([1], to: directory.path)
    }
  }

  @Test("temporary files of the output nobody holds and ten seconds old are removed; others stay")
  func staleTemporaries() throws {
    let path = directory.path + "/out.bin"
    let stale = directory.write(".out.bin.tmp-AAAAAA", "x")
    let young = directory.write(".out.bin.tmp-BBBBBB", "x")
    let other = directory.write(".other.bin.tmp-CCCCCC", "x")
    for file in [stale, other] {
      try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: file)
    }
    try AtomicFile.write([1, 2, 3], to: path)
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: young))
    #expect(FileManager.default.fileExists(atPath: other))  // another output's
  }

  @Test("an output that is an input under any name is refused before anything is written")
  func inputsAreProtected() throws {
    let input = directory.write("in.tsv", "a\t1\n")
    let link = directory.path + "/link.tsv"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
    #expect(throws: FileWriteError.outputIsInput(output: link, input: input)) {
      try AtomicFile.write([1], to: link, protecting: [input])
    }
    #expect(FileManager.default.contents(atPath: input) == Data("a\t1\n".utf8))
  }
}

/// A value behind a lock, for the reader thread above.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<T>(_ body: (inout Value) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
