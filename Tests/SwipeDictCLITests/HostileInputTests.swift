import Foundation
import SwipeDictTestSupport
import Testing

/// The hostile-input probe's findings (issue 35), each a case that failed before its fix:
/// option values, record files, arguments that are not UTF-8, layouts by name, user words.
@Suite("Hostile inputs: clear answers, nothing altered", .serialized, .timeLimit(.minutes(2)))
struct HostileInputTests {
  let workspace: Workspace
  let blob: String

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
  }

  @Test(
    "a size takes decimal digits and a unit, nothing else",
    arguments: [
      ("0x10", false), ("1.5", false), ("1e3", false), ("inf", false), ("-5", false), ("", false),
      ("48MB", true), ("1.5MB", true), ("512kb", true), ("100", true),
    ])
  func sizes(_ size: String, _ valid: Bool) throws {
    let result = try CLI.run(["inspect", blob, "--budget", size])
    #expect(result.status == (valid ? 0 : 64), "\(size): \(result.stderr)")
    if !valid { #expect(result.stderr.contains("not a size such as 48MB")) }
  }

  @Test("a word that is not UTF-8 is refused with its byte, and nothing is written")
  func argumentsThatAreNotUTF8() throws {
    let store = workspace.file("me.words")
    let result = try CLI.runShell(#"exec "$0" user "# + store + #" add "$(printf 'caf\377')""#)
    #expect(result.status == 64)
    #expect(result.stderr.contains("is not UTF-8: byte 4, 0xFF, starts no valid UTF-8 sequence"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: store))
  }

  @Test("a layout named by its name builds from corpora/layouts; an unknown name lists the names")
  func layoutsByName() throws {
    let top = repositoryRoot.path
    let output = workspace.file("named.swipedict")
    let built = try CLI.run(
      ["build", workspace.file("words.tsv"), "--layout", "qwerty-en", "-o", output, "--quiet"], in: top)
    #expect(built.status == 0, "\(built.stderr)")
    let unknown = try CLI.run(["build", workspace.file("words.tsv"), "--layout", "qwerty-xx", "-o", output], in: top)
    #expect(unknown.status == 1)
    #expect(unknown.stderr.hasPrefix("error: qwerty-xx: no such layout file"), "\(unknown.stderr)")
    #expect(unknown.stderr.contains("qwerty-en, qwerty-es"))
    #expect(!unknown.stderr.contains("ExitCode"))
  }

  @Test("synth --user swipes the user's own words")
  func synthSwipesUserWords() throws {
    let store = workspace.file("me.words")
    #expect(try CLI.run(["user", store, "add", "hewl"]).status == 0)
    let refused = try CLI.run(["synth", blob, "--words", "hewl"])
    #expect(refused.status == 1 && refused.stderr.contains("give --user FILE"), "\(refused.stderr)")
    let swiped = try CLI.run(["synth", blob, "--words", "hewl", "--user", store])
    #expect(swiped.status == 0, "\(swiped.stderr)")
    #expect(swiped.stdout.hasPrefix(#"{"word":"hewl","points":"#))
  }

  @Test("serve --host: localhost is 127.0.0.1; a bad address is a usage error saying so")
  func serveHosts() throws {
    let bad = try CLI.run(["serve", blob, "--port", "0", "--host", "999.1.1.1"])
    #expect(bad.status == 64 && bad.stderr.contains("--host 999.1.1.1: not an IPv4 or IPv6 address"), "\(bad.stderr)")
    // A server runs until stopped: kill it once it has printed its address.
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["serve", blob, "--port", "0", "--host", "localhost"]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
    #expect(line.hasPrefix("http://127.0.0.1:"), "\(line)")
  }

  @Test("serve --record refuses what is not a swipe file, the blob itself and an unread FIFO, changing nothing")
  func recordFiles() throws {
    let text = workspace.file("notes.txt")
    try workspace.write("notes.txt", "hello")
    let fifo = workspace.file("record.fifo")
    #expect(mkfifo(fifo, 0o644) == 0)
    let cases: [(String, String)] = [
      (text, "does not end with a line end"),
      (blob, "is the blob \(blob), an input of the server"),
      (fifo, "nothing reads the FIFO"),
    ]
    for (file, message) in cases {
      let before = FileManager.default.contents(atPath: file)
      let result = try CLI.run(["serve", blob, "--port", "0", "--record", file], timeLimit: .seconds(30))
      #expect(result.status == 1 && result.stderr.contains("\(file): \(message)"), "\(result.stderr)")
      if file != fifo { #expect(FileManager.default.contents(atPath: file) == before) }
    }
    try workspace.write("other.txt", "not json\n")
    let other = try CLI.run(["serve", blob, "--port", "0", "--record", workspace.file("other.txt")])
    #expect(other.status == 1 && other.stderr.contains("is not a swipe file (line 1"), "\(other.stderr)")
  }
}
