import Foundation
import SwipeDict
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import Testing

@testable import SwipeDictCompiler

@Suite("Compiling word lists")
struct CompilerTests {
  let layout = try! LayoutFile.parse(Data(qwertyJSON.utf8), file: "mini.json")

  @Test func mergesCountsNormalizesAndDropsUntypeableWords() throws {
    let directory = TemporaryDirectory()
    let a = directory.write("a.tsv", "the\t10\ncafe\u{301}\t2\nR2D2\t5\n")
    let b = directory.write("b.tsv", "the 5\ncafé 3\nnaïve 1\n")
    let result = try DictionaryCompiler.compile(inputs: [a, b], layout: layout)
    let report = result.report
    #expect(report.entriesRead == 6)
    #expect(report.distinctWords == 4)  // the, café (two normal forms), R2D2, naïve
    #expect(report.untypeable == 2)  // R2D2 (digits), naïve (ï has no key or alias here)
    #expect(report.untypeableExamples == ["R2D2", "naïve"])
    let dictionary = try SwipeDictionary(bytes: result.bytes, verify: true)
    #expect(dictionary.wordCount == 2)
    #expect(dictionary.contains("café"))
    #expect(dictionary.contains("cafe\u{301}"))  // queries are normalized too
    #expect(dictionary.frequency(of: "the") == 255)
  }

  @Test func minCountAndMaxWords() throws {
    let words: [(word: String, count: Double)] = [
      ("a", 50), ("b", 40), ("c", 40), ("d", 10), ("e", 1),
    ]
    let limited = try DictionaryCompiler.compile(
      words: words, layout: layout, options: .init(maxWords: 3, minCount: 2))
    #expect(limited.report.belowMinCount == 1)
    #expect(limited.report.beyondMaxWords == 1)
    let dictionary = try SwipeDictionary(bytes: limited.bytes)
    #expect(Array(dictionary.words(withPrefix: "")).map(\.word) == ["a", "b", "c"])
  }

