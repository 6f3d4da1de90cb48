import Foundation
import SwipeDictTestSupport
import Testing

/// The test runner of the built `swipedict` itself: it must not hang on a child that writes
/// more than a pipe holds to standard error, and it must kill a child that runs too long.
@Suite("The CLI runner", .serialized)
struct CLIRunnerTests {
  let workspace: Workspace
  let blob: String

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
  }

  @Test(
    "a child that writes more than a pipe's 64 KiB to stderr does not block the runner",
    .timeLimit(.minutes(1)))
  func largeStderrDoesNotDeadlock() throws {
    // One error line per word that is not in the blob: about 100 KB of stderr (more words
    // would mostly time argument parsing, which grows with the square of the count).
    let missing = (0..<1_200).map { "zq\(String($0, radix: 26))" }
    let result = try CLI.run(["synth", blob, "--words"] + missing)
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.utf8.count > 64 * 1024)
    #expect(result.stderr.split(separator: "\n").count >= missing.count)
  }

  @Test("a child that runs past the time limit is killed and the run throws", .timeLimit(.minutes(1)))
  func timeLimitKillsTheChild() throws {
    let clock = ContinuousClock()
    let start = clock.now
    #expect(throws: CLI.TimedOut.self) {
      try CLI.runBench(
        ["queries", blob, "--keyboard", "--passes", "100", "--completion-words", "10000"],
        timeLimit: .milliseconds(300))
    }
    // Killed, not waited for: the bench alone runs for many seconds.
    #expect(clock.now - start < .seconds(30))
  }
}
