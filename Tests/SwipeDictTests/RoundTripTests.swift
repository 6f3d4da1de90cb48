import Foundation
import SwipeDictCompiler
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import Testing

@testable import SwipeDict

@Suite("Round trips over random word sets")
struct RoundTripTests {
  static let cases: [(count: Int, seed: UInt64)] = [
    (1, 1), (2, 2), (3, 3), (17, 4), (200, 5), (1000, 6), (5000, 7),
  ]

  @Test("every word is found with its rank as ID, and ID → word inverts it", arguments: cases)
  func wordsAndIDs(count: Int, seed: UInt64) throws {
    let words = randomWords(count: count, seed: seed)
    let (dictionary, _) = try openDictionary(words)
    #expect(dictionary.wordCount == words.count)
    let ordered = labelOrder(words, dictionary)
    for (rank, word) in ordered.enumerated() {
      #expect(dictionary.id(of: word) == rank, "\(word)")
      #expect(dictionary.contains(word))
      #expect(dictionary.word(for: rank) == word)
    }
    #expect(dictionary.word(for: -1) == nil)
    #expect(dictionary.word(for: words.count) == nil)
  }

  @Test("the speller spells any ascending IDs as ID → word does, sharing their paths", arguments: cases)
  func spellerSpellsAscendingIDs(count: Int, seed: UInt64) throws {
    let words = randomWords(count: count, seed: seed)
    let (dictionary, _) = try openDictionary(words)
    let ordered = labelOrder(words, dictionary)
    var generator = SeededGenerator(state: seed)
    // Runs of neighbours, jumps, and every ID once.
    for step in [1, 2, 7, 64] {
      var speller = DAWGView.Speller(dawg: dictionary.dawg)
      var id = Int.random(in: 0..<min(step, count), using: &generator)
      while id < count {
        let spelled = speller.spell(id)
        #expect(spelled && dictionary.string(speller.labels) == ordered[id], "ID \(id)")
        id += Int.random(in: 1...step, using: &generator)
      }
      // Past the last word, and not above the previous ID: refused, and the speller starts over.
      let past = speller.spell(count)
      let first = speller.spell(0)
      #expect(!past && first && dictionary.string(speller.labels) == ordered[0])
      let again = speller.spell(0)
      #expect(!again)
    }
  }

  @Test("absent words are absent", arguments: cases)
  func absentWords(count: Int, seed: UInt64) throws {
    let words = randomWords(count: count, seed: seed)
    let (dictionary, _) = try openDictionary(words)
    let present = Set(words)
    let others = randomWords(count: 2000, seed: seed &+ 1000, maxLength: 10)
    for word in others where !present.contains(word) {
      #expect(dictionary.id(of: word) == nil, "\(word)")
    }
    for word in words {
      #expect(!dictionary.contains(word + "x") || present.contains(word + "x"))
      #expect(!dictionary.contains(word + "7"))
    }
    #expect(!dictionary.contains(""))
  }

