import Foundation
import SwipeDictTestSupport
import Testing

/// No trap, no runaway, nothing lost: what a new user tries, end to end. Every case here
/// failed (overwrote an input, trapped, printed `Missing value` or a doubled `error:`)
/// before the fix it tests.
@Suite("swipedict refuses what would lose data, and says why", .serialized, .timeLimit(.minutes(2)))
struct CLISafetyTests {
  let workspace: Workspace
  let blob: String

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
  }

  func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
  func temporaryFiles() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: workspace.path)) ?? [])
      .filter { $0.contains(".tmp-") }
  }

  // MARK: Nothing lost

  @Test(arguments: ["input", "dot-input", "symlink-input", "layout"])
  func buildRefusesToOverwriteAnInput(_ clash: String) throws {
    let words = workspace.file("words.tsv")
    let layout = workspace.file("layout.json")
    var output = words
    switch clash {
    case "dot-input": output = workspace.path + "/./words.tsv"
    case "symlink-input":
      output = workspace.file("link.tsv")
      try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: words)
    case "layout": output = layout
    default: break
    }
    let before = (contents(words), contents(layout))
    let result = try CLI.run(["build", words, "--layout", layout, "-o", output])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("error: \(output): is also an input"), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect((contents(words), contents(layout)) == before)
    #expect(temporaryFiles().isEmpty)
  }

  @Test func packRefusesToOverwriteTheBlob() throws {
    let before = contents(blob)
    let result = try CLI.run(["pack", blob, "-o", workspace.path + "/./words.swipedict"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("is also an input (the same file as \(blob))"), "\(result.stderr)")
    #expect(contents(blob) == before)
  }

  @Test func installRefusesToOverwriteThePack() throws {
    // Without `.zst` the blob is named like the pack: installed beside it, it is the pack.
    let pack = workspace.file("words.pack")
    #expect(try CLI.run(["pack", blob, "-o", pack]).status == 0)
    let before = contents(pack)
    let result = try CLI.run(["install", pack, "-o", workspace.path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("is also an input"), "\(result.stderr)")
    #expect(result.stderr.contains("nothing installed"))
    #expect(contents(pack) == before)
  }

  @Test func installCreatesAMissingDirectoryAsTheReadmeShows() throws {
    let pack = workspace.file("words.swipedict.zst")
    #expect(try CLI.run(["pack", blob, "-o", pack]).status == 0)
    let target = workspace.path + "/Dictionaries/"
    let result = try CLI.run(["install", pack, "-o", target])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(contents(target + "words.swipedict") == contents(blob))
  }

  /// A layout whose numbers the blob cannot store (a Float overflows) fails the build by
  /// name, and the blob built before stays; today's blob still opens.
  @Test(arguments: [
    (#""x": 1e39, "y": 8"#, "keys[0].x: 1e+39 is too large: a blob stores a layout's numbers as 32-bit floats"),
    (#""x": 5, "y": -1e39"#, "keys[0].y: -1e+39 is too large"),
    (#""x": 5, "y": 8, "w": -10"#, "keys[0]: w and h must be positive"),
    (#""x": 5, "y": 8, "w": 1e300"#, "keys[0].w: 1e+300 is too large"),
  ])
  func aLayoutTheLoaderWouldRejectDoesNotBuild(_ geometry: String, _ message: String) throws {
    try workspace.write(
      "huge.json",
      #"{"name": "h", "keyWidth": 10, "keys": [{"char": "h", \#(geometry)}, {"char": "e", "x": 25, "y": 8}]}"#)
    let before = contents(blob)
    let result = try CLI.run([
      "build", workspace.file("words.tsv"), "--layout", workspace.file("huge.json"), "-o", blob,
    ])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("error: \(workspace.file("huge.json")): \(message)"), "\(result.stderr)")
    #expect(contents(blob) == before)
    #expect(try CLI.run(["verify", blob]).status == 0)
  }

  /// Killed mid-build (provably: the process is still running when SIGKILL arrives, and dies
  /// of it), the build leaves the previous blob byte for byte and no temporary file.
  @Test func aBuildKilledMidwayLeavesThePreviousBlob() throws {
    let before = try #require(contents(blob))
    var lines = ""
    for i in 0..<300_000 { lines += "w\(String(i * 7919, radix: 26))\t\(i % 97 + 1)\n" }
    try workspace.write("big.tsv", lines)
    for delay in [0.05, 0.2, 0.5] {
      let process = Process()
      process.executableURL = CLI.executable
      process.arguments = [
        "build", workspace.file("big.tsv"), "--layout", workspace.file("layout.json"), "-o", blob,
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      Thread.sleep(forTimeInterval: delay)
      try #require(process.isRunning, "the build finished within \(delay) s: the input is too small to kill it midway")
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
      #expect(contents(blob) == before, "killed after \(delay) s")
      #expect(temporaryFiles().isEmpty, "killed after \(delay) s")
    }
    // Left alone, the same build completes and replaces the blob.
    let finished = try CLI.run([
      "build", workspace.file("big.tsv"), "--layout", workspace.file("layout.json"), "-o", blob,
    ])
    #expect(finished.status == 0, "\(finished.stderr)")
    #expect(contents(blob) != before)
  }

  /// Reads a FIFO to its end on another thread, as `cat` would.
  final class FIFOReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var bytes = Data()
    init(_ path: String) {
      DispatchQueue.global().async {
        let fd = open(path, O_RDONLY)  // waits for the writer, as `cat` does
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while fd >= 0 {
          let n = read(fd, &buffer, buffer.count)
          if n <= 0 { break }
          self.bytes.append(contentsOf: buffer[0..<n])
        }
        if fd >= 0 { close(fd) }
        self.done.signal()
      }
    }
    func wait() -> Data {
      _ = done.wait(timeout: .now() + 60)
      return bytes
    }
  }

  @Test(
    "an output that is a FIFO or a character device is streamed to, never replaced by a file",
    arguments: ["synth", "draw", "dump", "build", "export"])
  func outputsStreamToDevicesAndFIFOs(_ command: String) throws {
    func arguments(_ output: String) -> [String] {
      switch command {
      case "synth": return ["synth", blob, "--sample", "3", "--seed", "1", "-o", output]
      case "draw": return ["draw", blob, "hello", "-o", output]
      case "dump": return ["dump", blob, "-o", output]
      case "build":
        return ["build", workspace.file("words.tsv"), "--layout", workspace.file("layout.json"), "-o", output]
      default: return ["user", workspace.file("me.words"), "export", "-o", output]
      }
    }
    if command == "export" { #expect(try CLI.run(["user", workspace.file("me.words"), "add", "Zoë"]).status == 0) }
    // The same command into a file, for the bytes to expect.
    let file = workspace.file("out-\(command)")
    #expect(try CLI.run(arguments(file)).status == 0)
    let expected = try #require(contents(file))
    let fifo = workspace.file("fifo-\(command)")
    #expect(mkfifo(fifo, 0o644) == 0)
    let reader = FIFOReader(fifo)
    let result = try CLI.run(arguments(fifo))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(reader.wait() == expected)
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    // A character device: a null device of our own where the tests may make one (root).
    let device = workspace.file("null-\(command)")
    var null = stat()
    if stat("/dev/null", &null) == 0, mknod(device, S_IFCHR | 0o666, null.st_rdev) == 0 {
      #expect(try CLI.run(arguments(device)).status == 0)
      #expect(lstat(device, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "the device was replaced")
    }
    #expect(temporaryFiles().isEmpty)
  }

  @Test("a build removes the temporary files killed builds of its output left; never one being written")
  func staleTemporaryFilesAreRemoved() throws {
    let stale = workspace.file(".words.swipedict.tmp-AAAAAA")
    let young = workspace.file(".words.swipedict.tmp-BBBBBB")
    let locked = workspace.file(".words.swipedict.tmp-CCCCCC")
    for path in [stale, young, locked] {
      #expect(FileManager.default.createFile(atPath: path, contents: Data("half".utf8)))
    }
    let minuteAgo = Date(timeIntervalSinceNow: -60)
    for path in [stale, locked] {
      try FileManager.default.setAttributes([.modificationDate: minuteAgo], ofItemAtPath: path)
    }
    let holder = open(locked, O_RDONLY)
    defer { close(holder) }
    #expect(flock(holder, LOCK_EX) == 0)  // a build writing it right now
    let result = try CLI.run([
      "build", workspace.file("words.tsv"), "--layout", workspace.file("layout.json"), "-o", blob,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: young))  // ten seconds old at least, to be stale
    #expect(FileManager.default.fileExists(atPath: locked))
  }

  @Test("outputs in a missing directory, and directories as outputs, are refused in plain words")
  func unwritableOutputsAreExplained() throws {
    let missing = workspace.path + "/no/such/dir/out.jsonl"
    var result = try CLI.run(["synth", blob, "--sample", "1", "-o", missing])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("\(missing): cannot write it: the directory \(workspace.path)/no/such/dir does not exist"),
      "\(result.stderr)")
    result = try CLI.run(["synth", blob, "--sample", "1", "-o", workspace.path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("\(workspace.path): is a directory"), "\(result.stderr)")
  }

  // MARK: Errors: `error: FILE: what is wrong`, once

  @Test func errorsNameTheFileOnce() throws {
    let missing = try CLI.run([
      "build", workspace.file("nope.tsv"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("out.swipedict"),
    ])
    #expect(missing.status == 1)
    #expect(missing.stderr == "error: \(workspace.file("nope.tsv")): cannot open the file: No such file or directory\n")

    try workspace.write("bad.tsv", "fine\t1\nbroken\t-2\n")
    let bad = try CLI.run([
      "build", workspace.file("bad.tsv"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("out.swipedict"),
    ])
    #expect(
      bad.stderr.hasPrefix("error: \(workspace.file("bad.tsv")):2:8: count \"-2\" is negative\n  hint: "),
      "\(bad.stderr)")
    let skipped = try CLI.run([
      "build", workspace.file("bad.tsv"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("out.swipedict"), "--skip-invalid",
    ])
    #expect(skipped.stderr.hasPrefix("warning: \(workspace.file("bad.tsv")):2:8: count"), "\(skipped.stderr)")
    for output in [missing, bad, skipped] {
      #expect(output.stderr.components(separatedBy: "error:").count <= 2, "\(output.stderr)")
    }
  }

  @Test(arguments: ["decode", "draw"])
  func aBadSwipeFileSaysErrorOnce(_ command: String) throws {
    try workspace.write("bad.jsonl", "{\"word\": \"hello\", \"points\": [[1, 2, 0], [3]]}\n")
    let arguments =
      command == "decode"
      ? ["decode", blob, "--swipes", workspace.file("bad.jsonl"), "--strict"]
      : ["draw", blob, "hello", "--swipe", workspace.file("bad.jsonl")]
    let result = try CLI.run(arguments)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("error: \(workspace.file("bad.jsonl")):1:"), "\(result.stderr)")
    #expect(result.stderr.components(separatedBy: "error:").count == 2, "\(result.stderr)")
  }

  @Test func synthAndDrawRefuseToOverwriteTheirInputs() throws {
    let before = contents(blob)
    let synth = try CLI.run(["synth", blob, "--words", "hello", "-o", blob])
    #expect(synth.status == 1)
    #expect(synth.stderr.contains("is also an input"), "\(synth.stderr)")
    let draw = try CLI.run(["draw", blob, "hello", "-o", workspace.path + "/./words.swipedict"])
    #expect(draw.status == 1)
    #expect(draw.stderr.contains("is also an input"), "\(draw.stderr)")
    #expect(contents(blob) == before)

    let swipes = workspace.file("hello.jsonl")
    #expect(try CLI.run(["synth", blob, "--words", "hello", "-o", swipes]).status == 0)
    let swipesBefore = contents(swipes)
    let overSwipes = try CLI.run(["draw", blob, "hello", "--swipe", swipes, "-o", swipes])
    #expect(overSwipes.status == 1)
    #expect(contents(swipes) == swipesBefore)
  }

  @Test func benchSamplesNeverOverwriteAQueryFile() throws {
    // The hits file sits where --keyboard-samples would write words.tsv.
    try FileManager.default.createDirectory(
      atPath: workspace.file("samples"), withIntermediateDirectories: true)
    try workspace.write("samples/words.tsv", "hello\nworld\n")
    let before = contents(workspace.file("samples/words.tsv"))
    let result = try CLI.runBench([
      "queries", blob, "--hits", workspace.file("samples/words.tsv"), "--keyboard",
      "--keyboard-samples", workspace.file("samples"), "--passes", "1",
    ])
    #expect(result.status == 1)
    #expect(result.stderr.contains("is also an input"), "\(result.stderr)")
    #expect(contents(workspace.file("samples/words.tsv")) == before)
    // The same for a misspellings file where typos.tsv would go.
    try workspace.write("samples/typos.tsv", "hwllo\thello\n")
    let typosBefore = contents(workspace.file("samples/typos.tsv"))
    let overTypos = try CLI.runBench([
      "queries", blob, "--misspellings", workspace.file("samples/typos.tsv"), "--keyboard",
      "--keyboard-samples", workspace.file("samples"), "--passes", "1", "--completion-words", "2", "--typos", "1",
      "--swipes", "1",
    ])
    #expect(overTypos.status == 1 && overTypos.stderr.contains("is also an input"), "\(overTypos.stderr)")
    #expect(contents(workspace.file("samples/typos.tsv")) == typosBefore)
  }

  @Test(arguments: ["inspect", "verify", "query"])
  func aDamagedBlobsErrorNamesTheFile(_ command: String) throws {
    let bytes = try #require(contents(blob))
    let damaged = workspace.file("damaged.swipedict")
    try bytes.prefix(100).write(to: URL(fileURLWithPath: damaged))
    let result = try CLI.run([command, damaged] + (command == "query" ? ["hello"] : []))
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("error: \(damaged): invalid blob: byte 16: header declares"), "\(result.stderr)")
  }

  @Test func aJSONLayoutErrorGivesLineAndColumn() throws {
    try workspace.write("broken.json", "{\"name\": \"x\",\n \"keyWidth\": ,\n \"keys\": []}")
    let result = try CLI.run([
      "build", workspace.file("words.tsv"), "--layout", workspace.file("broken.json"), "-o",
      workspace.file("out.swipedict"),
    ])
    #expect(result.status == 1)
    #expect(result.stderr == "error: \(workspace.file("broken.json")):2:14: not valid JSON\n")
  }

  // MARK: Numeric options: a clear usage error, never a trap

  @Test(arguments: [
    (["query", "B", "--top", "-1"], "--top must be from 1 to 1,000, not -1"),
    (["query", "B", "--top", "0"], "--top must be from 1 to 1,000, not 0"),
    (["query", "B", "--top", "99999999"], "--top must be from 1 to 1,000, not 99999999"),
    (["query", "B", "--top", "99999999999999999999999"], "--top"),
    (["query", "B", "--prefix", "he", "--limit", "-1"], "--limit must be from 1 to 1,000, not -1"),
    (
      ["query", "B", "--correct", "he", "--limit", "9223372036854775807"],
      "--limit must be from 1 to 1,000, not 9223372036854775807"
    ),
    (
      ["query", "B", "--correct", "he", "--cost", "omission=-1"],
      "--cost omission=-1: the value must be a whole number from 0 to 10000"
    ),
    (
      ["query", "B", "--correct", "he", "--cost", "omission=1e9"],
      "--cost omission=1e9: the value must be a whole number from 0 to 10000"
    ),
    (
      ["query", "B", "--correct", "he", "--cost", "omission=99999999999999999999"],
      "--cost omission=99999999999999999999: the value must be"
    ),
    (
      ["query", "B", "--correct", "he", "--cost", "bogus=1"],
      "--cost bogus=1: expected NAME=VALUE with NAME one of proximity,"
    ),
    (["query", "B", "--correct", "he", "--cost", "omission"], "--cost omission: expected NAME=VALUE"),
    (
      ["query", "B", "--correct", "he", "--corrector", "kaennsch", "--cost", "omission=9"],
      "--cost sets the typing model's costs, not kaennsch's"
    ),
    (["bench", "B", "--misspellings-only"], "--misspellings-only needs --misspellings"),
    (["query", "B", "--list", "he", "--limit", "-5"], "--limit -5: must be 0 (all) or more"),
    (["inspect", "B", "--budget", "0"], "--budget '0': must be at least 1 byte"),
    (["inspect", "B", "--budget", "-1MB"], "--budget '-1MB': not a size"),
    (["inspect", "B", "--budget", "infMB"], "--budget 'infMB': not a size"),
    (["build", "W", "--layout", "L", "-o", "O", "--budget", "1e300GB"], "--budget '1e300GB': not a size"),
    (["build", "W", "--layout", "L", "-o", "O", "--budget", "nan"], "--budget 'nan': not a size"),
    (["build", "W", "--layout", "L", "-o", "O", "--max-words", "-3"], "--max-words -3: must be at least 1"),
    (["build", "W", "--layout", "L", "-o", "O", "--max-words", "0"], "--max-words 0: must be at least 1"),
    (["build", "W", "--layout", "L", "-o", "O", "--min-count", "-1"], "--min-count -1.0: must be a finite number"),
    (["build", "W", "--layout", "L", "-o", "O", "--min-count", "nan"], "--min-count nan: must be a finite number"),
    (["build", "W", "--layout", "L", "-o", "O", "--min-count", "inf"], "--min-count inf: must be a finite number"),
    (["pack", "B", "-o", "O", "--level", "-3"], "--level must be from 1 to 22, not -3"),
  ])
  func badNumbersAreUsageErrors(_ arguments: [String], _ message: String) throws {
    let resolved = arguments.map { argument in
      switch argument {
      case "B": return blob
      case "W": return workspace.file("words.tsv")
      case "L": return workspace.file("layout.json")
      case "O": return workspace.file("out.bin")
      default: return argument
      }
    }
    // The benchmark's options are swipedict-bench's (`queries`).
    let result =
      resolved.first == "bench" ? try CLI.runBench(["queries"] + resolved.dropFirst()) : try CLI.run(resolved)
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!result.stderr.contains("Missing value"))
    #expect(!FileManager.default.fileExists(atPath: workspace.file("out.bin")))
  }

  // MARK: query's exit status, as grep's

  @Test func queryExitStatusTellsWhetherWordsWereFound() throws {
    #expect(try CLI.run(["query", blob, "hello", "world"]).status == 0)
    let some = try CLI.run(["query", blob, "hello", "nope"])
    #expect(some.status == 3)
    #expect(some.stdout == "hello\tid 0\tfrequency 255\nnope\tnot found\n")
    #expect(try CLI.run(["query", blob, "-"], stdin: "hello\nworld\n").status == 0)
    #expect(try CLI.run(["query", blob, "-"], stdin: "hello\nqwzx\n").status == 3)
    #expect(try CLI.run(["query", blob, "--folded", "UBER"]).status == 0)
    #expect(try CLI.run(["query", blob, "--prefix", "he"]).status == 0)
    let none = try CLI.run(["query", blob, "--prefix", "zz"])
    #expect(none.status == 3 && none.stdout.isEmpty)
    #expect(none.stderr == "\(blob): no word starts with \"zz\"\n")  // said, not silence
    // Typed text longer than any word a blob holds: a usage error, at once.
    let long = try CLI.run(
      ["query", blob, "--correct", String(repeating: "a", count: 20_000)], timeLimit: .seconds(10))
    #expect(long.status == 64 && long.stderr.contains("20000 characters, more than the 128"), "\(long.stderr)")
    #expect(try CLI.run(["query", blob, "--correct", "hwllo"]).status == 0)
    #expect(try CLI.run(["query", blob, "--list", "wor"]).status == 0)
    #expect(try CLI.run(["query", blob, "--list", "xyz"]).status == 3)
    #expect(try CLI.run(["query", blob, "--top", "3"]).status == 0)
    #expect(try CLI.run(["query", blob, "--features", "hello"]).status == 0)
    let missing = try CLI.run(["query", blob, "--features", "nope"])
    #expect(missing.status == 3 && missing.stderr.contains("not in the dictionary"))
    #expect(try CLI.run(["query", workspace.file("absent.swipedict"), "hello"]).status == 1)
    #expect(try CLI.run(["query", blob]).status == 64)
    let help = try CLI.run(["query", "--help"])
    #expect(help.stdout.contains("3 when not"))
  }
}
