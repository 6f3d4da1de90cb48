import Foundation
import SwipeDictTestSupport
import Testing

/// A user dictionary in a container this process may only read (an App Group container in a
/// keyboard extension without Full Access), through `swipedict user` run without privileges:
/// as `nobody` when the tests run as root, since root reads and writes whatever the
/// permissions say. The library's own tests of the same (UserStoreContainerTests) run only
/// without root.
@Suite("A user dictionary in a read-only container")
struct ReadOnlyContainerTests {
  /// Makes `directory` and `files` read-only to the unprivileged run: root's files are read-only
  /// to `nobody` as they are (0755 and 0644); a user's own get no write permission.
  private func makeReadOnly(_ directory: String, _ files: [String]) {
    guard !CLI.isRoot else { return }
    for file in files { chmod(file, 0o444) }
    chmod(directory, 0o555)
  }

  private func restore(_ directory: String) { chmod(directory, 0o755) }

  @Test("an existing file is read; writes fail with the read-only error and change nothing")
  func existingFileIsReadOnly() throws {
    let workspace = try Workspace()
    let file = workspace.file("me.words")
    #expect(try CLI.run(["user", file, "add", "Zoë"]).status == 0)
    #expect(try CLI.run(["user", file, "block", "ducking"]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: file))
    makeReadOnly(workspace.path, [file])
    defer { restore(workspace.path) }
    guard let list = try CLI.runUnprivileged(["user", file, "list"]) else {
      Issue.record("running as root, but setpriv (util-linux) is missing: cannot run as nobody")
      return
    }
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("Zoë\tadded"))
    #expect(list.stdout.contains("ducking\tblocked"))
    let add = try #require(try CLI.runUnprivileged(["user", file, "learn", "gonna"]))
    #expect(add.status == 1)
    #expect(add.stderr.contains("\(file): the file is read-only for this process"), "\(add.stderr)")
    #expect(add.stderr.contains("Full Access"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
  }

  @Test("a missing file in a read-only directory: not created, no temporary file left, a clear error")
  func missingFileIsNotCreated() throws {
    let workspace = try Workspace()
    let file = workspace.file("me.words")
    let listed = try FileManager.default.contentsOfDirectory(atPath: workspace.path).sorted()
    makeReadOnly(workspace.path, [])
    defer { restore(workspace.path) }
    guard let add = try CLI.runUnprivileged(["user", file, "add", "Zoë"]) else {
      Issue.record("running as root, but setpriv (util-linux) is missing: cannot run as nobody")
      return
    }
    #expect(add.status == 1)
    #expect(
      add.stderr.contains("\(file): the file does not exist and its directory is read-only for this process"),
      "\(add.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path).sorted() == listed)
  }
}