  @Test func sameInputsInAnyOrderGiveIdenticalBytes() throws {
    let directory = TemporaryDirectory()
    let a = directory.write("a.tsv", "hello\t3\nworld\t4\n")
    let b = directory.write("b.txt", "world\nzebra\nhelp\n")
    let first = try DictionaryCompiler.compile(inputs: [a, b], layout: layout).bytes
    let second = try DictionaryCompiler.compile(inputs: [b, a], layout: layout).bytes
    #expect(first == second)
    let words = (0..<2000).map { (word: "w" + String($0, radix: 26), count: Double($0 % 97)) }
    #expect(
      try DictionaryCompiler.compile(words: words, layout: layout).bytes
        == DictionaryCompiler.compile(words: words.reversed(), layout: layout).bytes)
  }

  @Test func metadataRecordsInputsAndOptionsWithoutTimestamps() throws {
    let directory = TemporaryDirectory()
    let a = directory.write("list.tsv", "hello\t3\n")
    let result = try DictionaryCompiler.compile(
      inputs: [a], layout: layout, options: .init(maxWords: 10))
    let metadata = try #require(try SwipeDictionary(bytes: result.bytes).metadata)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(metadata.utf8)) as? [String: Any])
    let inputs = try #require(json["inputs"] as? [[String: Any]])
    #expect(inputs.first?["name"] as? String == "list.tsv")
    #expect(inputs.first?["crc32c"] as? String == String(format: "%08x", CRC32C.checksum(Array("hello\t3\n".utf8))))
    #expect((json["options"] as? [String: Any])?["maxWords"] as? Int == 10)
    #expect(json["tool"] as? String == "swipedict \(SwipeDictVersion.string)")
  }

  @Test func badInputFailsWithFileAndLine() throws {
    let directory = TemporaryDirectory()
    let a = directory.write("bad.tsv", "good\t1\nbad\t-3\n")
    #expect(throws: WordListError.self) {
      try DictionaryCompiler.compile(inputs: [a], layout: layout)
    }
    do {
      _ = try DictionaryCompiler.compile(inputs: [a], layout: layout)
    } catch {
      #expect("\(error)".contains("bad.tsv:2:"))
    }
    let skipped = try DictionaryCompiler.compile(
      inputs: [a], layout: layout, options: .init(skipInvalid: true))
    #expect(skipped.report.inputs.first?.skipped == 1)
    #expect(skipped.report.words == 1)
  }

  @Test func aListOfMisspellingsOnlyHasNoWords() throws {
    let directory = TemporaryDirectory()
    let list = directory.write(
      "main.combined", "dictionary=main:en\n word=acomodate,f=0,not_a_word=true\n  shortcut=accommodate,f=whitelist\n")
    #expect(throws: CompileError.noWords(read: 1, untypeable: 0, belowMinCount: 0, misspellings: 1)) {
      try DictionaryCompiler.compile(inputs: [list], layout: layout)
    }
    #expect(
      CompileError.noWords(read: 1, untypeable: 0, belowMinCount: 0, misspellings: 1).description
        .hasPrefix(
          "no words left to build: 1 read, 0 not typeable on the layout, 0 below --min-count, 1 misspelling (not_a_word=true: no words)"
        ))
  }

  @Test func noTypeableWordsIsAnError() throws {
    #expect(throws: CompileError.noWords(read: 2, untypeable: 2, belowMinCount: 0)) {
      try DictionaryCompiler.compile(words: [("123", 1), ("4", 1)], layout: layout)
    }
    // With --skip-invalid, the error also says which lines were dropped and why.
    let directory = TemporaryDirectory()
    let list = directory.write("list.tsv", "123\t5\nabc\t-1\n45\t1\n")
    var options = CompileOptions()
    options.skipInvalid = true
    do {
      _ = try DictionaryCompiler.compile(inputs: [list], layout: layout, options: options)
      Issue.record("expected noWords")
    } catch let error as CompileError {
      guard case .noWords(let read, let untypeable, _, let skipped, let firstSkipped, _) = error else {
        Issue.record("expected noWords, got \(error)")
        return
      }
      #expect(read == 2 && untypeable == 2 && skipped == 1)
      #expect(
        firstSkipped.count == 1 && firstSkipped[0].contains("list.tsv:2:5") && firstSkipped[0].contains("negative"))
      #expect(error.description.contains("1 invalid line skipped (--skip-invalid), for example:"), "\(error)")
    }
  }

  @Test func budgetIsEnforced() {
    #expect(throws: CompileError.self) {
      try DictionaryCompiler.compile(
        words: [("hello", 1)], layout: layout, options: .init(budget: 100))
    }
  }

  @Test func duplicateInputsAreRejected() {
    let directory = TemporaryDirectory()
    let a = directory.write("a.tsv", "x\t1\n")
    #expect(throws: CompileError.duplicateInput(path: a)) {
      try DictionaryCompiler.compile(inputs: [a, a], layout: layout)
    }
  }

  @Test func collationOrdersFoldedLettersTogether() {
    let alphabet = Collation.alphabet(of: ["b", "A", "ä", "a", "Ä", "B", "'", "z", "É", "e"])
    #expect(String(String.UnicodeScalarView(alphabet.scalars)) == "'aAäÄbBeÉz")
    #expect(alphabet.folds.map { String($0) } == ["'", "a", "a", "a", "a", "b", "b", "e", "e", "z"])
  }

  @Test func foldingKnowsLettersThatAreNotAccentedOnes() throws {
    for (letter, base) in [
      ("ł", "l"), ("Ł", "l"), ("ø", "o"), ("đ", "d"), ("ı", "i"), ("İ", "i"), ("æ", "a"), ("œ", "o"), ("ß", "s"),
      ("é", "e"),
    ] {
      #expect(Collation.fold(Unicode.Scalar(letter)!) == Unicode.Scalar(base)!, "\(letter)")
    }
    // --folded finds them from plain letters; Turkish İ types on the i key.
    let english = try LayoutFile.load(repositoryRoot.appendingPathComponent("corpora/layouts/qwerty-en.json").path)
    #expect(english.classify("İ") == english.classify("i"))
    let compiled = try DictionaryCompiler.compile(
      words: [("żółw", 5), ("smørrebrød", 3), ("İstanbul", 4), ("Łódź", 2), ("zolw", 1)], layout: english)
    let d = try SwipeDictionary(bytes: compiled.bytes)
    #expect(Set(d.ids(matchingFolded: "zolw").compactMap(d.word(for:))) == ["żółw", "zolw"])
    #expect(d.ids(matchingFolded: "lodz").compactMap(d.word(for:)) == ["Łódź"])
    #expect(d.ids(matchingFolded: "smorrebrod").compactMap(d.word(for:)) == ["smørrebrød"])
    #expect(d.ids(matchingFolded: "istanbul").compactMap(d.word(for:)) == ["İstanbul"])
    #expect(english.keyPath(for: "İstanbul") == english.keyPath(for: "istanbul"))
  }

  @Test func atomicWriteReplacesOrLeavesTheOldFile() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/out.swipedict"
    try AtomicFile.write([1, 2, 3], to: path)
    try AtomicFile.write([4, 5], to: path)
    #expect(FileManager.default.contents(atPath: path) == Data([4, 5]))
    #expect(throws: FileWriteError.self) {
      try AtomicFile.write([9], to: directory.path + "/missing-dir/out.swipedict")
    }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(leftovers == ["out.swipedict"])
  }
}

