import Foundation
import SwipeDictTestSupport
import Testing

@Suite("swipedict command line", .serialized)
struct CLITests {
  let workspace: Workspace
  let blob: String

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
  }

  @Test func buildPrintsASummary() throws {
    let result = try CLI.run([
      "build", workspace.file("words.tsv"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("again.swipedict"),
    ])
    #expect(result.status == 0)
    #expect(result.stdout.contains("6 words"))
    #expect(result.stdout.contains("dropped 1 untypeable"))
    #expect(result.stdout.contains("DAWG"))
    // Same inputs, same bytes.
    #expect(
      FileManager.default.contents(atPath: blob)
        == FileManager.default.contents(atPath: workspace.file("again.swipedict")))
  }

  @Test func buildTimingsListEveryStageInOrderEvenWhenQuiet() throws {
    let result = try CLI.run([
      "build", workspace.file("words.tsv"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("timed.swipedict"), "--quiet", "--timings",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("timings: ") }
    let stages = lines.map { $0.split(separator: " ")[3] }
    #expect(
      stages == ["reading:", "filtering:", "sorting:", "building:", "building:", "writing:", "written:"],
      "\(result.stderr)")
    let times = lines.compactMap { Double($0.split(separator: " ")[1]) }
    #expect(times.count == lines.count && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(times)")
    #expect(lines.last?.hasSuffix("timed.swipedict") == true)
  }

  @Test func anAOSPListWithPhrasesBuildsAsItIsAndSaysWhatItKeptApart() throws {
    try workspace.write(
      "main_xx.combined",
      "dictionary=main:xx,locale=xx\n word=hello,f=200\n word=hello world,f=150\n word=help,f=120\n")
    let result = try CLI.run([
      "build", workspace.file("main_xx.combined"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("aosp.swipedict"),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("2 words"))
    #expect(
      result.stdout.contains("kept apart 1 multi-word entry (phrases, not swiped words), e.g.: \"hello world\""),
      "\(result.stdout)")
  }

  @Test func anAOSPListKeepsItsMarksAndShortcutsThroughBuildQueryAndDump() throws {
    try workspace.write(
      "main_yy.combined",
      """
      dictionary=main:yy,locale=yy
       word=hello,f=200
       word=hell,f=190,flags=,possibly_offensive=true
       word=help,f=120,flags=abbreviation
       word=ill,f=100
        shortcut=I'll,f=whitelist
       word=I'll,f=110
       word=helo,f=0,not_a_word=true
        shortcut=hello,f=whitelist

      """)
    let blob = workspace.file("marks.swipedict")
    let built = try CLI.run([
      "build", workspace.file("main_yy.combined"), "--layout", workspace.file("layout.json"), "-o", blob,
    ])
    #expect(built.status == 0, "\(built.stderr)")
    #expect(
      built.stdout.contains(
        "marked 1 possibly offensive (accepted, never suggested), 1 abbreviations; 1 misspellings"
          + " (not_a_word, kept only as shortcut sources); 2 shortcuts, 2 whitelisted"), "\(built.stdout)")
    let looked = try CLI.run(["query", blob, "hell", "help", "ill", "helo"])
    #expect(looked.stdout.contains("hell\tid "), "\(looked.stdout)")
    #expect(looked.stdout.contains("possibly offensive (never suggested)"))
    #expect(looked.stdout.contains("\tabbreviation\n"))
    #expect(looked.stdout.contains("\t→ I'll (whitelisted)"))
    #expect(looked.stdout.contains("helo\tnot found\t→ hello (whitelisted)"))
    #expect(looked.status == 3)  // helo is no word
    let json = try CLI.run(["query", blob, "helo", "hell", "--json"])
    #expect(
      json.stdout.contains(#""shortcuts":[{"target":"hello","whitelisted":true,"frequency":255}]"#), "\(json.stdout)")
    #expect(json.stdout.contains(#""marks":["possiblyOffensive"]"#))
    // Never suggested unless asked.
    let completions = try CLI.run(["query", blob, "--prefix", "hel"])
    #expect(completions.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["hello", "help"])
    let all = try CLI.run(["query", blob, "--prefix", "hel", "--allow-offensive"])
    #expect(all.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["hello", "hell", "help"])
    // The combined dump keeps them, and rebuilds into the same marks and shortcuts.
    let dump = try CLI.run(["dump", blob, "--format", "combined"])
    #expect(
      dump.stdout.contains(" word=hell,f=") && dump.stdout.contains(",possibly_offensive=true\n"), "\(dump.stdout)")
    #expect(dump.stdout.contains(",flags=abbreviation\n"))
    #expect(dump.stdout.contains("  shortcut=I'll,f=whitelist\n"))
    #expect(dump.stdout.hasSuffix(" word=helo,f=0,not_a_word=true\n  shortcut=hello,f=whitelist\n"))
    let list = workspace.file("marks-dump.combined")
    try workspace.write("marks-dump.combined", dump.stdout)
    let again = workspace.file("marks-again.swipedict")
    #expect(try CLI.run(["build", list, "--layout", workspace.file("layout.json"), "-o", again]).status == 0)
    #expect(try CLI.run(["query", again, "hell", "help", "ill", "helo"]).stdout == looked.stdout)
    // A TSV dump keeps the marks in a third column, says what it cannot hold (shortcuts), and
    // rebuilds into the same marks.
    let tsv = try CLI.run(["dump", blob])
    #expect(tsv.stdout.contains("\nhell\t") && tsv.stdout.contains("\tpossibly_offensive\n"), "\(tsv.stdout)")
    #expect(tsv.stdout.contains("\tabbreviation\n"))
    #expect(tsv.stderr.contains("cannot hold the shortcuts of 2 spellings"), "\(tsv.stderr)")
    try workspace.write("marks-dump.tsv", tsv.stdout)
    let fromTSV = workspace.file("marks-tsv.swipedict")
    #expect(
      try CLI.run(["build", workspace.file("marks-dump.tsv"), "--layout", workspace.file("layout.json"), "-o", fromTSV])
        .status == 0)
    let relooked = try CLI.run(["query", fromTSV, "hell", "help", "ill"]).stdout
    #expect(
      relooked.contains("possibly offensive (never suggested)") && relooked.contains("\tabbreviation\n"), "\(relooked)")
  }

  @Test func queryIDIsTheReverseLookup() throws {
    let looked = try CLI.run(["query", blob, "help", "--json"])
    let id = try #require(
      looked.stdout.split(separator: ",").first { $0.contains("\"id\"") }?.split(separator: ":").last)
    let back = try CLI.run(["query", blob, "--id", String(id), "--json"])
    #expect(back.status == 0 && back.stdout.contains("\"word\":\"help\""), "\(back.stdout)")
    // An ID outside the blob is "not found" (3), among others too; -1 parses as a value.
    let missing = try CLI.run(["query", blob, "--id", String(id), "--id", "-1", "--id", "99999"])
    #expect(missing.status == 3 && missing.stdout.contains("help") && missing.stdout.contains("-1\tnot a word ID"))
    let both = try CLI.run(["query", blob, "help", "--id", "0"])
    #expect(both.status == 64)
  }

  @Test func aDumpRebuiltGivesTheSameWordsIDsAndFrequencies() throws {
    let dump = try CLI.run(["dump", blob])
    #expect(dump.status == 0, "\(dump.stderr)")
    let lines = dump.stdout.split(separator: "\n")
    #expect(lines.first?.hasPrefix("# swipedict dump of words.swipedict: 6 words") == true, "\(dump.stdout)")
    // A header, then the six words in ID order, each with a count.
    #expect(lines.count == 7 && lines.dropFirst().allSatisfy { $0.split(separator: "\t").count == 2 })
    // In ID order: the order `query --list '' --limit 0` lists.
    let listed = try CLI.run(["query", blob, "--list", "", "--limit", "0"]).stdout.split(separator: "\n")
    #expect(lines.dropFirst().map { $0.split(separator: "\t")[0] } == listed.map { $0.split(separator: "\t")[0] })
    let list = workspace.file("dump.tsv")
    #expect(try CLI.run(["dump", blob, "-o", list]).status == 0)
    let again = workspace.file("again-from-dump.swipedict")
    let build = try CLI.run(["build", list, "--layout", workspace.file("layout.json"), "-o", again])
    #expect(build.status == 0, "\(build.stderr)")
    let redump = try CLI.run(["dump", again])
    #expect(redump.stdout.split(separator: "\n").dropFirst() == lines.dropFirst())
    for word in ["hello", "Hello", "über"] {
      #expect(try CLI.run(["query", again, word]).stdout == (try CLI.run(["query", blob, word]).stdout))
    }
    // As AOSP combined: the same words and IDs again.
    let combined = workspace.file("dump.combined")
    #expect(try CLI.run(["dump", blob, "--format", "combined", "-o", combined]).status == 0)
    let text = try String(contentsOfFile: combined, encoding: .utf8)
    #expect(text.hasPrefix("dictionary=main:") && text.contains("\n word=hello,f="))
    let fromCombined = workspace.file("again-from-combined.swipedict")
    #expect(
      try CLI.run(["build", combined, "--layout", workspace.file("layout.json"), "-o", fromCombined]).status == 0)
    let relisted = try CLI.run(["query", fromCombined, "--list", "", "--limit", "0"]).stdout.split(separator: "\n")
    #expect(relisted.map { $0.split(separator: "\t")[0] } == listed.map { $0.split(separator: "\t")[0] })
    // The dump never goes over the blob.
    let clash = try CLI.run(["dump", blob, "-o", blob])
    #expect(clash.status == 1 && FileManager.default.fileExists(atPath: blob))
    #expect(try CLI.run(["query", blob, "hello"]).status == 0)
  }

  @Test func diffShowsAddedRemovedAndReRankedWords() throws {
    // The workspace list: hello 100, help 50, Hello 20, world 70, über 5, Über 3.
    try workspace.write("other.tsv", "hello\t100\nhelp\t50\nHello\t20\nword\t70\nüber\t500\nÜber\t3\n")
    let other = workspace.file("other.swipedict")
    #expect(
      try CLI.run(["build", workspace.file("other.tsv"), "--layout", workspace.file("layout.json"), "-o", other]).status
        == 0)
    let text = try CLI.run(["diff", blob, other])
    #expect(text.status == 3, "\(text.stderr)")
    #expect(text.stdout.contains("1 added, 1 removed"), "\(text.stdout)")
    #expect(text.stdout.contains("+ word\t") && text.stdout.contains("- world\t") && text.stdout.contains("~ über\t"))
    let json = try CLI.run(["diff", blob, other, "--json", "--limit", "0"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["added"] as? Int == 1 && object["removed"] as? Int == 1)
    let changed = try #require(object["changedWords"] as? [[String: Any]])
    #expect(
      changed.contains { $0["word"] as? String == "über" && ($0["after"] as? Int ?? 0) > ($0["before"] as? Int ?? 0) })
    // The same blob: no difference, exit 0; a missing blob: an error naming it, exit 1.
    let same = try CLI.run(["diff", blob, blob])
    #expect(same.status == 0 && same.stdout.contains("0 added, 0 removed, 0 with another frequency"))
    let missing = try CLI.run(["diff", blob, workspace.file("nope.swipedict")])
    #expect(missing.status == 1 && missing.stderr.contains("nope.swipedict"))
    #expect(try CLI.run(["diff", blob, other, "--limit", "-1"]).status == 64)
  }

  @Test func inspectJSON() throws {
    let result = try CLI.run(["inspect", blob, "--json"])
    #expect(result.status == 0)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(json["wordCount"] as? Int == 6)
    #expect(json["formatVersion"] as? String == "1.5")
    let tags = (json["sections"] as? [[String: Any]])?.compactMap { $0["tag"] as? String }
    #expect(tags?.contains("DAWG") == true)
    #expect((json["layout"] as? [String: Any])?["name"] as? String == "cli")
    #expect((json["metadata"] as? [String: Any])?["words"] as? Int == 6)
  }

  @Test func queryWordsAndStdin() throws {
    let result = try CLI.run(["query", blob, "hello", "nope", "-", "--json"], stdin: "world\r\nHello\n")
    #expect(result.status == 3)  // "nope" is not found
    let lines = result.stdout.split(separator: "\n").map { String($0) }
    #expect(lines.count == 4)
    #expect(lines[0].hasPrefix(#"{"word":"hello","found":true,"id":"#))
    #expect(lines[1] == #"{"word":"nope","found":false,"id":null,"frequency":null}"#)
    #expect(lines[2].hasPrefix(#"{"word":"world","found":true"#))
    #expect(lines[3].hasPrefix(#"{"word":"Hello","found":true"#))
  }

  @Test func queryPrefixAndFolded() throws {
    let prefix = try CLI.run(["query", blob, "--list", "hel", "--limit", "2"])
    #expect(prefix.stdout == "hello\nhelp\n")
    let all = try CLI.run(["query", blob, "--list", "", "--limit", "0"])
    #expect(all.stdout == "hello\nhelp\nHello\nüber\nÜber\nworld\n")
    let folded = try CLI.run(["query", blob, "--folded", "UBER"])
    #expect(folded.stdout.contains("über") && folded.stdout.contains("Über"))
  }

  @Test func buildWithBigramsAndPredictTheNextWord() throws {
    try workspace.write(
      "pairs.tsv",
      "# w1 w2<TAB>count\nhello world\t90\nhello help\t10\nhelp hello\t5\nhello nobody\t3\nworld help\t50\n")
    let out = workspace.file("pairs.swipedict")
    let built = try CLI.run([
      "build", workspace.file("words.tsv"), "--bigrams", workspace.file("pairs.tsv"), "--layout",
      workspace.file("layout.json"), "-o", out,
    ])
    #expect(built.status == 0, "\(built.stderr)")
    #expect(built.stdout.contains("bigrams: kept 4 pairs") && built.stdout.contains("left out 1"))
    #expect(built.stdout.contains("BIGR"))
    let next = try CLI.run(["query", out, "--after", "hello"])
    #expect(
      next.status == 0 && next.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["world", "help"])
    #expect(try CLI.run(["verify", out]).status == 0)
    // With --prefix or --correct, --after ranks by the previous word: "help" is the follower
    // of "world", "hello" the more frequent word.
    let plain = try CLI.run(["query", out, "--prefix", "hel", "--limit", "2"])
    #expect(plain.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["hello", "help"])
    let inContext = try CLI.run(["query", out, "--prefix", "hel", "--after", "world", "--limit", "2"])
    #expect(inContext.status == 0 && inContext.stdout.hasPrefix("help\tfrequency "), "\(inContext.stdout)")
    #expect(inContext.stdout.contains("\tscore "))
    let corrected = try CLI.run(["query", out, "--correct", "helo", "--after", "help", "--json"])
    #expect(corrected.status == 0 && corrected.stdout.hasPrefix(#"{"word":"hello""#))
    // With --with, the previous word reaches the languages that have pairs.
    let languages = try CLI.run(["query", out, "--prefix", "hel", "--after", "world", "--with", blob, "--limit", "2"])
    #expect(languages.status == 0 && languages.stdout.hasPrefix("help\tpairs\t"), "\(languages.stdout)")
    let copy = workspace.file("copy.swipedict")
    try FileManager.default.copyItem(atPath: blob, toPath: copy)
    let neither = try CLI.run(["query", blob, "--prefix", "hel", "--after", "world", "--with", copy])
    #expect(neither.status == 1 && neither.stderr.contains("none of the blobs has word pairs"), "\(neither.stderr)")
    // A blob without pairs says how to get them; a bad pair line names its line.
    let none = try CLI.run(["query", blob, "--after", "hello"])
    #expect(none.status == 1 && none.stderr.contains("has no word pairs") && none.stderr.contains("--bigrams"))
    try workspace.write("bad.tsv", "hello world\t9\nhello\t3\n")
    let bad = try CLI.run([
      "build", workspace.file("words.tsv"), "--bigrams", workspace.file("bad.tsv"), "--layout",
      workspace.file("layout.json"), "-o", workspace.file("bad.swipedict"),
    ])
    #expect(bad.status == 1 && bad.stderr.contains("bad.tsv:2") && bad.stderr.contains("expected two words"))
    #expect(!FileManager.default.fileExists(atPath: workspace.file("bad.swipedict")))
  }

  @Test func queryCompletesCorrectsAndListsTopWords() throws {
    let completions = try CLI.run(["query", blob, "--prefix", "he", "--limit", "3"])
    #expect(completions.status == 0)
    #expect(
      completions.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["hello", "help", "Hello"])
    let folded = try CLI.run(["query", blob, "--prefix", "UB"])
    #expect(folded.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["über", "Über"])
    let corrected = try CLI.run(["query", blob, "--correct", "hwllo", "--json", "--limit", "1"])
    // An adjacent key costs 104 (1/32 decade); this blob's byte has 3.98 steps per such unit
    // (its counts span 3…100), so the score is 255 − 414.
    #expect(corrected.stdout.hasPrefix(#"{"word":"hello","id":0,"frequency":255,"distance":104,"score":-158}"#))
    let thesis = try CLI.run(["query", blob, "--correct", "hwllo", "--json", "--limit", "1", "--corrector", "kaennsch"])
    #expect(thesis.stdout.hasPrefix(#"{"word":"hello","id":0,"frequency":255,"distance":1,"score":231}"#))
    let costed = try CLI.run(["query", blob, "--correct", "hwllo", "--json", "--limit", "1", "--cost", "proximity=10"])
    #expect(costed.stdout.hasPrefix(#"{"word":"hello","id":0,"frequency":255,"distance":10,"score":215}"#))
    let top = try CLI.run(["query", blob, "--top", "2"])
    // world: round(255 × ln 71 / ln 101) = round(235.53) = 236
    #expect(top.stdout == "hello\tfrequency 255\nworld\tfrequency 236\n")
    let both = try CLI.run(["query", blob, "--top", "2", "--prefix", "h"])
    #expect(both.status == 64)
  }

  @Test func queryFeaturesAsJSON() throws {
    let result = try CLI.run(["query", blob, "--features", "hello"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    // h (60, 23) → e (25, 8) → l (90, 23) → o (85, 8): 38.08 + 66.71 + 15.81 = 120.60 pt,
    // stored as 12.0 key widths (code 96 of 1/8 steps); the start points up and left.
    #expect(json["keyPath"] as? String == "helo")
    #expect(json["keyCount"] as? Int == 4)
    #expect(json["expectedLength"] as? Double == 120)
    #expect(abs((json["startAngle"] as? Double ?? 0) - 156.801) < 0.01)
    #expect(abs((json["secondLetterDistance"] as? Double ?? 0) - 38.079) < 0.01)
    #expect(json["lastPoint"] as? [Double] == [85, 8])
    let missing = try CLI.run(["query", blob, "--features", "nope"])
    #expect(missing.status == 3 && missing.stderr.contains("not in the dictionary"))
  }

  @Test func inspectReportsTheMemoryBudget() throws {
    let text = try CLI.run(["inspect", blob])
    #expect(text.stdout.contains("budget: 48MB"))
    #expect(text.stdout.contains("read by a swipe decode"))
    #expect(text.stdout.contains("ALPH LYOT FREQ FEAT DAWG"))
    let json = try CLI.run(["inspect", blob, "--json", "--budget", "1MB"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let budget = try #require(object["budget"] as? [String: Any])
    #expect(budget["ceiling"] as? Int == 1 << 20)
    #expect((budget["swipeDecode"] as? Int ?? 0) > 0)
    #expect((budget["mapped"] as? Int ?? 0) >= (budget["swipeDecode"] as? Int ?? 0))
  }

  @Test func buildReportsWordsWithAnEmptyKeyPath() throws {
    try workspace.write("marks.tsv", "hello\t5\n'\t3\n-'-\t2\n")
    let result = try CLI.run([
      "build", workspace.file("marks.tsv"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("marks.swipedict"),
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("2 with an empty key path"))
    #expect(result.stdout.contains(#"empty key path (no character has a key), e.g.: "'" "-'-""#))
  }

  @Test func verifyGoodAndDamagedBlobs() throws {
    let good = try CLI.run(["verify", blob])
    #expect(good.status == 0)
    #expect(good.stdout.contains("ok"))
    var bytes = try #require(FileManager.default.contents(atPath: blob))
    bytes[bytes.count - 3] ^= 0xFF  // inside the best lists' spellings, the last section
    let damaged = workspace.file("damaged.swipedict")
    try bytes.write(to: URL(fileURLWithPath: damaged))
    let bad = try CLI.run(["verify", damaged])
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("section BEST"))
    #expect(bad.stderr.contains("checksum mismatch"))
  }

  @Test func benchJSON() throws {
    let result = try CLI.runBench(["queries", blob, "--json", "--passes", "1"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    for key in ["openNs", "lookupHitNs", "lookupMissNs", "wordToIdNs", "idToWordNs", "prefixNs"] {
      #expect(json[key] is NSNumber, "\(key)")
    }
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/smaps")))
  func lookupsLeaveTheMappingCleanAndTheHeapSmall() throws {
    // The en dictionary when `make` has built it (as CI does), else the small test blob.
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let en = root.appendingPathComponent("build/en.swipedict").path
    let current = try FileManager.default.fileExists(atPath: en) && CLI.run(["verify", en]).status == 0
    let target = current ? en : blob
    let result = try CLI.runBench(["queries", target, "--json", "--passes", "1"])
    #expect(result.status == 0, "\(result.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let resident = try #require(json["mappedResidentKB"] as? Int)
    #expect(resident > 0)
    #expect(json["mappedDirtyKB"] as? Int == 0)
    let heap = try #require(json["heapDirtyKB"] as? Int)
    #expect(heap < 1024, "opening and looking up dirtied \(heap) kB of heap")
  }

  @Test func errorsAndExitCodes() throws {
    let usage = try CLI.run(["query", blob])
    #expect(usage.status == 64)
    let missing = try CLI.run(["inspect", workspace.file("missing.swipedict")])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("missing.swipedict"))
    try workspace.write("bad.tsv", "fine\t1\nbroken\t-2\n")
    let badInput = try CLI.run([
      "build", workspace.file("bad.tsv"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("bad.swipedict"),
    ])
    #expect(badInput.status == 1)
    #expect(badInput.stderr.contains("bad.tsv:2:"))
    #expect(!FileManager.default.fileExists(atPath: workspace.file("bad.swipedict")))
    let skipped = try CLI.run([
      "build", workspace.file("bad.tsv"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("bad.swipedict"), "--skip-invalid",
    ])
    #expect(skipped.status == 0)
    #expect(skipped.stderr.contains("warning: "))
    let budget = try CLI.run([
      "build", workspace.file("words.tsv"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("small.swipedict"), "--budget", "1KB",
    ])
    #expect(budget.status == 1)
    #expect(budget.stderr.contains("over the budget"))
    let badBudget = try CLI.run([
      "build", workspace.file("words.tsv"), "--layout", workspace.file("layout.json"), "-o",
      workspace.file("small.swipedict"), "--budget", "lots",
    ])
    #expect(badBudget.status == 64)
  }

  @Test func failedBuildKeepsThePreviousBlob() throws {
    let before = FileManager.default.contents(atPath: blob)
    try workspace.write("worse.tsv", "x\t1\ny\tz\n")
    let result = try CLI.run([
      "build", workspace.file("worse.tsv"), "--layout", workspace.file("layout.json"), "-o", blob,
    ])
    #expect(result.status == 1)
    #expect(FileManager.default.contents(atPath: blob) == before)
  }

  @Test func synthWritesSwipesForTheGivenWords() throws {
    let result = try CLI.run(["synth", blob, "--words", "hello", "über", "world", "--seed", "3"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map { String($0) }
    #expect(lines.count == 3)
    var words: [String] = []
    for line in lines {
      let json = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      words.append(try #require(json["word"] as? String))
      let points = try #require(json["points"] as? [[Double]])
      #expect(points.count >= 10)
      #expect(points.allSatisfy { $0.count == 3 })
      #expect(points.first?[2] == 0)
      // Inside the layout (10-unit keys, 3 rows) give or take the noise.
      #expect(points.allSatisfy { (-10...110).contains($0[0]) && (-10...55).contains($0[1]) })
    }
    #expect(words == ["hello", "über", "world"])
    // Deterministic; another seed gives other swipes; -o writes the same text.
    let again = try CLI.run(["synth", blob, "--words", "hello", "über", "world", "--seed", "3"])
    #expect(again.stdout == result.stdout)
    let other = try CLI.run(["synth", blob, "--words", "hello", "über", "world", "--seed", "4"])
    #expect(other.stdout != result.stdout)
    let file = workspace.file("swipes.jsonl")
    let written = try CLI.run([
      "synth", blob, "--words", "hello", "über", "world", "--seed", "3", "-o", file,
    ])
    #expect(written.status == 0 && written.stdout.isEmpty)
    #expect(FileManager.default.contents(atPath: file) == Data(result.stdout.utf8))
  }

  @Test func synthSamplesWordsFromTheBlob() throws {
    let result = try CLI.run(["synth", blob, "--sample", "20", "--by", "uniform", "--seed", "9"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 20)
    let known: Set = ["hello", "help", "Hello", "world", "über", "Über"]
    for line in lines {
      let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(known.contains(json?["word"] as? String ?? ""), "\(line)")
    }
  }

  @Test func synthNamesWordsItCannotSwipe() throws {
    let missing = try CLI.run(["synth", blob, "--words", "hello", "xyzzy", "HELP", "h3llo"])
    #expect(missing.status == 1)
    #expect(missing.stdout.isEmpty)
    #expect(missing.stderr.contains(#"error: "xyzzy" is not in "#))
    #expect(missing.stderr.contains(#""HELP" is not in \#(blob) (it has "help")"#))
    #expect(missing.stderr.contains(#""h3llo" is not in \#(blob): '3' has no key on layout cli"#))
    #expect(!missing.stderr.contains(#""hello""#))
    let usage = try CLI.run(["synth", blob])
    #expect(usage.status == 64)
    let both = try CLI.run(["synth", blob, "--words", "hello", "--sample", "3"])
    #expect(both.status == 64)
    let byWithWords = try CLI.run(["synth", blob, "--words", "hello", "--by", "uniform"])
    #expect(byWithWords.status == 64)
    let noise = try CLI.run(["synth", blob, "--sample", "3", "--noise", "-1"])
    #expect(noise.status == 64)
  }

  @Test func helpHasExamples() throws {
    for command in ["build", "inspect", "query", "verify", "synth"] {
      let result = try CLI.run([command, "--help"])
      #expect(result.status == 0)
      #expect(result.stdout.contains("Examples:"), "\(command)")
    }
    let bench = try CLI.runBench(["queries", "--help"])
    #expect(bench.status == 0 && bench.stdout.contains("Examples:"))
    // What a user runs: the benchmarks, stress and load tests live in swipedict-bench.
    let top = try CLI.run(["--help"])
    for tool in ["bench", "serve-load"] { #expect(!top.stdout.contains("  \(tool) "), "\(tool)") }
  }
}
