import Foundation
import SwipeDictTestSupport
import Testing

/// `swipedict bench --keyboard`: the keyboard queries' JSON, the sample files the peers read,
/// and that the samples depend only on the blob and the seed. (No time is asserted.)
@Suite("swipedict bench --keyboard", .serialized)
struct BenchKeyboardTests {
  let workspace: Workspace
  let blob: String

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
  }

  private func bench(_ extra: [String]) throws -> (CLI.Result, [String: Any]?) {
    let result = try CLI.runBench(
      [
        "queries", blob, "--json", "--passes", "1", "--keyboard", "--completion-words", "20",
        "--typos", "3",
        "--swipes", "5",
      ] + extra)
    let json = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    return (result, json)
  }

  private func lines(_ path: String) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n").map(String.init)
  }

  @Test func keyboardFiguresAndSamples() throws {
    let samples = workspace.file("samples")
    let (result, parsed) = try bench(["--keyboard-samples", samples])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(parsed)
    // The existing figures are still there.
    for key in ["openNs", "lookupHitNs", "lookupMissNs", "wordToIdNs", "idToWordNs", "prefixNs"] {
      #expect(json[key] is NSNumber, "\(key)")
    }
    let keyboard = try #require(json["keyboard"] as? [String: Any])
    let completion = try #require(keyboard["completion"] as? [String: Any])
    let queries = try #require(completion["queries"] as? Int)
    #expect(queries >= 20)  // every prefix of 20 words of 2 letters or more
    #expect(completion["medianUs"] is NSNumber && completion["p99Us"] is NSNumber)
    let byLength = try #require(completion["byLength"] as? [[String: Any]])
    #expect(byLength.map { $0["letters"] as? String } == ["1", "2", "3", "4+"])
    #expect(byLength.reduce(0) { $0 + ($1["queries"] as? Int ?? 0) } == queries)
    #expect((completion["results"] as? Int ?? 0) > 0)

    let correction = try #require(keyboard["correction"] as? [String: Any])
    #expect(correction["queries"] as? Int == 15)  // 3 per kind, 5 kinds
    let kinds = try #require(correction["byKind"] as? [[String: Any]])
    #expect(
      kinds.map { $0["kind"] as? String }
        == ["substitution", "omission", "insertion", "transposition", "unchanged"])
    let top1 = try #require(correction["top1"] as? Double)
    let top3 = try #require(correction["top3"] as? Double)
    #expect(0 <= top1 && top1 <= top3 && top3 <= 1)

    let filter = try #require(keyboard["filter"] as? [String: Any])
    #expect(filter["swipes"] as? Int == 5)
    #expect(filter["medianCandidates"] is NSNumber)
    let recall = try #require(filter["recall"] as? Double)
    #expect(0 <= recall && recall <= 1)

    // The files the peers read: every word with frequency and folded form, and the prefixes.
    let words = try lines(samples + "/words.tsv")
    #expect(words.count == json["words"] as? Int)
    let uber = try #require(words.first { $0.hasPrefix("Über\t") })
    #expect(uber.split(separator: "\t").last == "uber")  // SwipeDict's folding, for the peers
    let prefixes = try lines(samples + "/completions.tsv")
    #expect(prefixes.count == queries)
    // letters, prefix, folded prefix, plain (1: read by its folding classes alone)
    let fields = prefixes.map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    #expect(fields.allSatisfy { $0.count == 4 && ($0[3] == "0" || $0[3] == "1") })
    let plain = fields.filter { $0[3] == "1" }.count
    #expect(completion["plainQueries"] as? Int == plain)
    #expect(try lines(samples + "/typos.tsv").count == 15)
    #expect(try lines(samples + "/swipes.jsonl").count == 5)
  }

  @Test func samplesDependOnlyOnBlobAndSeed() throws {
    let a = workspace.file("a")
    let b = workspace.file("b")
    let c = workspace.file("c")
    #expect(try bench(["--keyboard-samples", a]).0.status == 0)
    #expect(try bench(["--keyboard-samples", b]).0.status == 0)
    #expect(try bench(["--keyboard-samples", c, "--seed", "99"]).0.status == 0)
    for file in ["completions.tsv", "typos.tsv", "swipes.jsonl"] {
      #expect(try lines(a + "/" + file) == lines(b + "/" + file), "\(file)")
    }
    #expect(try lines(a + "/typos.tsv") != lines(c + "/typos.tsv"))
  }

  @Test func textOutputAndUsageErrors() throws {
    let text = try CLI.runBench([
      "queries", blob, "--passes", "1", "--keyboard", "--completion-words", "5", "--typos", "1",
      "--swipes", "2",
    ])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("keyboard queries"))
    #expect(text.stdout.contains("completion, limit 10"))
    #expect(text.stdout.contains("swipe filter"))
    let plain = try CLI.runBench(["queries", blob, "--json", "--passes", "1"])
    #expect(plain.status == 0)
    #expect(!plain.stdout.contains("\"keyboard\""))
    #expect(try CLI.runBench(["queries", blob, "--keyboard-samples", workspace.file("x")]).status == 64)
    #expect(try CLI.runBench(["queries", blob, "--keyboard", "--typos", "0"]).status == 64)
    #expect(try CLI.runBench(["queries", blob, "--keyboard", "--swipe-noise", "-1"]).status == 64)
  }
}

