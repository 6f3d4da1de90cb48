import Foundation
import SwipeDictTestSupport
import Testing

@testable import SwipeDict

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The user store in a shared container (an App Group on iOS): what reaches the disk and when,
/// a lock another process holds too long, and a container this process may only read.
/// docs/apple.md says what only a device shows (F_FULLFSYNC, file protection, Full Access).
@Suite("User store in a shared container")
struct UserStoreContainerTests {
  let directory = TemporaryDirectory()
  var path: String { directory.path + "/user.words" }

  // MARK: Flushes

  @Test("with a flush per write: a new file, then its directory; each write; a compaction's file, then the directory")
  func flushesReachTheDirectory() throws {
    let store = try UserDictionary(path: path, options: .init(synchronizesEachWrite: true))
    #expect(store.flushesForTesting.count == 1)
    #expect(store.flushesForTesting.last == directory.path)  // the new file's name is in it
    try store.add("Zoë")
    #expect(store.flushesForTesting.count == 2)
    #expect(store.flushesForTesting.last == path)
    try store.compact()
    let compaction = Array(store.flushesForTesting.suffix(2))
    #expect(compaction.count == 2)
    #expect(compaction.first?.hasPrefix(directory.path + "/.user.words.compacting-") == true)
    #expect(compaction.last == directory.path)  // after the rename, before compact() returns
    // Opening the existing file creates nothing, so flushes nothing.
    let other = try UserDictionary(path: path, options: .init(synchronizesEachWrite: true))
    #expect(other.flushesForTesting.isEmpty)
    #expect(other.words.entries.map(\.word) == ["Zoë"])
  }

  @Test("without: only a compaction's new file is flushed (it replaces the old one)")
  func flushesWithoutTheOption() throws {
    let store = try UserDictionary(path: path)
    try store.add("Zoë")
    #expect(store.flushesForTesting.isEmpty)
    try store.compact()
    #expect(store.flushesForTesting.count == 1)
    #expect(store.flushesForTesting.first?.hasPrefix(directory.path + "/.user.words.compacting-") == true)
  }

  @Test("a directory that cannot be flushed is an error naming it")
  func directoryFlushFailureIsReported() {
    #expect {
      try UserLogFile.synchronizeDirectory(of: directory.path + "/missing/user.words")
    } throws: { error in
      let error = error as? UserDictionaryError
      return error?.reason == .io && error?.file == directory.path + "/missing"
        && error?.message.contains("open the directory to flush it") == true
    }
  }

  // MARK: The lock

  /// Holds the file's lock through a descriptor of its own, as another process would (`flock`
  /// locks belong to open file descriptions, so this one excludes the store's).
  final class LockHolder: Sendable {
    let descriptor: Int32
    init(_ path: String) {
      descriptor = open(path, O_RDWR | O_CLOEXEC)
      #expect(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
    }
    func release() { flock(descriptor, LOCK_UN) }
    deinit { close(descriptor) }
  }

  @Test("a lock held past the timeout fails the write with .busy, writing nothing; opening still works")
  func busyLockIsBounded() throws {
    let options = UserDictionary.Options(lockTimeout: .milliseconds(30))
    let store = try UserDictionary(path: path, options: options)
    try store.add("Zoë")
    let holder = LockHolder(path)
    #expect {
      try store.learn("gonna")
    } throws: { error in
      let error = error as? UserDictionaryError
      return error?.reason == .busy && error?.file == path && error?.message.contains("0.03 seconds") == true
    }
    // Another store opens and reads while the lock is held (housekeeping is skipped).
    let reader = try UserDictionary(path: path, options: options)
    #expect(reader.words.entries.map(\.word) == ["Zoë"])
    holder.release()
    try store.learn("gonna")
    #expect(try reader.refresh())
    #expect(reader.words.entries.map(\.word) == ["Zoë", "gonna"])
  }

  @Test("a lock released within the timeout is taken: the write waits, then lands")
  func writerWaitsForAShortHold() throws {
    let store = try UserDictionary(path: path, options: .init(lockTimeout: .seconds(20)))
    let holder = LockHolder(path)
    let released = DispatchSemaphore(value: 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
      holder.release()
      released.signal()
    }
    try store.add("Zoë")
    released.wait()
    #expect(try UserDictionary(path: path).words.entries.map(\.word) == ["Zoë"])
  }

  // MARK: Read-only containers

  /// As root, permissions bind nothing: ReadOnlyContainerTests (SwipeDictCLITests) runs the same
  /// through the command line as `nobody`.
  @Test(
    "a read-only directory: the missing file is not created, the store reads as empty, writes throw .readOnly, and the file is read once the app creates it",
    .enabled(if: !CLI.isRoot))
  func readOnlyDirectory() throws {
    chmod(directory.path, 0o555)
    defer { chmod(directory.path, 0o755) }
    let store = try UserDictionary(path: path)
    #expect(store.isReadOnly)
    #expect(store.words.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect {
      try store.learn("gonna")
    } throws: { error in
      (error as? UserDictionaryError)?.reason == .readOnly
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    #expect(try store.refresh() == false)
    // The app (with write access) creates the file: the read-only store picks it up.
    chmod(directory.path, 0o755)
    try UserDictionary(path: path).add("Zoë")
    chmod(path, 0o444)
    #expect(try store.refresh())
    #expect(store.isReadOnly)  // the file itself is read-only now
    #expect(store.words.entries.map(\.word) == ["Zoë"])
  }
}
