import Foundation
import SwipeDictCompiler
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import Testing

@testable import SwipeDict

@Suite("Prefix tree, completion and correction")
struct PrefixTreeTests {
  static let sizes: [(count: Int, seed: UInt64)] = [(1, 1), (150, 2), (3000, 3), (20_000, 4)]

  @Test("every word is in exactly one leaf, under its first letters; nodes split above 200", arguments: sizes)
  func treeInvariants(count: Int, seed: UInt64) throws {
    let words = randomWords(count: count, seed: seed, maxLength: 7)
    let (d, _) = try openDictionary(words, verify: false)
    let tree = try #require(d.prefixTree)
    var leafOf = [Int?](repeating: nil, count: d.wordCount)
    var interior = 0
    func visit(_ reference: PrefixTreeView.Reference, path: [Int]) throws {
      switch reference {
      case .node(let node):
        interior += 1
        #expect(path.count < PrefixTreeLayout.maxDepth)
        for c in 0..<PrefixTreeLayout.fanout {
          if let child = tree.child(of: node, c) { try visit(child, path: path + [c]) }
        }
      case .leaf(let index):
        let leaf = try #require(tree.leaf(index))
        #expect(path.count == PrefixTreeLayout.maxDepth || leaf.count <= PrefixTreeLayout.splitThreshold)
        // The leaf ranks its most frequent words (all of them when it has at most 16); every
        // word in order is those, then the rest by frequency.
        #expect(leaf.rankedCount == min(leaf.count, PrefixTreeLayout.rankedPerLeaf))
        let ordered = leaf.idsByFrequency(frequencies: d.frequencies)
        #expect(ordered.count == leaf.count)
        for rank in 0..<leaf.rankedCount { #expect(leaf.id(atRank: rank) == ordered[rank]) }
        #expect(leaf.id(atRank: leaf.rankedCount) == nil)
        #expect(Set(ordered) == Set(leaf.runs.joined()))
        var previous: (UInt8, Int)?
        for id in ordered {
          #expect(leafOf[id] == nil, "word \(id) is in two leaves")
          leafOf[id] = index
          // The word's first letters lead here.
          let word = try #require(d.word(for: id))
          let classes = (folded(word, d) ?? []).map { PrefixTreeLayout.treeClass(ofFolded: $0, rule: d.treeClassRule) }
          for (depth, c) in path.enumerated() {
            #expect((depth < classes.count ? classes[depth] : PrefixTreeLayout.otherClass) == c, "\(word)")
          }
          // Most frequent first, ties by ID.
          let f = d.frequency(of: id)!
          if let (pf, pid) = previous { #expect(pf > f || (pf == f && pid < id)) }
          previous = (f, id)
        }
      }
    }
    try visit(try #require(tree.root), path: [])
    #expect(leafOf.allSatisfy { $0 != nil })
    if count > 200 { #expect(interior > 1) }
    try d.verify()
  }

  @Test("ranked leaves (1.5): a leaf whose ranks are out of order, or name a word twice, fails verify")
  func rankedLeafOutOfOrder() throws {
    let (d, blob) = try openDictionary(randomWords(count: 300, seed: 99))
    let tree = try #require(d.prefixTree)
    let index = try #require((0..<tree.leafCount).first { (tree.leaf($0)?.count ?? 0) > 16 })
    let leaf = try #require(tree.leaf(index))
    #expect(leaf.rankedCount == 16 && leaf.width == 1)
    // The leaf's ranks are its last 16 bytes (one byte each: it has at most 256 words).
    let section = Int(try #require(d.contents.section(.prefixTree)).offset)
    let offsets = section + 64 + tree.nodeCount * 27 * 4
    let leafData = offsets + (tree.leafCount + 1) * 4 + tree.topCount * 4
    let end = leafData + Int(blob.uint32(at: offsets + (index + 1) * 4))
    func reason(_ bytes: [UInt8]) -> String? {
      do {
        _ = try SwipeDictionary(bytes: bytes.resealed(section: .prefixTree), verify: true)
        return nil
      } catch {
        guard case .invalid(let formatError) = error, case .malformed(let detail) = formatError.reason else {
          return "\(error)"
        }
        return detail
      }
    }
    var swapped = blob
    swapped.swapAt(end - 16, end - 15)
    #expect(reason(swapped) == "leaf \(index) is not in frequency order at rank 0")
    var repeated = blob
    repeated[end - 1] = repeated[end - 2]
    #expect(reason(repeated) == "leaf \(index) rank 15 names a missing or repeated word")
  }

  @Test("tree classes: a…z always, other scripts by code point mod 26 under the header flag")
  func treeClassRules() {
    let latin = PrefixTreeLayout.ClassRule(headerFlags: 0)
    let all = PrefixTreeLayout.ClassRule(headerFlags: BlobFormat.scriptTreeFlag)
    #expect(latin == .latin && all == .allScripts)
    for rule in [latin, all] {
      #expect(PrefixTreeLayout.treeClass(ofFolded: "a", rule: rule) == 0)
      #expect(PrefixTreeLayout.treeClass(ofFolded: "z", rule: rule) == 25)
      #expect(PrefixTreeLayout.treeClass(ofFolded: "'", rule: rule) == 26)
      #expect(PrefixTreeLayout.treeClass(ofFolded: "7", rule: rule) == 26)
    }
    #expect(PrefixTreeLayout.treeClass(ofFolded: "п", rule: latin) == 26)
    #expect(PrefixTreeLayout.treeClass(ofFolded: "п", rule: all) == Int(("п" as Unicode.Scalar).value % 26))
    #expect(PrefixTreeLayout.treeClass(ofFolded: "ω", rule: all) == Int(("ω" as Unicode.Scalar).value % 26))
    #expect(PrefixTreeLayout.treeClass(ofFolded: "\u{2019}", rule: all) == Int(0x2019 % 26))  // code points only
    // The 33 Russian letters reach all 26 children.
    let russian = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя".unicodeScalars
    #expect(Set(russian.map { PrefixTreeLayout.treeClass(ofFolded: $0, rule: all) }).count == 26)
  }

  @Test("a Cyrillic dictionary splits like a Latin one: small leaves, exact completions, corrections")
  func cyrillicTree() throws {
    var generator = SeededGenerator(state: 12)
    let letters = Array("абвгдежзийклмнопрстуфхцчшщыьэюя")
    var words = Set<String>()
    while words.count < 20_000 {
      words.insert(
        String((0..<Int.random(in: 2...8, using: &generator)).map { _ in letters.randomElement(using: &generator)! }))
    }
    let list = Array(words).sorted()
    let blob = try DictionaryCompiler.compile(
      words: list.enumerated().map { (word: $1, count: Double(1 + $0 % 977)) }, layout: repositoryLayout("jcuken-ru"))
    let d = try SwipeDictionary(bytes: blob.bytes, verify: true)
    #expect(
      d.contents.header.flags == BlobFormat.scriptTreeFlag | BlobFormat.rankedLeavesFlag | BlobFormat.narrowFeaturesFlag
    )
    // Without the flag (header resealed) the tree is read with the Latin rule: verify
    // finds the words under the wrong children. (A 1.1 reader refuses the flag instead.)
    var older = blob.bytes
    older.setUInt32(BlobFormat.rankedLeavesFlag | BlobFormat.narrowFeaturesFlag, at: 12)
    older = older.resealed()
    #expect(throws: SwipeDictError.self) { try SwipeDictionary(bytes: older, verify: true) }
    #expect(try SwipeDictionary(bytes: older).treeClassRule == .latin)
    let tree = try #require(d.prefixTree)
    var largest = 0
    for i in 0..<tree.leafCount { largest = max(largest, tree.leaf(i)?.count ?? 0) }
    // With every Cyrillic letter in "other", one leaf held all 20,000 words.
    #expect(largest < 400, "largest leaf \(largest)")
    let word = list[list.count / 2]
    let prefix = String(word.prefix(2))
    let expected = list.filter { $0.hasPrefix(prefix) }.count
    #expect(d.completions(prefix: prefix, limit: 1000).count == min(expected, 1000))
    #expect(d.corrections(for: word, limit: 1).first?.word == word)
    // Exact where letters share a tree class (33 letters over 26 children) too: their
    // nodes' best lists and leaves hold the other letter's words, which are skipped.
    let prefixes = stride(from: 0, to: list.count, by: 97).flatMap { i in (1...3).map { String(list[i].prefix($0)) } }
    expectCompletionsMatchBruteForce(d, prefixes: Array(Set(prefixes)).sorted())
  }

  @Test("letters typed as two: ss finds ß, oe finds œ, ae finds æ, and only them")
  func twoLetterSpellings() throws {
    let words: [(String, Double)] = [
      ("Straße", 900), ("Straßen", 800), ("strassenbahn", 700), ("strase", 5), ("cœur", 600), ("coeur", 50),
      ("cour", 500), ("œuvre", 400), ("Œuvre", 10), ("ouvert", 450), ("æble", 300), ("able", 200), ("maß", 90),
    ]
    let d = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(
        words: words.map { (word: $0.0, count: $0.1) }, layout: repositoryLayout("qwerty-en")
      ).bytes)
    #expect(d.wordCount == words.count)
    func found(_ text: String) -> [String] { d.ids(matchingFolded: text).compactMap(d.word(for:)).sorted() }
    #expect(found("strasse") == ["Straße"])
    #expect(found("STRASSE") == ["Straße"])
    #expect(found("strase") == ["Straße", "strase"])  // ß folds to s as one letter too
    #expect(found("coeur") == ["coeur", "cœur"])
    #expect(found("oeuvre") == ["Œuvre", "œuvre"])
    #expect(found("aeble") == ["æble"])
    #expect(found("mass") == ["maß"])
    #expect(d.completions(prefix: "strass", limit: 5).map(\.word) == ["Straße", "Straßen", "strassenbahn"])
    // "oe" is œ exactly, not every o: ouvert stays out.
    #expect(d.completions(prefix: "oeuv", limit: 5).map(\.word) == ["œuvre", "Œuvre"])
    // Also where the prefix ends at a leaf of the tree: the leaf under "o" holds ouvert too.
    #expect(d.completions(prefix: "oe", limit: 5).map(\.word) == ["œuvre", "Œuvre"])
    #expect(d.completions(prefix: "ae", limit: 5).map(\.word) == ["æble"])
    #expect(d.completions(prefix: "coe", limit: 5).map(\.word) == ["cœur", "coeur"])
    // A blob without ß, æ, œ reads "ss" as two letters only.
    let plain = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(words: [("class", 5), ("clas", 3)], layout: testLayout()).bytes)
    #expect(plain.ids(matchingFolded: "class").compactMap(plain.word(for:)) == ["class"])
    // What the benchmark asks to tell such prefixes from plain ones.
    #expect(d.readsLettersTypedAsTwo(in: "Strass") && d.readsLettersTypedAsTwo(in: "cOE"))
    #expect(!d.readsLettersTypedAsTwo(in: "stras") && !d.readsLettersTypedAsTwo(in: "eo"))
    #expect(!plain.readsLettersTypedAsTwo(in: "class"))
  }

  @Test(
    "completions equal a brute-force folded prefix search, with and without best lists",
    arguments: [(3000, UInt64(5)), (20_000, 6)])
  func completionsMatchBruteForce(count: Int, seed: UInt64) throws {
    let words = randomWords(count: count, seed: seed, maxLength: 8)
    let (d, bytes) = try openDictionary(words, verify: false)
    // The same blob as format 1.2 wrote it: no best lists, the top list and the leaves answer.
    let older = try SwipeDictionary(bytes: removingSections([.bestLists], from: bytes), verify: true)
    #expect(d.bestLists != nil && older.bestLists == nil)
    var generator = SeededGenerator(state: seed)
    var prefixes = ["", "a", "A", "ä", "e", "é", "s", "x", "'", "ab", "AB", "üb"]
    for _ in 0..<150 {
      let word = words.randomElement(using: &generator)!
      prefixes.append(String(word.prefix(Int.random(in: 1...5, using: &generator))))
    }
    expectCompletionsMatchBruteForce(d, prefixes: prefixes, also: older)
    // The top list is the empty prefix's answer.
    #expect(d.topWords(limit: 30).map(\.id) == d.completions(prefix: "", limit: 30).map(\.id))
    let byFrequency = (0..<d.wordCount).sorted {
      let (a, b) = (d.frequency(of: $0)!, d.frequency(of: $1)!)
      return a != b ? a > b : $0 < $1
    }
    #expect(d.topWords(limit: 2000).map(\.id) == Array(byFrequency.prefix(1000)))
  }

  /// Checks `d.completions` (and `other`'s, the same words in another blob) against every
  /// word whose folded spelling starts with the folded prefix, at several limits.
  func expectCompletionsMatchBruteForce(
    _ d: SwipeDictionary, prefixes: [String], also other: SwipeDictionary? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let all = (0..<d.wordCount).map { (id: $0, word: d.word(for: $0)!, f: d.frequency(of: $0)!) }
    let foldedWords = all.map { folded($0.word, d)! }
    for prefix in prefixes {
      for limit in [1, 4, 10, 16, 17, 50] {
        let got = d.completions(prefix: prefix, limit: limit).map(\.id)
        guard let p = folded(prefix, d) else {
          #expect(got.isEmpty, sourceLocation: sourceLocation)
          continue
        }
        let expected = all.indices.filter { foldedWords[$0].starts(with: p) }
          .sorted { all[$0].f != all[$1].f ? all[$0].f > all[$1].f : $0 < $1 }
          .prefix(limit)
        #expect(got == Array(expected), "prefix \(prefix) limit \(limit)", sourceLocation: sourceLocation)
        if let other {
          #expect(
            other.completions(prefix: prefix, limit: limit).map(\.id) == got, "prefix \(prefix) limit \(limit)",
            sourceLocation: sourceLocation)
        }
      }
    }
  }

  /// The Kännsch thesis's examples on a German-like dictionary big enough that "h" and "i"
  /// split, so "hllo" and "ivh" land in leaves without "hallo" and "ich".
  static func germanLike() throws -> SwipeDictionary {
    var entries: [(word: String, count: Double)] = [
      ("ich", 50_000), ("habe", 20_000), ("hallo", 30_000), ("heben", 800), ("Teich", 400),
      ("Treppe", 300),
    ]
    var generator = SeededGenerator(state: 77)
    let letters = Array("abcdefghiklmnoprstuwäöü")
    var seen = Set(entries.map(\.word))
    for first in ["h", "i", "t"] {
      while seen.filter({ $0.lowercased().hasPrefix(first) }).count < 400 {
        var word = first
        for _ in 0..<Int.random(in: 2...7, using: &generator) {
          word.append(letters.randomElement(using: &generator)!)
        }
        if word.hasPrefix("hl") || word.hasPrefix("iv") || word.hasPrefix("hab") || word.hasPrefix("hal") {
          continue
        }
        if seen.insert(word).inserted { entries.append((word, Double.random(in: 1...100, using: &generator))) }
      }
    }
    let layout = try LayoutFile.load(repositoryFile("corpora/layouts/qwertz-de.json"))
    return try SwipeDictionary(bytes: DictionaryCompiler.compile(words: entries, layout: layout).bytes, verify: true)
  }

  @Test("Kännsch: hllo → hallo in the thesis's three-word dictionary")
  func kaennschThreeWords() throws {
    // Under the weighted costs "hllo" is 7 from "hallo" (one omission) and 6 from "habe"
    // (three substitutions), so the frequencies decide, as the thesis's scoring intends.
    let layout = try LayoutFile.load(repositoryFile("corpora/layouts/qwertz-de.json"))
    let blob = try DictionaryCompiler.compile(
      words: [("ich", 1000), ("hallo", 600), ("habe", 200)], layout: layout)
    let d = try SwipeDictionary(bytes: blob.bytes, verify: true)
    let corrections = d.corrections(for: "hllo", limit: 3, model: .kaennsch())
    #expect(corrections.map(\.word) == ["hallo", "habe", "ich"])
    #expect(corrections.map(\.distance) == [7, 6, 8])
  }

  @Test("a top word longer than 255 letters is spelled in full (varint length)")
  func longTopWord() throws {
    let long = String(repeating: "ab", count: 150)
    let blob = try DictionaryCompiler.compile(words: [(long, 5), ("hello", 3)], layout: testLayout())
    let d = try SwipeDictionary(bytes: blob.bytes, verify: true)
    // (A word list cannot bring such a word any more: the parser refuses words over 128
    // scalars. The in-memory API still can, and the loader reads any blob.)
    #expect(d.topWords(limit: 2).map(\.word) == [long, "hello"])
    #expect(d.contains(long))
    // Typed text past SwipeDictionary.maximumWordLength is not corrected.
    #expect(d.corrections(for: String(long.dropLast()), limit: 1).isEmpty)
    #expect(d.corrections(for: String(long.dropLast()), limit: 1, model: .kaennsch()).isEmpty)
  }

  @Test("Kännsch: ivh → ich through the top list, hebe → habe")
  func kaennschExamples() throws {
    let d = try Self.germanLike()
    #expect(d.corrections(for: "ivh", limit: 3, model: .kaennsch()).first?.word == "ich")
    #expect(d.corrections(for: "hebe", limit: 3, model: .kaennsch()).first?.word == "habe")
    // The leaf of "ivh" does not hold "ich": the top list found it.
    let tree = try #require(d.prefixTree)
    guard case .node(let root)? = tree.root, case .node(let i)? = tree.child(of: root, 8) else {
      Issue.record("the i node did not split")
      return
    }
    #expect(tree.child(of: i, 21).map { if case .leaf = $0 { true } else { false } } != false)
    // Exact words and completions have distance 0 and rank by frequency.
    let exact = d.corrections(for: "hallo", limit: 1, model: .kaennsch()).first
    #expect(exact?.word == "hallo" && exact?.distance == 0)
    #expect(d.corrections(for: "ha", limit: 2, model: .kaennsch()).map(\.word) == ["hallo", "habe"])
  }

  @Test("the adjusted Levenshtein distance follows the thesis's rules")
  func adjustedLevenshtein() throws {
    let d = try Self.germanLike()
    let model = KaennschModel(dictionary: d, layout: d.layout, options: .init())
    #expect(d.makeCorrector().corrections(for: "hebe", limit: 5) == d.corrections(for: "hebe", limit: 5))
    #expect(
      d.makeCorrector(model: .kaennsch()).corrections(for: "hebe", limit: 5)
        == d.corrections(for: "hebe", limit: 5, model: .kaennsch()))
    func distance(_ typed: String, _ word: String) -> Int {
      model.distance(model.units(of: typed), d.alphabet.labels(of: word))
    }
    #expect(distance("hallo", "hallo") == 0)
    #expect(distance("HALLO", "hallo") == 0)  // case is free
    #expect(distance("hal", "hallo") == 0)  // the rest of the word is a completion
    #expect(distance("hsllo", "hallo") == 1)  // s is next to a
    #expect(distance("hllo", "hallo") == 7)  // an omitted letter
    #expect(distance("hmllo", "hallo") == 2)  // m is not next to a
    #expect(distance("haallo", "hallo") == 2)  // a letter typed twice
    #expect(distance("Treo", "Teich") == 3)  // the thesis's figure: copy, near → insert, near
    #expect(distance("hallooo", "hallo") == 4)  // two letters past the end
    #expect(distance("hlalo", "hallo") == 2)  // two letters swapped: one transposition
    #expect(distance("ahllo", "hallo") == 2)  // at the start too
    #expect(distance("hlal", "hallo") == 2)  // and before the end of the input
  }