/// `swipedict bench --misspellings`: the rates on a pair file, and a clear error for a bad one.
@Suite("swipedict bench --misspellings")
struct BenchMisspellingTests {
  let workspace: Workspace
  let blob: String

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
  }

  @Test func ratesOnAPairFile() throws {
    try workspace.write(
      "pairs.tsv", "# typed<TAB>intended\nhwllo\thello\nhelo\thello\nwrold\tworld\nhello\thello\nzzzz\tqqqq\n")
    for corrector in ["typing", "kaennsch"] {
      let result = try CLI.runBench([
        "queries", blob, "--misspellings", workspace.file("pairs.tsv"), "--misspellings-only", "--json", "--passes",
        "1",
        "--corrector", corrector,
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      let sets = try #require(json["misspellings"] as? [[String: Any]])
      let set = try #require(sets.first)
      #expect(set["pairs"] as? Int == 5)
      #expect(set["intendedInBlob"] as? Int == 4)  // qqqq is no word
      let top1 = try #require(set["top1"] as? Double)
      let top3 = try #require(set["top3"] as? Double)
      #expect(top1 <= top3 && top3 <= 0.8)  // qqqq can never be found
      #expect(top1 >= 0.4, "\(corrector): \(top1)")  // hwllo and hello at least
      let typedInBlob = try #require(set["typedInBlob"] as? [String: Any])
      #expect(typedInBlob["pairs"] as? Int == 1)  // hello
    }
    let text = try CLI.runBench([
      "queries", blob, "--misspellings", workspace.file("pairs.tsv"), "--misspellings-only", "--passes", "1",
    ])
    #expect(text.stdout.contains("intended word first") && text.stdout.contains("in the top 3"))
  }

  @Test func aBadPairFileNamesTheLine() throws {
    try workspace.write("bad.tsv", "hwllo\thello\nno tab here\n")
    let result = try CLI.runBench(["queries", blob, "--misspellings", workspace.file("bad.tsv"), "--misspellings-only"])
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix("error: \(workspace.file("bad.tsv")):2: expected a typed word and the intended word"))
    let missing = try CLI.runBench([
      "queries", blob, "--misspellings", workspace.file("nope.tsv"), "--misspellings-only",
    ])
    #expect(missing.status == 1 && missing.stderr.contains("nope.tsv: cannot read the file"))
    try workspace.write("empty.tsv", "# nothing\n")
    let empty = try CLI.runBench([
      "queries", blob, "--misspellings", workspace.file("empty.tsv"), "--misspellings-only",
    ])
    #expect(empty.status == 1 && empty.stderr.contains("no misspelling pairs"))
  }
}