  @Test("prefix listings and ID ranges match a brute-force filter", arguments: cases)
  func prefixes(count: Int, seed: UInt64) throws {
    let words = randomWords(count: count, seed: seed)
    let (dictionary, _) = try openDictionary(words)
    let ordered = labelOrder(words, dictionary)
    var prefixes: Set<String> = ["", "a", "zz", "A'"]
    for word in words.prefix(100) {
      for length in 1...min(3, word.count) { prefixes.insert(String(word.prefix(length))) }
    }
    for prefix in prefixes {
      let expected = ordered.enumerated().filter {
        $0.element.unicodeScalars.starts(with: prefix.unicodeScalars)
      }
      let listed = Array(dictionary.words(withPrefix: prefix))
      #expect(listed.map(\.word) == expected.map(\.element), "prefix \(prefix)")
      #expect(listed.map(\.id) == expected.map(\.offset), "prefix \(prefix)")
      let range = dictionary.idRange(withPrefix: prefix)
      #expect(range.count == expected.count, "prefix \(prefix)")
      if let first = expected.first { #expect(range.lowerBound == first.offset) }
    }
  }

  @Test("folded lookups find every case and accent variant", arguments: cases)
  func foldedLookups(count: Int, seed: UInt64) throws {
    let words = randomWords(count: count, seed: seed)
    let (dictionary, _) = try openDictionary(words)
    for query in words.prefix(200) + ["ABC", "uber", "Über"] {
      guard let key = folded(query, dictionary) else {
        #expect(dictionary.ids(matchingFolded: query).isEmpty)
        continue
      }
      let expected = words.filter { folded($0, dictionary) == key }
        .compactMap { dictionary.id(of: $0) }.sorted()
      #expect(dictionary.ids(matchingFolded: query, limit: 1000) == expected, "\(query)")
    }
  }

  @Test("words with the same folded first letter form one contiguous ID range")
  func firstLetterRanges() throws {
    let words = randomWords(count: 3000, seed: 11)
    let (dictionary, _) = try openDictionary(words)
    var seen: [Unicode.Scalar: Int] = [:]
    var lastClass: Unicode.Scalar?
    for id in 0..<dictionary.wordCount {
      let word = try #require(dictionary.word(for: id))
      let first = try #require(folded(word, dictionary)?.first)
      if first != lastClass {
        #expect(seen[first] == nil, "class \(first) appears in two ranges")
        seen[first] = id
        lastClass = first
      }
    }
  }

  @Test("frequency bytes follow the counts on a log scale")
  func frequencies() throws {
    let entries: [(word: String, count: Double)] = [
      ("the", 1_000_000), ("of", 500_000), ("cat", 1000), ("zebra", 10), ("rare", 1), ("never", 0),
    ]
    let blob = try DictionaryCompiler.compile(words: entries, layout: testLayout()).bytes
    let dictionary = try SwipeDictionary(bytes: blob, verify: true)
    #expect(dictionary.frequency(of: "the") == 255)
    #expect(dictionary.frequency(of: "never") == 0)
    #expect(dictionary.frequency(of: "rare")! >= 1)
    let order = ["the", "of", "cat", "zebra", "rare", "never"].map { dictionary.frequency(of: $0)! }
    #expect(order == order.sorted(by: >))
    // Each step is a factor of (1 + max)^(1/255): the approximate count is within half a step.
    for (word, count) in entries where count > 0 {
      let q = dictionary.frequency(of: word)!
      let approx = dictionary.approximateCount(forFrequency: q)
      let step = Foundation.exp(dictionary.frequencyScale / 255)
      #expect(approx / (1 + count) < step && (1 + count) / (1 + approx) < step, "\(word)")
    }
    #expect(dictionary.frequency(of: "absent") == nil)
  }

  @Test("the inline step decoder agrees with the general node decoder on every path")
  func stepMatchesGeneralDecoder() throws {
    let words = randomWords(count: 5000, seed: 21, maxLength: 14)
    let (dictionary, _) = try openDictionary(words)
    let dawg = dictionary.dawg
    for word in words {
      var address = dawg.root
      for scalar in word.unicodeScalars {
        let label = dictionary.alphabet.label(for: scalar)!
        let node = try #require(dawg.node(at: address))
        let i = try #require(dawg.find(node, label))
        let general = (dawg.target(node, i)!, dawg.output(node, i))
        let inline = try #require(dawg.step(from: address, label: label))
        #expect(inline.target == general.0 && inline.output == general.1)
        address = inline.target
      }
    }
  }

  @Test(
    "a node's edges, decoded at once, and its step on every label are its transitions one by one",
    arguments: [21, 22] as [UInt64])
  func edgesMatchTransitions(seed: UInt64) throws {
    // Words from one long alphabet after "x", so the root and "x" have wide nodes too.
    let wide = (0..<60).map { "x" + String(UnicodeScalar(UInt8(0x41 + $0))) + "q" }
    let words = randomWords(count: 5000, seed: seed, maxLength: 14) + wide
    let (dictionary, _) = try openDictionary(words)
    let dawg = dictionary.dawg
    var seen: Set<Int> = []
    var pending = [dawg.root]
    var wideNodes = 0
    var searchedNodes = 0
    var links = 0
    while let address = pending.popLast() {
      guard seen.insert(address).inserted else { continue }
      let node = try #require(dawg.node(at: address))
      var edges: [DAWGView.Edge] = [DAWGView.Edge(label: 0, target: -1)]
      let isFinal = dawg.appendEdges(of: address, to: &edges)
      #expect(isFinal == node.isFinal)
      #expect(edges.count == 1 + node.count && edges[0].target == -1)
      for i in 0..<node.count {
        let target = try #require(dawg.target(node, i))
        #expect(edges[1 + i].label == dawg.label(node, i) && Int(edges[1 + i].target) == target)
        pending.append(target)
      }
      if node.count >= 33 { wideNodes += 1 }
      if node.count > 8, node.count < 33, !node.deltaLabels { searchedNodes += 1 }
      // Every label, present or not (bytes past a node's labels included), steps as the
      // node's transitions say.
      for label in 0...UInt8.max {
        let step = dawg.step(from: address, label: label)
        if let i = dawg.find(node, label) {
          #expect(step?.target == dawg.target(node, i) && step?.output == dawg.output(node, i))
        } else {
          #expect(step == nil, "label \(label) found in a node of \(node.count) without it")
        }
      }
      if let link = dawg.chainLink(at: address) {
        links += 1
        #expect(node.count == 1 && !node.isFinal && node.labels < 0)
        #expect(link.label == edges[1].label && link.target == edges[1].target)
      } else {
        #expect(node.count != 1 || node.isFinal || node.labels >= 0)
      }
    }
    #expect(wideNodes > 0 && searchedNodes > 0 && links > 0)
  }
}

@Suite("Queries with extreme inputs")
struct ExtremeQueryTests {
  @Test func veryLongQueriesAreAnsweredQuickly() throws {
    let (dictionary, _) = try openDictionary(["a", "aa", "aaa", "ab"])
    let long = String(repeating: "a", count: 1_000_000)
    #expect(dictionary.id(of: long) == nil)
    #expect(dictionary.ids(matchingFolded: long).isEmpty)
    #expect(dictionary.idRange(withPrefix: long).isEmpty)
    #expect(Array(dictionary.words(withPrefix: long)).isEmpty)
    #expect(dictionary.ids(matchingFolded: "AA") == [dictionary.id(of: "aa")!])
  }
}
