import Foundation
import SwipeDictTestSupport
import Testing

@Suite("swipedict decode", .serialized)
struct DecodeTests {
  let workspace: Workspace
  let blob: String

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
  }

  private func lines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  @Test func sentencesAreSwipedWithTheirPreviousWordAndDecodedInContext() throws {
    try workspace.write("pairs.tsv", "hello world\t90\nhello help\t10\nworld hello\t5\n")
    let pairs = workspace.file("pairs.swipedict")
    let built = try CLI.run([
      "build", workspace.file("words.tsv"), "--bigrams", workspace.file("pairs.tsv"), "--layout",
      workspace.file("layout.json"), "-o", pairs,
    ])
    #expect(built.status == 0, "\(built.stderr)")
    try workspace.write("text.txt", "Hello world, hello help!\nworld hello xyzzy world\n")
    let swipes = workspace.file("sentences.jsonl")
    let synth = try CLI.run(["synth", pairs, "--sentences", workspace.file("text.txt"), "--seed", "3", "-o", swipes])
    #expect(synth.status == 0, "\(synth.stderr)")
    #expect(synth.stderr.contains("1 words are not in") && synth.stderr.contains("xyzzy"))
    let written = try lines(String(contentsOfFile: swipes, encoding: .utf8))
    #expect(written.map { $0["word"] as? String } == ["hello", "world", "hello", "help", "world", "hello", "world"])
    // The comma ends the context; "xyzzy" is no word but still the previous word of "world".
    #expect(written.map { $0["previous"] as? String } == [nil, "Hello", nil, "hello", nil, "world", "xyzzy"])
    let decoded = try CLI.run(["decode", pairs, "--swipes", swipes, "--context", "--json"])
    #expect(decoded.status == 0, "\(decoded.stderr)")
    let summary = try #require(try lines(decoded.stdout).last?["summary"] as? [String: Any])
    #expect(summary["swipes"] as? Int == 7)
    let weighted = try CLI.run(["decode", pairs, "--swipes", swipes, "--context", "--pair-weight", "0.3"])
    #expect(weighted.status == 0, "\(weighted.stderr)")
    // With --with, the languages that have pairs read the previous word: the same swipes.
    let languages = try CLI.run(["decode", pairs, "--swipes", swipes, "--context", "--with", blob, "--json"])
    #expect(languages.status == 0, "\(languages.stderr)")
    #expect(try lines(languages.stdout).last?["summary"] as? [String: Any] != nil)
    let copy = workspace.file("copy.swipedict")
    try FileManager.default.copyItem(atPath: blob, toPath: copy)
    let neither = try CLI.run(["decode", blob, "--swipes", swipes, "--context", "--with", copy])
    #expect(neither.status == 1 && neither.stderr.contains("none of the blobs has word pairs"), "\(neither.stderr)")
    // Errors: no pairs in the blob, a weight without --context or out of range, a bad "previous".
    let noPairs = try CLI.run(["decode", blob, "--swipes", swipes, "--context"])
    #expect(noPairs.status == 1 && noPairs.stderr.contains("no word pairs") && noPairs.stderr.contains("--bigrams"))
    #expect(try CLI.run(["decode", pairs, "--swipes", swipes, "--pair-weight", "0.3"]).status == 64)
    #expect(try CLI.run(["decode", pairs, "--swipes", swipes, "--context", "--pair-weight", "1.5"]).status == 64)
    try workspace.write("bad.jsonl", #"{"word": "hello", "previous": 3, "points": [[1, 2]]}"# + "\n")
    let bad = try CLI.run(["decode", pairs, "--swipes", workspace.file("bad.jsonl"), "--context", "--strict"])
    #expect(bad.status == 1 && bad.stderr.contains("bad.jsonl:1:") && bad.stderr.contains(#""previous" is"#))
    try Data([0x68, 0x65, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: workspace.file("binary.txt")))
    let binary = try CLI.run(["synth", pairs, "--sentences", workspace.file("binary.txt")])
    #expect(binary.status == 1 && binary.stderr.contains("binary.txt: not UTF-8"))
  }

  @Test func decodesSynthesizedSwipesAsJSONLines() throws {
    let swipes = workspace.file("swipes.jsonl")
    let synth = try CLI.run(["synth", blob, "--words", "hello", "world", "help", "--seed", "4", "-o", swipes])
    #expect(synth.status == 0, "\(synth.stderr)")
    let result = try CLI.run(["decode", blob, "--swipes", swipes, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let objects = try lines(result.stdout)
    #expect(objects.count == 4)
    for (object, word) in zip(objects, ["hello", "world", "help"]) {
      #expect(object["word"] as? String == word)
      let top = try #require(object["top"] as? [String])
      #expect(top.first == word, "\(top)")
      #expect((object["scores"] as? [Double])?.count == top.count)
      #expect((object["ms"] as? Double ?? -1) >= 0)
      #expect(object["complete"] as? Bool == true)
    }
    let summary = try #require(objects.last?["summary"] as? [String: Any])
    #expect(summary["swipes"] as? Int == 3 && summary["withTruth"] as? Int == 3)
    #expect(summary["top1"] as? Double == 100 && summary["top4"] as? Double == 100)
    #expect((summary["waitMs"] as? [String: Any])?["p99"] != nil)
    #expect((summary["addPointMs"] as? [String: Any])?["max"] != nil)
  }

  @Test func keepsGoingPastBadSwipesUnlessStrict() throws {
    let good = try CLI.run(["synth", blob, "--words", "hello", "world", "--seed", "4"])
    #expect(good.status == 0, "\(good.stderr)")
    let swipes = good.stdout.split(separator: "\n").map(String.init)
    // A copy of "world" whose times wobble back by 3 ms: sensor jitter, decoded as it is.
    let world = try #require(
      try JSONSerialization.jsonObject(with: Data(swipes[1].utf8)) as? [String: Any])
    var points = try #require(world["points"] as? [[Double]])
    let wobble = points.count / 2
    points[wobble][2] = points[wobble - 1][2] - 3
    let jittered = try JSONSerialization.data(withJSONObject: ["word": "world", "points": points])
    try workspace.write(
      "mixed.jsonl",
      [
        swipes[0],
        #"{"word": "hello", "points": [[1, 2, 50], [3, 4, 10]]}"#,  // line 2: time runs backwards
        #"{"word": "hello", "points": [[NaN, 2]]}"#,  // line 3
        #"{"word": "hello", "points": []}"#,  // line 4
        String(decoding: jittered, as: UTF8.self),  // line 5
        swipes[1],
      ].joined(separator: "\n") + "\n")
    let file = workspace.file("mixed.jsonl")
    let result = try CLI.run(["decode", blob, "--swipes", file, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    // Each skipped line is warned about, with what is wrong and what to do.
    for line in [2, 3, 4] {
      #expect(result.stderr.contains("warning: \(file):\(line):"), "\(result.stderr)")
    }
    #expect(result.stderr.components(separatedBy: "warning:").count == 4, "\(result.stderr)")
    let objects = try lines(result.stdout)
    #expect(objects.dropLast().map { $0["line"] as? Int } == [1, 5, 6])
    #expect(objects.dropLast().map { ($0["top"] as? [String])?.first } == ["hello", "world", "world"])
    let summary = try #require(objects.last?["summary"] as? [String: Any])
    #expect(summary["swipes"] as? Int == 3 && summary["skipped"] as? Int == 3)
    #expect(summary["raisedTimes"] as? Int == 1)
    let skipped = try #require(summary["skippedLines"] as? [[String: Any]])
    #expect(skipped.map { $0["line"] as? Int } == [2, 3, 4])
    #expect(skipped.map { $0["reason"] as? String } == ["timeGoesBackwards", "nonFiniteNumber", "noPoints"])
    let text = try CLI.run(["decode", blob, "--swipes", file])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(
      text.stdout.contains(
        "skipped 3 invalid lines: 2 (time runs backwards), 3 (a NaN, infinite or huge number), 4 (empty point list)"),
      "\(text.stdout)")
    #expect(text.stdout.contains("times made monotone: 1 point"), "\(text.stdout)")
    // --strict stops at the first bad line, as before.
    let strict = try CLI.run(["decode", blob, "--swipes", file, "--strict"])
    #expect(strict.status == 1 && strict.stdout.isEmpty)
    #expect(strict.stderr.hasPrefix("error: \(file):2:"), "\(strict.stderr)")
  }

  @Test func decodesSeveralLanguagesWithWith() throws {
    // A second language on the same layout: its words are found, and say their language.
    try workspace.write("xx.tsv", "haus\t900\nwelt\t800\nhilfe\t700\n")
    let other = workspace.file("xx.swipedict")
    #expect(
      try CLI.run(["build", workspace.file("xx.tsv"), "--layout", workspace.file("layout.json"), "-o", other]).status
        == 0)
    let swipes = workspace.file("both.jsonl")
    #expect(try CLI.run(["synth", other, "--words", "welt", "hilfe", "--seed", "4", "-o", swipes]).status == 0)
    let alone = try CLI.run(["synth", blob, "--words", "hello", "--seed", "4"])
    try workspace.write("both.jsonl", try String(contentsOfFile: swipes, encoding: .utf8) + alone.stdout)
    let result = try CLI.run(["decode", blob, "--with", other + ":0.5", "--swipes", swipes, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let objects = try lines(result.stdout)
    for (object, (word, language)) in zip(objects, [("welt", "xx"), ("hilfe", "xx"), ("hello", "words")]) {
      #expect((object["top"] as? [String])?.first == word, "\(object)")
      #expect((object["languages"] as? [String])?.first == language, "\(object)")
    }
    let text = try CLI.run(["decode", blob, "--with", other, "--swipes", swipes])
    #expect(text.stdout.contains("first word's language: words 1, xx 2"), "\(text.stdout)")
    // Bad uses: a weight out of range, --explain, a blob of another layout.
    for weight in ["0", "-1", "inf", "nan", "2000000"] {
      let bad = try CLI.run(["decode", blob, "--with", "\(other):\(weight)", "--swipes", swipes])
      #expect(bad.status == 64 && bad.stderr.contains("weight"), "\(weight): \(bad.stderr)")
    }
    #expect(try CLI.run(["decode", blob, "--with", other, "--swipes", swipes, "--explain"]).status == 64)
    let en = workspace.file("en.swipedict")
    #expect(
      try CLI.run([
        "build", workspace.file("xx.tsv"), "--layout",
        repositoryRoot.appendingPathComponent("corpora/layouts/qwertz-de.json").path,
        "-o", en,
      ]).status == 0)
    let mismatch = try CLI.run(["decode", blob, "--with", en, "--swipes", swipes])
    #expect(mismatch.status == 1 && mismatch.stderr.contains("built for layout qwertz-de"), "\(mismatch.stderr)")
    let missing = try CLI.run(["decode", blob, "--with", workspace.file("nope.swipedict"), "--swipes", swipes])
    #expect(missing.status == 1 && missing.stderr.contains("nope.swipedict"))
    // query --with: completions and corrections from both.
    let completions = try CLI.run(["query", blob, "--with", other, "--prefix", "h"])
    #expect(
      completions.stdout.contains("haus\txx") && completions.stdout.contains("\twords\t"), "\(completions.stdout)")
    #expect(try CLI.run(["query", blob, "--with", other, "hello"]).status == 64)  // lookups: one blob
  }

  @Test func textOutputAndSwipesWithoutTruth() throws {
    let swipes = workspace.file("plain.jsonl")
    // "world" along its key centers on the test layout, without a "word" field.
    try workspace.write("plain.jsonl", "{\"points\": [[15, 8], [85, 8], [35, 8], [90, 23], [30, 23]]}\n")
    let result = try CLI.run(["decode", blob, "--swipes", swipes, "--top", "2"])
    #expect(result.status == 0, "\(result.stderr)")
    let first = try #require(result.stdout.split(separator: "\n").first)
    #expect(first.hasPrefix("world"), "\(result.stdout)")
    #expect(result.stdout.contains("1 swipes") && !result.stdout.contains("accuracy"))
  }

  @Test func synthModelOptionsChangeTheSwipes() throws {
    func points(_ extra: [String]) throws -> Int {
      let result = try CLI.run(["synth", blob, "--words", "world", "--seed", "2"] + extra)
      #expect(result.status == 0, "\(result.stderr)")
      let object = try #require(try lines(result.stdout).first)
      return (object["points"] as? [Any])?.count ?? 0
    }
    let base = try points([])
    #expect(try points(["--rate", "120"]) >= 2 * base - 2)
    #expect(try points(["--speed", "2"]) <= base / 2 + 2)
    let plain = try CLI.run(["synth", blob, "--words", "world", "--seed", "2"]).stdout
    for option in [["--jitter", "0.1"], ["--corner-cut", "0.45"], ["--aim-limit", "0.1"]] {
      let varied = try CLI.run(["synth", blob, "--words", "world", "--seed", "2"] + option).stdout
      #expect(varied != plain, "\(option)")
    }
    for bad in [["--rate", "0"], ["--jitter", "-1"], ["--corner-cut", "0.5"], ["--speed", "nan"]] {
      let result = try CLI.run(["synth", blob, "--words", "world"] + bad)
      #expect(result.status == 64, "\(bad)")
    }
  }

  @Test func badInputIsNamed() throws {
    let missing = try CLI.run(["decode", blob, "--swipes", workspace.file("nope.jsonl")])
    #expect(missing.status == 1 && missing.stderr.contains("nope.jsonl"))
    let broken = workspace.file("broken.jsonl")
    try workspace.write("broken.jsonl", "{\"points\": [[1, 2]]}\n{\"points\": [[1, 2]\n")
    let malformed = try CLI.run(["decode", blob, "--swipes", broken, "--strict"])
    #expect(malformed.status == 1 && malformed.stderr.contains("broken.jsonl:2"), "\(malformed.stderr)")
    let skipped = try CLI.run(["decode", blob, "--swipes", broken])
    #expect(skipped.status == 0 && skipped.stderr.hasPrefix("warning: \(broken):2:"), "\(skipped.stderr)")
    #expect(skipped.stdout.contains("skipped 1 invalid line: 2 (not JSON)"), "\(skipped.stdout)")
    let usage = try CLI.run(["decode", blob, "--swipes", broken, "--top", "0"])
    #expect(usage.status == 64)
    let deadline = try CLI.run(["decode", blob, "--swipes", broken, "--deadline", "-3"])
    #expect(deadline.status == 64)
  }

  @Test func explainsWhereTheWordWent() throws {
    let swipes = workspace.file("explain.jsonl")
    let synth = try CLI.run(["synth", blob, "--words", "hello", "world", "--seed", "4", "-o", swipes])
    #expect(synth.status == 0, "\(synth.stderr)")
    // Each swipe's own word: its forms ("hello" and "Hello"), the filters and the scores.
    let text = try CLI.run(["decode", blob, "--swipes", swipes, "--explain"])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("\"hello\" (id"), "\(text.stdout)")
    #expect(text.stdout.contains("\"Hello\" (id"), "\(text.stdout)")
    #expect(text.stdout.contains("filters: start"))
    #expect(text.stdout.contains("ignoring case and apostrophes: top-1"))
    // Another word: "help" for the swipe of "world" is dropped by a filter.
    let other = try CLI.run(["decode", blob, "--swipes", swipes, "--explain", "--word", "help", "--json"])
    #expect(other.status == 0, "\(other.stderr)")
    let objects = try lines(other.stdout)
    let world = try #require(objects.first { $0["word"] as? String == "world" })
    let explain = try #require(world["explain"] as? [String: Any])
    let forms = try #require(explain["forms"] as? [[String: Any]])
    #expect(forms.first?["word"] as? String == "help")
    #expect((forms.first?["verdict"] as? String)?.hasPrefix("filtered") == true, "\(forms)")
    let summary = try #require(objects.last?["summary"] as? [String: Any])
    #expect(summary["top1Folded"] != nil && summary["top4FoldedInterval"] != nil)
    // --misses prints only the swipes whose word is not first: none here.
    let misses = try CLI.run(["decode", blob, "--swipes", swipes, "--misses", "--json"])
    #expect(try lines(misses.stdout).count == 1)
    // A swipe of "hello" labelled "world" is a miss: --misses prints it, explained.
    let labelled = try String(contentsOfFile: swipes, encoding: .utf8).split(separator: "\n")
    try workspace.write(
      "mislabelled.jsonl", labelled[0].replacingOccurrences(of: "\"hello\"", with: "\"world\"") + "\n")
    let missed = try CLI.run(["decode", blob, "--swipes", workspace.file("mislabelled.jsonl"), "--misses", "--explain"])
    #expect(
      missed.status == 0 && missed.stdout.contains("world\t→") && missed.stdout.contains("\"world\" (id"),
      "\(missed.stdout)")
    // --word without --explain is a usage error.
    let usage = try CLI.run(["decode", blob, "--swipes", swipes, "--word", "help"])
    #expect(usage.status == 64 && usage.stderr.contains("--explain"))
  }

  @Test func setChangesADecoderParameterAndRefusesBadOnes() throws {
    let swipes = workspace.file("set.jsonl")
    let synth = try CLI.run(["synth", blob, "--words", "hello", "world", "help", "--seed", "6", "-o", swipes])
    #expect(synth.status == 0, "\(synth.stderr)")
    func candidates(_ arguments: [String]) throws -> [Int] {
      let result = try CLI.run(["decode", blob, "--swipes", swipes, "--json"] + arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      return try lines(result.stdout).dropLast().map { try #require($0["candidates"] as? Int) }
    }
    let wide = try candidates([])
    // A tight length filter keeps fewer words; the last setting of a name wins.
    let tight = try candidates(["--set", "length-low=1", "--set", "length-high=1", "--set", "length-slack=0"])
    #expect(zip(tight, wide).allSatisfy { $0 <= $1 } && tight != wide, "\(tight) vs \(wide)")
    #expect(try candidates(["--set", "length-slack=0", "--set", "length-slack=2"]) == wide)
    for bad in [
      "nope=1", "direction", "direction=x", "direction=181", "max-point-cost=0", "weight-min=nan", "length-high=0.4",
    ] {
      let result = try CLI.run(["decode", blob, "--swipes", swipes, "--set", bad])
      #expect(result.status == 64 && result.stderr.contains("--set"), "\(bad): \(result.stderr)")
    }
  }
}
