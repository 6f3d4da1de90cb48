import Foundation
import SwipeDictTestSupport
import Testing

@Suite("swipedict user", .serialized)
struct UserCommandTests {
  let workspace: Workspace
  var file: String { workspace.file("me.words") }

  init() throws { workspace = try Workspace() }

  @Test func addLearnBlockRemoveListAndExport() throws {
    var result = try CLI.run(["user", file, "add", "Zoë", "anna", "--uses", "3"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "added\tZoë\t3\nadded\tanna\t3\n")
    result = try CLI.run(["user", file, "learn", "gonna", "gonna"])
    #expect(result.stdout == "learned\tgonna\t1\nlearned\tgonna\t2\n")
    result = try CLI.run(["user", file, "block", "ducking"])
    #expect(result.stdout == "blocked\tducking\n")
    result = try CLI.run(["user", file, "learn", "ducking"])
    #expect(result.stdout == "blocked\tducking\t(not counted)\n")
    result = try CLI.run(["user", file, "remove", "anna", "nobody"])
    #expect(result.status == 3)
    #expect(result.stdout == "removed\tanna\tadded\n")
    #expect(result.stderr.contains("\"nobody\" has no entry"))
    result = try CLI.run(["user", file, "list"])
    #expect(result.stdout == "Zoë\tadded\t3\t#1\ngonna\tlearned\t2\t#4\nducking\tblocked\t0\t#5\n")
    #expect(result.stderr.contains("3 entries of at most 20,000: 1 added, 1 learned, 1 blocked"))
    result = try CLI.run(["user", file, "list", "--kind", "blocked", "--json"])
    #expect(result.stdout == "{\"word\":\"ducking\",\"kind\":\"blocked\",\"uses\":0,\"lastUse\":5}\n")
    result = try CLI.run(["user", file, "export"])
    #expect(result.stdout.hasSuffix("#!added\nZoë\t3\n#!learned\ngonna\t2\n#!blocked\tducking\n"), "\(result.stdout)")
  }

  @Test func anExportBuildsIntoADictionaryWithoutTheBlockedWords() throws {
    _ = try CLI.run(["user", file, "add", "zoe", "--uses", "40"])
    _ = try CLI.run(["user", file, "learn", "gonna"])
    _ = try CLI.run(["user", file, "block", "hello"])
    let list = workspace.file("me.tsv")
    var result = try CLI.run(["user", file, "export", "-o", list])
    #expect(result.status == 0, "\(result.stderr)")
    let blob = workspace.file("me.swipedict")
    result = try CLI.run(["build", list, "--layout", workspace.file("layout.json"), "-o", blob])
    #expect(result.status == 0, "\(result.stderr)")
    result = try CLI.run(["query", blob, "zoe", "gonna", "hello"])
    #expect(result.status == 3)  // hello was blocked: not in the list
    #expect(result.stdout.contains("zoe\tid "))
    #expect(result.stdout.contains("gonna\tid "))
    #expect(result.stdout.contains("hello\tnot found"))
    // And it imports back into the same entries.
    let copy = workspace.file("copy.words")
    result = try CLI.run(["user", copy, "import", list])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("imported 3 entries"))
    #expect(try CLI.run(["user", copy, "export"]).stdout == CLI.run(["user", file, "export"]).stdout)
  }