@Suite("Layout files")
struct LayoutFileTests {
  func error(_ json: String) -> String? {
    do {
      _ = try LayoutFile.parse(Data(json.utf8), file: "l.json")
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test func validLayoutParses() throws {
    let layout = try LayoutFile.parse(Data(qwertyJSON.utf8), file: "mini.json")
    #expect(layout.keys.count == 26)
    #expect(layout.key(for: "É") == layout.key(for: "e"))
    #expect(layout.classify("'") == .skipped)
    #expect(layout.classify("7") == .untypeable)
    #expect(abs(layout.keys[0].height - 14.4) < 1e-4)  // default row height: 1.44 key widths
  }

  @Test(arguments: [
    (#"{"keys": []}"#, "name: missing"),
    (#"{"name": "x", "keys": [{"char": "a", "x": 0, "y": 0}]}"#, "keyWidth: missing"),
    (
      #"{"name": "x", "keyWidth": 10, "keys": [{"char": "a", "x": 0, "y": 0}, {"char": "A", "x": 20, "y": 0}]}"#,
      "keys[1].char: \"a\" is already the key keys[0]"
    ),
    (
      #"{"name": "x", "keyWidth": 10, "keys": [{"char": "a", "x": 0, "y": 0}, {"char": "b", "x": 5, "y": 0}]}"#,
      "keys[1].x: key \"b\" overlaps key \"a\""
    ),
    (
      #"{"name": "x", "keyWidth": 10, "keys": [{"char": "ab", "x": 0, "y": 0}]}"#,
      "keys[0].char: expected one character"
    ),
    (#"{"name": "x", "keyWidth": 10, "keys": [{"char": "a", "x": "0", "y": 0}]}"#, "keys[0].x: expected a number"),
    (
      #"{"name": "x", "keyWidth": 10, "keys": [{"char": "a", "x": 0, "y": 0}], "aliases": {"é": "e"}}"#,
      "\"e\" is not a key"
    ),
    (#"{"name": "x", "keyWidth": -1, "keys": [{"char": "a", "x": 0, "y": 0}]}"#, "keyWidth: must be positive"),
    ("not json", "not valid JSON"),
    (
      #"{"name": "x", "keyWidth": 10, "keys": [{"char": "a", "x": 0, "y": 0, "w": -10}]}"#,
      "keys[0]: w and h must be positive"
    ),
    // Finite as JSON (a Double), infinite as the blob's Float: the loader would reject it.
    (
      #"{"name": "x", "keyWidth": 10, "keys": [{"char": "a", "x": 1e39, "y": 0}]}"#,
      "keys[0].x: 1e+39 is too large: a blob stores a layout's numbers as 32-bit floats"
    ),
    (
      #"{"name": "x", "keyWidth": 10, "keys": [{"char": "a", "x": 0, "y": 0}, {"char": "b", "x": 20, "y": -4e38}]}"#,
      "keys[1].y: -4e+38 is too large"
    ),
    (
      #"{"name": "x", "keyWidth": 10, "keys": [{"char": "a", "x": 0, "y": 0, "h": 1e39}]}"#,
      "keys[0].h: 1e+39 is too large"
    ),
    (#"{"name": "x", "keyWidth": 1e39, "keys": [{"char": "a", "x": 0, "y": 0}]}"#, "keyWidth: 1e+39 is too large"),
  ])
  func invalidLayouts(json: String, message: String) {
    let text = error(json)
    #expect(text?.contains(message) == true, "\(text ?? "accepted")")
    #expect(text?.hasPrefix("l.json:") == true)
  }

  /// JSON syntax errors point at the line and (byte) column, as word-list errors do.
  @Test(arguments: [
    ("{\"name\": \"x\",\n \"keyWidth\": ,\n \"keys\": []}", "l.json:2:14: not valid JSON"),
    ("{\"name\": \"é€\",\n\n   \"a\": 1\n \"b\": 2}", "l.json:4:2: not valid JSON"),
    ("not json", "l.json:1:2: not valid JSON"),  // "n" may start `null`; "o" cannot follow
  ])
  func jsonSyntaxErrorsGiveLineAndColumn(json: String, message: String) {
    #expect(error(json) == message)
  }

  /// One validation: whatever the compiler accepts, the loader opens. Random layouts with
  /// numbers from tiny to beyond Float's range either fail to parse or build a blob that opens.
  @Test func everyLayoutTheCompilerAcceptsTheLoaderOpens() throws {
    var generator = SystemRandomNumberGenerator()
    let magnitudes: [Double] = [1, 40, 1e10, 1e37, 3.4e38, 3.5e38, 1e39]
    func number() -> Double {
      let m = magnitudes.randomElement(using: &generator)!
      return Double.random(in: -m...m, using: &generator)
    }
    var accepted = 0
    for _ in 0..<60 {
      let keys = "abc".enumerated().map { i, c in
        #"{"char": "\#(c)", "x": \#(Double(i) * 1e38 + number()), "y": \#(number()), "w": \#(abs(number())), "h": \#(abs(number()))}"#
      }
      let json = #"{"name": "r", "keyWidth": \#(abs(number())), "keys": [\#(keys.joined(separator: ","))]}"#
      guard let layout = try? LayoutFile.parse(Data(json.utf8), file: "r.json") else { continue }
      accepted += 1
      let blob = try DictionaryCompiler.compile(words: [("abc", 3), ("cab", 1)], layout: layout).bytes
      #expect(throws: Never.self, "\(json)") { _ = try SwipeDictionary(bytes: blob, verify: true) }
    }
    #expect(accepted > 0)
  }
}
