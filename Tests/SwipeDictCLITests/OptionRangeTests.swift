import Foundation
import SwipeDictTestSupport
import Testing

/// Every numeric option of synth, decode and bench is bounded: a value outside its range is a
/// usage error (exit 64) that names the range, never a trap or a run that exhausts memory.
@Suite("Numeric options are bounded", .serialized)
struct OptionRangeTests {
  let workspace: Workspace
  let blob: String

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
  }

  @Test(
    "synth refuses values out of range, naming it",
    .timeLimit(.minutes(1)),
    arguments: [
      (["--speed", "1e-300"], "--speed must be from 0.1 to 10"),
      (["--speed", "1e-6"], "--speed must be from 0.1 to 10"),
      (["--speed", "1e300"], "--speed must be from 0.1 to 10"),
      (["--rate", "1e9"], "--rate must be from 1 to 1000 Hz"),
      (["--rate", "0"], "--rate must be from 1 to 1000 Hz"),
      (["--rate", "nan"], "--rate must be from 1 to 1000 Hz"),
      (["--noise", "1e300"], "--noise must be from 0 to 10 key widths"),
      (["--jitter", "inf"], "--jitter must be from 0 to 10 key widths"),
      (["--aim-limit", "-1"], "--aim-limit must be from 0 to 10 key widths"),
      (["--corner-cut", "0.5"], "--corner-cut must be at least 0 and below 0.5"),
      (["--noise", "-0.1"], "--noise must be from 0 to 10 key widths"),
    ])
  func synthOptions(arguments: [String], message: String) throws {
    let result = try CLI.run(["synth", blob, "--words", "hello"] + arguments)
    #expect(result.status == 64, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test("synth --sample is bounded", .timeLimit(.minutes(1)))
  func synthSample() throws {
    for value in ["0", "100001", "9223372036854775807"] {
      let result = try CLI.run(["synth", blob, "--sample", value])
      #expect(result.status == 64, "\(value)")
      #expect(result.stderr.contains("--sample must be from 1 to 100,000"), "\(result.stderr)")
    }
  }

  @Test(
    "a 60,000-letter word is refused at build and by synth at once, instead of working for minutes",
    .timeLimit(.minutes(1)))
  func synthLongWord() throws {
    let long = String(repeating: "qpalzm", count: 10_000)
    try workspace.write("long.tsv", "hello\t100\n\(long)\t5\n")
    let longBlob = workspace.file("long.swipedict")
    let build = try CLI.run([
      "build", workspace.file("long.tsv"), "--layout", workspace.file("layout.json"), "-o",
      longBlob,
    ])
    #expect(build.status == 1)
    #expect(build.stderr.contains("long.tsv:2:1: a word of 60000 characters, longer than the 128 a blob holds"))
    let result = try CLI.run(["synth", blob, "--words", long])
    #expect(result.status == 1)
    // The most a swipe can be asked for stays bounded too: 10,000 points.
    let slow = try CLI.run([
      "synth", blob, "--words", "hello", "--rate", "1000", "--speed", "0.1",
    ])
    #expect(slow.status == 0, "\(slow.stderr)")
  }

  @Test(
    "decode refuses a deadline, top or weight out of range",
    .timeLimit(.minutes(1)),
    arguments: [
      (["--deadline", "1e300"], "--deadline must be more than 0 and at most 60000 milliseconds"),
      (["--deadline", "0"], "--deadline must be more than 0 and at most 60000 milliseconds"),
      (["--deadline", "nan"], "--deadline must be more than 0 and at most 60000 milliseconds"),
      (["--top", "0"], "--top must be from 1 to 1,000"),
      (["--top", "1000000"], "--top must be from 1 to 1,000"),
      (["--top", "-1"], "--top must be from 1 to 1,000"),
      (["--deadline", "-5"], "--deadline must be more than 0 and at most 60000 milliseconds"),
      (["--frequency-weight", "1e30"], "--frequency-weight must be from 0 to 1000"),
    ])
  func decodeOptions(arguments: [String], message: String) throws {
    try workspace.write("s.jsonl", #"{"word": "hello", "points": [[1, 2], [30, 10]]}"# + "\n")
    let result = try CLI.run(["decode", blob, "--swipes", workspace.file("s.jsonl")] + arguments)
    #expect(result.status == 64, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test(
    "bench refuses counts and noise out of range",
    .timeLimit(.minutes(1)),
    arguments: [
      (["--passes", "0"], "--passes must be from 1 to 100"),
      (["--passes", "1000000"], "--passes must be from 1 to 100"),
      (["--keyboard", "--swipes", "100000000"], "--swipes must be from 1 to 10,000"),
      (["--keyboard", "--typos", "0"], "--typos must be from 1 to 10,000"),
      (["--keyboard", "--completion-words", "-3"], "--completion-words must be from 1 to 10,000"),
      (["--keyboard", "--swipe-noise", "1e300"], "--swipe-noise must be from 0 to 10 key widths"),
    ])
  func benchOptions(arguments: [String], message: String) throws {
    let result = try CLI.runBench(["queries", blob] + arguments)
    #expect(result.status == 64, "\(arguments): \(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }
}