  @Test func importMergesOrReplacesAndReadsStandardInput() throws {
    _ = try CLI.run(["user", file, "add", "old"])
    var result = try CLI.run(["user", file, "import", "-"], stdin: "new\t2\n#!blocked\tbad\n")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("imported 2 entries from standard input; 3 entries"))
    try workspace.write("list.tsv", "#!learned\nonly\t5\n")
    result = try CLI.run(["user", file, "import", workspace.file("list.tsv"), "--replace"])
    #expect(result.stdout.contains("removed 3 not in the list"), "\(result.stdout)")
    #expect(try CLI.run(["user", file, "list"]).stdout == "only\tlearned\t5\t#4\n")
  }

  @Test func errorsNameTheFileTheLineAndWhatToDo() throws {
    var result = try CLI.run(["user", file, "add", "two words"])
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("error: \"two words\" is not a valid word: it contains a space\n  hint: "))
    result = try CLI.run(["user", file, "add", "x", "--uses", "-1"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--uses must be from 0 to 4,294,967,295, not -1"))
    try workspace.write("bad.tsv", "fine\t1\nnot fine\t2\n")
    result = try CLI.run(["user", file, "import", workspace.file("bad.tsv")])
    #expect(result.status == 1)
    #expect(result.stderr.contains("bad.tsv:2: 3 columns; a line is word<TAB>uses\n  hint: "), "\(result.stderr)")
    #expect(try CLI.run(["user", file, "list"]).stdout.isEmpty)  // nothing imported
    result = try CLI.run(["user", workspace.file("words.tsv"), "list"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("words.tsv: not a user dictionary (it starts with 23 20 61"), "\(result.stderr)")
    result = try CLI.run(["user", workspace.file("nope/me.words"), "list"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("hint: check the path; the directory must exist"), "\(result.stderr)")
  }

  @Test func readingCommandsDoNotCreateAFileAndNonFilesAreNamed() throws {
    for verb in ["list", "export"] {
      let result = try CLI.run(["user", file, verb])
      #expect(result.status == 1)
      #expect(
        result.stderr.contains("me.words: no such user dictionary") && result.stderr.contains("add WORD"),
        "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: file))
    }
    let result = try CLI.run(["user", workspace.file(""), "learn", "x"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("not a regular file (a directory)"), "\(result.stderr)")
  }

  @Test func aDamagedHeaderSaysHowToRecoverAndSalvageDoesIt() throws {
    _ = try CLI.run(["user", file, "learn", "one", "two"])
    var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    bytes[20] ^= 1
    try bytes.write(to: URL(fileURLWithPath: file))
    var result = try CLI.run(["user", file, "list"])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("hint: the file is damaged: move it aside (mv \(file) \(file).damaged)"),
      "\(result.stderr)")
    try FileManager.default.moveItem(atPath: file, toPath: file + ".damaged")
    result = try CLI.run(["user", file + ".damaged", "salvage", "-o", workspace.file("saved.tsv")])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("salvaged 2 entries"))
    result = try CLI.run(["user", file, "import", workspace.file("saved.tsv")])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try CLI.run(["user", file, "list"]).stdout == "one\tlearned\t1\t#1\ntwo\tlearned\t1\t#2\n")
  }

  @Test func aTornTailIsReportedAndCut() throws {
    _ = try CLI.run(["user", file, "learn", "one", "two"])
    var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    bytes.removeLast(3)
    try bytes.write(to: URL(fileURLWithPath: file))
    var result = try CLI.run(["user", file, "list"])
    #expect(result.stdout == "one\tlearned\t1\t#1\n")
    #expect(
      result.stderr.contains("warning: \(file): 22 bytes at offset 57 are an incomplete record"), "\(result.stderr)")
    #expect(result.stderr.contains("ignored (the next write cuts them off)"))
    result = try CLI.run(["user", file, "learn", "three"])
    #expect(result.stderr.contains("this write cuts them off"))
    #expect(try CLI.run(["user", file, "list"]).stderr.contains("warning") == false)
  }

  @Test func queriesAndDecodingMergeTheUserWords() throws {
    let blob = try workspace.buildBlob()
    // The workspace's words: hello, help, Hello, world, über, Über.
    #expect(try CLI.run(["user", file, "learn", "helot", "helot", "helot"]).status == 0)
    #expect(try CLI.run(["user", file, "block", "help"]).status == 0)
    let completed = try CLI.run(["query", blob, "--prefix", "hel", "--user", file])
    #expect(completed.status == 0)
    let words = completed.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] }
    #expect(words.contains("helot") && !words.contains("help"), "\(completed.stdout)")
    let looked = try CLI.run(["query", blob, "helot", "help", "--user", file])
    #expect(
      looked.stdout.contains("helot\tuser word (learned, 3 uses)") && looked.stdout.contains("blocked by the user"))
    let swipes = workspace.file("helot.jsonl")
    // Swipes of "help" (a blob word) decoded with the user's words: never "help".
    #expect(try CLI.run(["synth", blob, "--words", "help", "hello", "-o", swipes]).status == 0)
    let decoded = try CLI.run(["decode", blob, "--swipes", swipes, "--user", file, "--json"])
    #expect(decoded.status == 0, "\(decoded.stderr)")
    let tops = decoded.stdout.split(separator: "\n").dropLast().compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["top"] as? [String]
    }
    #expect(tops.count == 2 && tops.allSatisfy { !$0.contains("help") }, "\(decoded.stdout)")
    // A missing file is an error, not an empty dictionary.
    let missing = try CLI.run(["query", blob, "--prefix", "h", "--user", workspace.file("none.words")])
    #expect(
      missing.status == 1 && missing.stderr.contains("no such user dictionary") && missing.stderr.contains("hint:"))
    // With --with, the user's words reach every language.
    let other = workspace.file("other.swipedict")
    try FileManager.default.copyItem(atPath: blob, toPath: other)
    let both = try CLI.run(["query", blob, "--prefix", "hel", "--with", other, "--user", file])
    let bothWords = both.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] }
    #expect(both.status == 0 && bothWords.contains("helot") && !bothWords.contains("help"), "\(both.stdout)")
    let decodedBoth = try CLI.run(["decode", blob, "--swipes", swipes, "--user", file, "--with", other, "--json"])
    #expect(decodedBoth.status == 0, "\(decodedBoth.stderr)")
    let bothTops = decodedBoth.stdout.split(separator: "\n").dropLast().compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["top"] as? [String]
    }
    #expect(bothTops.count == 2 && bothTops.allSatisfy { !$0.contains("help") }, "\(decodedBoth.stdout)")
    // Read once: a damaged tail is reported once, however many languages take the words.
    var damaged = try Data(contentsOf: URL(fileURLWithPath: file))
    damaged.removeLast(3)
    try damaged.write(to: URL(fileURLWithPath: file))
    for arguments in [["query", blob, "--prefix", "hel"], ["decode", blob, "--swipes", swipes]] {
      let result = try CLI.run(arguments + ["--with", other, "--user", file])
      #expect(result.stderr.components(separatedBy: "warning:").count == 2, "\(arguments[0]): \(result.stderr)")
    }
  }

  @Test func helpShowsExamples() throws {
    let result = try CLI.run(["user", "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("swipedict user me.words add Zoë Anna --uses 3"))
    for verb in ["add", "learn", "block", "remove", "list", "import", "export"] {
      let help = try CLI.run(["user", file, verb, "--help"])
      #expect(help.stdout.contains("USAGE: swipedict user <file> \(verb)"), "\(verb)")
      #expect(help.stdout.contains("Examples:"), "\(verb)")
    }
    #expect(!result.stdout.contains("stress"))  // hidden
  }

  /// The crash test with a few thousand operations (`make user-stress` runs 100,000).
  @Test func aWriterKilledEveryFewMillisecondsLosesNoAcknowledgedWrite() throws {
    let result = try CLI.runBench(
      ["user", workspace.file("stress.words"), "stress", "--ops", "4000", "--seed", "5"],
      timeLimit: .seconds(120))
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    #expect(result.stdout.contains("lost           0 acknowledged operations"), "\(result.stdout)")
    #expect(result.stdout.contains("torn reads     0"))
    #expect(result.stdout.contains("compacted files picked up"))
    #expect(!result.stdout.contains("(0 of them on a compacted file)"), "\(result.stdout)")
    #expect(result.stdout.contains("torn tails     "))
    #expect(!result.stdout.contains("killed 0 times"))
  }

  /// A writer run checks the whole state it starts from, not only its sequence number.
  @Test func aStressWriterRefusesAStateThatIsNotThePlans() throws {
    let stress = workspace.file("bogus.words")
    #expect(try CLI.run(["user", stress, "learn", "bogus"]).status == 0)  // sequence 1, not the plan's entry
    let result = try CLI.runBench(["user", stress, "stress-writer", "--ops", "10"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("the file at the writer's start: after 1 operations"), "\(result.stderr)")
  }
}
