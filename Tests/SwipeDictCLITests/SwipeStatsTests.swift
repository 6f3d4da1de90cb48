import Foundation
import SwipeDictTestSupport
import Testing

@Suite("swipedict swipestats and synth --model", .serialized)
struct SwipeStatsTests {
  let workspace: Workspace
  let blob: String

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
  }

  /// Writes 60 synthetic swipes of the workspace's words to `real.jsonl` and returns its path.
  private func realSwipes() throws -> String {
    let path = workspace.file("real.jsonl")
    let result = try CLI.run(["synth", blob, "--sample", "60", "--seed", "5", "-o", path])
    #expect(result.status == 0, "\(result.stderr)")
    return path
  }

  @Test func statisticsSideBySideFitAndDrawWithTheModel() throws {
    let real = try realSwipes()
    let model = workspace.file("model.json")
    let stats = try CLI.run([
      "swipestats", blob, "--swipes", real, "--swipes", real, "--fit-model", model, "--rounds", "2",
    ])
    #expect(stats.status == 0, "\(stats.stderr)")
    let lines = stats.stdout.split(separator: "\n")
    #expect(lines.first == "| statistic | `\(real)` | `\(real)` |")
    #expect(lines.contains { $0.hasPrefix("| length ÷ expected length | ") })
    #expect(stats.stderr.contains("wrote \(model)"))
    let text = try String(contentsOfFile: model, encoding: .utf8)
    #expect(text.contains(#""format":"swipedict-human-swipe-model""#))
    #expect(text.contains(#""command":"swipedict swipestats "#))

    let arguments = ["synth", blob, "--words-from", real, "--model", model, "--seed", "3"]
    let first = try CLI.run(arguments)
    let second = try CLI.run(arguments)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout == second.stdout)
    #expect(first.stdout.split(separator: "\n").count == 60)
    let other = try CLI.run(["synth", blob, "--words-from", real, "--model", model, "--seed", "4"])
    #expect(other.stdout != first.stdout)
    // Without --model, --words-from draws the default model's swipes of the same words.
    let plain = try CLI.run(["synth", blob, "--words-from", real, "--seed", "3"])
    #expect(plain.status == 0 && plain.stdout != first.stdout)
  }

  @Test func wordsFromMatchesLabelsIgnoringCaseAndWarnsAboutTheRest() throws {
    let labels = workspace.file("labels.jsonl")
    try workspace.write(
      "labels.jsonl",
      #"{"word": "WORLD", "points": [[1, 2]]}"# + "\n" + #"{"word": "nope", "points": [[1, 2]]}"#
        + "\n" + #"{"points": [[1, 2]]}"# + "\n")
    let result = try CLI.run(["synth", blob, "--words-from", labels])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix(#"{"word":"world","#))
    #expect(result.stdout.split(separator: "\n").count == 1)
    #expect(result.stderr.contains(#"1 words are not in"#) && result.stderr.contains(#""nope""#))
    #expect(result.stderr.contains("1 swipes have no word"))
  }

  @Test func badModelFilesNameTheFileAndLine() throws {
    try workspace.write("bad.json", "{\n  \"format\": \"swipedict-human-swipe-model\",\n  nope\n}\n")
    let broken = try CLI.run(["synth", blob, "--words", "hello", "--model", workspace.file("bad.json")])
    #expect(broken.status == 1)
    #expect(broken.stderr.contains("error: \(workspace.file("bad.json")):3: not JSON"))
    #expect(broken.stderr.contains("hint: "))
    let missing = try CLI.run(["synth", blob, "--words", "hello", "--model", workspace.file("none.json")])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("cannot read the model"))
    // A model but an option it replaces: a usage error.
    let usage = try CLI.run([
      "synth", blob, "--words", "hello", "--model", workspace.file("bad.json"), "--aim-limit", "1",
    ])
    #expect(usage.status == 64)
  }

  @Test func badSwipeFilesNameTheFileAndLine() throws {
    let bad = workspace.file("bad.jsonl")
    try workspace.write("bad.jsonl", #"{"word": "hello", "points": [[1, 2]]}"# + "\n{\"word\": 3}\n")
    let result = try CLI.run(["swipestats", blob, "--swipes", bad])
    #expect(result.status == 1)
    #expect(result.stderr.contains("error: \(bad):2:"))
    #expect(result.stderr.contains("hint: "))
    let fromWords = try CLI.run(["synth", blob, "--words-from", bad])
    #expect(fromWords.status == 1)
    #expect(fromWords.stderr.contains("error: \(bad):2:"))
    // Swipes without words measure nothing: said so.
    try workspace.write("unlabelled.jsonl", #"{"points": [[1, 2], [3, 4]]}"# + "\n")
    let unlabelled = try CLI.run(["swipestats", blob, "--swipes", workspace.file("unlabelled.jsonl")])
    #expect(unlabelled.status == 1)
    #expect(unlabelled.stderr.contains("none of its 1 swipes has a word"))
  }

  @Test func theModelIsNeverWrittenOverAnInput() throws {
    let real = try realSwipes()
    let before = try Data(contentsOf: URL(fileURLWithPath: real))
    let result = try CLI.run(["swipestats", blob, "--swipes", real, "--fit-model", real])
    #expect(result.status == 1)
    #expect(result.stderr.contains("is also an input"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: real)) == before)
    let rounds = try CLI.run(["swipestats", blob, "--swipes", real, "--rounds", "99"])
    #expect(rounds.status == 64)
  }
}