  @Test("corrections of random typos find the word among the top ten")
  func randomTypos() throws {
    let words = randomWords(count: 3000, seed: 12, maxLength: 9).filter { !$0.contains("'") }
    let (d, _) = try openDictionary(words, verify: false)
    var generator = SeededGenerator(state: 13)
    var found = 0
    var tried = 0
    let layout = d.layout
    for word in words.shuffled(using: &generator).prefix(300) where word.count >= 4 {
      // Replace one letter after the first with a neighboring key's letter.
      var scalars = Array(word.lowercased().unicodeScalars)
      let position = Int.random(in: 1..<scalars.count, using: &generator)
      guard let key = layout.key(for: scalars[position]),
        let near = layout.neighbors(of: key).randomElement(using: &generator)
      else { continue }
      scalars[position] = layout.keys[near].character
      tried += 1
      let typo = String(String.UnicodeScalarView(scalars))
      if d.corrections(for: typo, limit: 10).contains(where: { $0.word == word }) { found += 1 }
    }
    #expect(tried > 100)
    #expect(Double(found) / Double(tried) > 0.9, "\(found) of \(tried)")
  }
}

extension Alphabet {
  func labels(of word: String) -> [UInt8] { word.unicodeScalars.map { label(for: $0)! } }
}

/// A file of the repository, located from this source file.
func repositoryFile(_ path: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(path).path
}
