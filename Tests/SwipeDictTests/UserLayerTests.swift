import Foundation
import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

@testable @_spi(SwipeDictInternals) import SwipeDict

@Suite("The user's words in every query")
struct UserLayerTests {
  static let words: [(word: String, count: Double)] = [
    ("the", 9_000), ("hello", 800), ("help", 600), ("held", 50), ("helm", 20), ("world", 700), ("word", 650),
    ("damn", 300), ("new", 900), ("York", 30), ("year", 400), ("you", 4_000), ("kind", 300), ("of", 6_000),
  ]

  static func dictionary() throws -> SwipeDictionary {
    let result = try DictionaryCompiler.compile(
      words: words, bigrams: [("new", "York", 3_000), ("new", "year", 800)], layout: repositoryLayout("qwerty-en"))
    return try SwipeDictionary(bytes: result.bytes, verify: true)
  }

  @Test func blockedWordsAreNeverSuggested() throws {
    var d = try Self.dictionary()
    #expect(d.completions(prefix: "da").map(\.word) == ["damn"])
    d.userWords = try makeUserWords { try $0.block("Damn") }
    #expect(d.completions(prefix: "da").isEmpty)
    #expect(d.corrections(for: "damm").allSatisfy { $0.word != "damn" })
    #expect(d.topWords(limit: 20).allSatisfy { $0.word != "damn" })
    // Still a word of the blob: lookups find it.
    #expect(d.contains("damn") && d.id(of: "damn") != nil)
    d.userWords = try makeUserWords { try $0.block("year") }
    #expect(d.nextWords(after: "new").map(\.word) == ["York"])
    #expect(d.completions(prefix: "y", context: d.context(after: "new")).allSatisfy { $0.word != "year" })
  }

  @Test func addedWordsCompleteCorrectAndLookUp() throws {
    var d = try Self.dictionary()
    #expect(!d.contains("Heloise"))
    d.userWords = try makeUserWords { _ = try $0.add("Heloise") }
    #expect(d.contains("Heloise") && d.id(of: "Heloise") == nil)
    let completed = d.completions(prefix: "helo", limit: 5)
    #expect(completed.map(\.word) == ["Heloise"])
    let id = try #require(completed.first?.id)
    #expect(id >= d.wordCount && d.word(for: id) == "Heloise")
    #expect(d.personalFrequency(of: id) == completed.first?.frequency)
    // Folded: case and accents as completion ignores them.
    #expect(d.completions(prefix: "HELO").map(\.word) == ["Heloise"])
    // Correction needs the word's letters in the blob's alphabet ("Heloise" has an s and a
    // capital H this blob lacks).
    #expect(d.corrections(for: "Heloiae", limit: 3).allSatisfy { $0.word != "Heloise" })
    d.userWords = try makeUserWords { _ = try $0.add("holden") }
    #expect(d.corrections(for: "hplden", limit: 3).first?.word == "holden")
    #expect(d.corrections(for: "holdn", limit: 3).first?.word == "holden")
    // A blocked word is no word of the user's.
    d.userWords = try makeUserWords {
      _ = try $0.add("Heloise")
      _ = try $0.block("Heloise")
    }
    #expect(!d.contains("Heloise") && d.completions(prefix: "helo").isEmpty)
  }

  @Test func usesRaiseAWordsFrequency() throws {
    var d = try Self.dictionary()
    let helm = try #require(d.id(of: "helm"))
    #expect(d.completions(prefix: "hel").map(\.word) == ["hello", "help", "held", "helm"])
    d.userWords = try makeUserWords { store in
      for _ in 0..<6 { _ = try store.learn("helm") }
    }
    #expect(d.personalFrequency(of: helm)! > d.frequency(of: helm)!)
    #expect(d.completions(prefix: "hel").first?.word == "helm")
    #expect(d.completions(prefix: "hel", limit: 1).map(\.word) == ["helm"])
    // One use of a frequent word raises nothing: uses never lower a word.
    d.userWords = try makeUserWords { _ = try $0.learn("the") }
    #expect(d.personalFrequency(of: d.id(of: "the")!) == d.frequency(of: "the"))
    // More uses, more frequency.
    var previous: UInt8 = 0
    for uses in 1...8 {
      d.userWords = try makeUserWords { store in
        _ = try store.add("Zorblax")
        for _ in 1..<uses { _ = try store.learn("Zorblax") }
      }
      let frequency = try #require(d.completions(prefix: "zorb").first?.frequency)
      #expect(frequency >= previous, "\(uses) uses")
      previous = frequency
    }
  }

  @Test func usesCountLikeTheWordAtRankNOver2ToTheUsesPlusOne() throws {
    var d = try Self.dictionary()
    let bytes = (0..<d.wordCount).map { d.frequency(of: $0)! }.sorted(by: >)
    for uses in [1, 2, 3, 4, 5, 8, 61, 200] {
      d.userWords = try makeUserWords { _ = try $0.add("zorblax", uses: uses) }
      let shift = min(uses + 1, 62)
      let rank = max(1, (bytes.count + (1 << shift) - 1) >> shift)
      #expect(d.completions(prefix: "zorb").first?.frequency == bytes[rank - 1], "\(uses) uses")
    }
  }

  @Test("completion with user words equals scoring every word", arguments: [UInt64(1), 2, 3])
  func completionsMatchAScan(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    var d = try Self.dictionary()
    let letters = Array("hewordlyk")
    d.userWords = try makeUserWords { store in
      for _ in 0..<60 {
        let word = String(
          (0..<Int.random(in: 2...6, using: &random)).map { _ in letters.randomElement(using: &random)! })
        switch Int.random(in: 0..<4, using: &random) {
        case 0: _ = try store.block(word)
        case 1: _ = try store.add(word)
        default: for _ in 0..<Int.random(in: 1...9, using: &random) { _ = try store.learn(word) }
        }
      }
    }
    let prefixes = ["", "h", "he", "hel", "w", "wo", "y", "ye", "k", "zz"]
    Self.expectCompletionsMatchAScan(d, prefixes: prefixes, context: d.context(after: "new"), using: &random)
  }

  @Test(
    "completion with user words equals scoring every word (random dictionaries, most prefixes answered by the blob alone)",
    arguments: [UInt64(1), 2, 3])
  func completionsMatchAScanOnLargerDictionaries(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    // Zipf's counts, in a random order of the words.
    let words = randomWords(count: 1200, seed: seed, maxLength: 7).shuffled(using: &random)
    var d = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(
        words: words.enumerated().map { (word: $1, count: 1e6 / Double($0 + 1)) }, layout: testLayout()
      ).bytes)
    let letters = Array("aabcdeeefghiklmnoprsstu")
    d.userWords = try makeUserWords { store in
      for _ in 0..<100 {
        let word = words.randomElement(using: &random)!
        // A few uses (below the most frequent words); with seed 1, now and then many.
        let many = seed == 1 && Int.random(in: 0..<10, using: &random) == 0
        let uses = many ? Int.random(in: 5...14, using: &random) : Int.random(in: 1...2, using: &random)
        for _ in 0..<uses { _ = try store.learn(word) }
      }
      for _ in 0..<100 {
        let word = String(
          (0..<Int.random(in: 2...7, using: &random)).map { _ in letters.randomElement(using: &random)! })
        if Bool.random(using: &random) { _ = try store.add(word) } else { _ = try store.learn(word) }
      }
      for _ in 0..<30 { _ = try store.block(words.randomElement(using: &random)!) }
    }
    var prefixes = [""]
    for _ in 0..<30 {
      let word = words.randomElement(using: &random)!
      prefixes.append(String(word.prefix(Int.random(in: 1...3, using: &random))))
    }
    Self.expectCompletionsMatchAScan(d, prefixes: prefixes, context: .empty, using: &random)
  }

  /// Completions of each prefix, with and without `context`, against every word of the blob
  /// and the user's scored by its personal frequency and boost.
  static func expectCompletionsMatchAScan(
    _ d: SwipeDictionary, prefixes: [String], context: WordContext, using random: inout SeededGenerator
  ) {
    for prefix in prefixes {
      for useContext in context.isEmpty ? [false] : [false, true] {
        let limit = Int.random(in: 1...12, using: &random)
        let wordContext = useContext ? context : .empty
        let steps = WordContext.steps(frequencyScale: d.frequencyScale)
        let folded = UserLayer.fold(prefix, alphabet: d.alphabet, layout: d.layout)
        let all = (0..<(d.wordCount + d.userLayer.extras.count)).filter { id in
          guard let word = d.word(for: id), id >= d.wordCount || d.isSuggestible(id) else { return false }
          return UserLayer.fold(word, alphabet: d.alphabet, layout: d.layout).hasPrefix(folded)
        }
        let expected = all.map { id in
          let frequency = d.personalFrequency(of: id)!
          return WordContext.Completion(
            id: id, score: WordContext.score(frequency, wordContext.boost(of: id), steps: steps), frequency: frequency)
        }.sorted { $0.precedes($1) }.prefix(limit)
        let found = d.completions(prefix: prefix, context: wordContext, limit: limit)
        #expect(
          found.map(\.id) == expected.map(\.id),
          "prefix \"\(prefix)\", context \(useContext), limit \(limit): \(found.map(\.word)) \(expected.map { d.word(for: $0.id)! })"
        )
        #expect(found.map(\.frequency) == expected.map(\.frequency) && found.map(\.score) == expected.map(\.score))
      }
    }
  }

  @Test("the correction index finds what scoring every user word finds", arguments: [UInt64(1), 2, 3, 4])
  func correctionIndexMatchesAScan(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    var d = try Self.dictionary()
    let letters = Array("hewordlyknmatf")
    var added: [String] = []
    d.userWords = try makeUserWords { store in
      for _ in 0..<250 {
        let word = String(
          (0..<Int.random(in: 2...8, using: &random)).map { _ in letters.randomElement(using: &random)! })
        _ = try store.add(word)
        added.append(word)
      }
    }
    let corrector = d.makeCorrector()
    for _ in 0..<250 {
      // A word of the user's with one or two slips (substitution, omission, insertion, swap).
      var typed = Array(added.randomElement(using: &random)!)
      for _ in 0..<Int.random(in: 0...2, using: &random) {
        let at = Int.random(in: 0..<typed.count, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: typed[at] = letters.randomElement(using: &random)!
        case 1: if typed.count > 1 { typed.remove(at: at) }
        case 2: typed.insert(letters.randomElement(using: &random)!, at: at)
        default: if at + 1 < typed.count { typed.swapAt(at, at + 1) }
        }
      }
      let input = String(typed)
      let indexed = corrector.userCorrections(for: input, indexed: true).map(\.id).sorted()
      let scanned = corrector.userCorrections(for: input, indexed: false).map(\.id).sorted()
      #expect(indexed == scanned, "\(input): \(scanned.map { d.word(for: $0 + 0)! })")
    }
  }

  @Test(
    "correction with user words equals scoring every word by its personal frequency (random dictionaries)",
    arguments: [UInt64(1), 2, 3, 4])
  func correctionsMatchAScan(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let words = randomWords(count: 1200, seed: seed, maxLength: 7)
    var (d, _) = try openDictionary(words)
    let letters = Array("aabcdeeefghiklmnoprsstu")
    var added: [String] = []
    d.userWords = try makeUserWords { store in
      // Raised words (some far above their own frequency), words the blob lacks, blocked ones.
      for _ in 0..<150 {
        let word = words.randomElement(using: &random)!
        for _ in 0..<Int.random(in: 1...12, using: &random) { _ = try store.learn(word) }
      }
      while added.count < 150 {
        let word = String(
          (0..<Int.random(in: 2...7, using: &random)).map { _ in letters.randomElement(using: &random)! })
        guard d.id(of: word) == nil else { continue }
        for _ in 0..<Int.random(in: 0...6, using: &random) { _ = try store.learn(word) }
        _ = try store.add(word)
        added.append(word)
      }
      for _ in 0..<40 { _ = try store.block(words.randomElement(using: &random)!) }
    }
    var costs = TypingCosts()
    if seed > 2 {
      // Random costs, zeros included (an edit still costs one step); the limits as they are.
      for name in TypingCosts.names
      where !["maxCost", "margin", "maxEdits", "maxEarlyEdits", "earlyLetters"].contains(name) {
        costs[name] = Int.random(in: 0...200, using: &random)
      }
    }
    // Seeds 1 and 3 with the default margin (the scan keeps the words within it of the best).
    if seed % 2 == 0 { costs.margin = TypingCosts.maxValue }
    let corrector = d.makeCorrector(model: .typing(costs))
    let search = TypingSearch(dictionary: d, costs: costs)
    for _ in 0..<60 {
      var typed = Array((Bool.random(using: &random) ? added : words).randomElement(using: &random)!.lowercased())
      for _ in 0..<Int.random(in: 0...2, using: &random) where !typed.isEmpty {
        let at = Int.random(in: 0..<typed.count, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: typed[at] = letters.randomElement(using: &random)!
        case 1: typed.remove(at: at)
        case 2: typed.insert(letters.randomElement(using: &random)!, at: at)
        default: if at + 1 < typed.count { typed.swapAt(at, at + 1) }
        }
      }
      let input = String(typed)
      let limit = Int.random(in: 1...12, using: &random)
      var all: [(id: Int, score: Int, frequency: Int)] = []
      func score(_ id: Int, _ labels: [UInt8]) {
        guard let cost = search.cost(of: input, labels), cost <= search.scaled.maxCost else { return }
        let frequency = Int(d.personalFrequency(of: id)!)
        all.append((id, frequency - Int(cost), frequency))
      }
      for id in 0..<d.wordCount where d.isSuggestible(id) { score(id, d.dawg.labels(of: id)!) }
      for (index, extra) in d.userLayer.extras.enumerated() { score(d.wordCount + index, extra.labels!) }
      all.sort { ($0.score, $0.frequency, -$0.id) > ($1.score, $1.frequency, -$1.id) }
      if let best = all.first?.score { all.removeAll { $0.score < best - Int(search.scaled.margin) } }
      typedWordFirst(&all, input: input, in: d) { Int(d.personalFrequency(of: $0)!) }
      let found = corrector.corrections(for: input, limit: limit)
      #expect(
        found.map(\.id) == all.prefix(limit).map(\.id),
        "\(input) limit \(limit): \(found.map(\.word)) \(all.prefix(limit).map { d.word(for: $0.id)! })")
      #expect(found.map(\.score) == all.prefix(limit).map(\.score))
      #expect(found.map { Int($0.frequency) } == all.prefix(limit).map(\.frequency))
    }
  }

  @Test("a cost cap leaves every cost at or under it as it was", arguments: [UInt64(1), 2, 3])
  func cappedCostsMatchUncapped(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let words = randomWords(count: 800, seed: seed, maxLength: 8)
    let (d, _) = try openDictionary(words)
    let search = TypingSearch(dictionary: d, costs: TypingCosts())
    let sorted = (0..<d.wordCount).compactMap { d.dawg.labels(of: $0) }
    for _ in 0..<40 {
      let input = words.randomElement(using: &random)!
      let cap = Int32.random(in: 0...search.scaled.maxCost, using: &random)
      let all = search.costs(of: input, sorted: sorted)
      let capped = search.costs(of: input, sorted: sorted, cap: cap)
      #expect(capped == all.map { $0.flatMap { $0 <= cap ? $0 : nil } }, "\(input) cap \(cap)")
    }
  }

  @Test("the blocked-word bit set holds what it was given", arguments: [0, 1, 63, 64, 65, 1000])
  func wordIDSet(wordCount: Int) {
    var random = SeededGenerator(seed: UInt64(wordCount))
    let ids = (0..<50).map { _ in Int.random(in: -3...wordCount + 3, using: &random) }
    let set = WordIDSet(ids, wordCount: wordCount)
    let expected = Set(ids.filter { $0 >= 0 && $0 < wordCount })
    #expect(set.count == expected.count && set.isEmpty == expected.isEmpty)
    for id in -3...wordCount + 3 { #expect(set.contains(id) == expected.contains(id)) }
    var listed: [Int] = []
    set.forEach { listed.append($0) }
    #expect(listed == expected.sorted())
  }

  @Test func lettersTheAlphabetLacksAreReadAsTheirKeysLetters() throws {
    var d = try Self.dictionary()
    #expect(d.alphabet.label(for: "ł") == nil && d.alphabet.label(for: "ë") == nil)
    d.userWords = try makeUserWords { store in
      _ = try store.add("Łowell")
      _ = try store.add("Wëndy")
      _ = try store.add("Zoë")  // "z" is not in this alphabet either: it completes, it is not corrected
    }
    // Typed without the accent (as a keyboard without the letter types it) or with it.
    #expect(d.completions(prefix: "lowe").map(\.word) == ["Łowell"])
    #expect(d.completions(prefix: "Łowe").map(\.word) == ["Łowell"])
    #expect(d.completions(prefix: "wend").map(\.word) == ["Wëndy"])
    #expect(d.completions(prefix: "zoe").map(\.word) == ["Zoë"])
    #expect(d.completions(prefix: "zoë").map(\.word) == ["Zoë"])
    // Correction reads them as the typing model reads typed letters.
    #expect(d.corrections(for: "lowel").contains { $0.word == "Łowell" })
    #expect(d.corrections(for: "wendu").contains { $0.word == "Wëndy" })
    #expect(d.corrections(for: "wëndu").contains { $0.word == "Wëndy" })
    #expect(d.contains("Łowell") && d.contains("Zoë"))
  }

  // MARK: - Second review's findings, each a case that failed

  /// Words one letter from "tat", Zipf's counts, "the" before them all.
  static func tatDictionary(bigrams: [(first: String, second: String, count: Double)] = []) throws -> SwipeDictionary {
    let near = ["bat", "cat", "eat", "fat", "hat", "mat", "oat", "pat", "rat"]
    var words: [(word: String, count: Double)] = [("the", 1e10)]
    for (i, word) in near.enumerated() { words.append((word, pow(10, Double(9 - i)))) }
    return try SwipeDictionary(
      bytes: DictionaryCompiler.compile(words: words, bigrams: bigrams, layout: repositoryLayout("qwerty-en")).bytes)
  }

  @Test func aContextReordersWhatTheModelFindsWithTheUsersWordsAmongThem() throws {
    var d = try Self.tatDictionary(bigrams: [("the", "rat", 1e9)])
    d.userWords = try makeUserWords { _ = try $0.add("tatoo") }
    var costs = TypingCosts()
    costs.margin = TypingCosts.maxValue
    // The model's best 1 + 8 of all words: the user's "tatoo" among them, "rat" not.
    let found = d.corrections(for: "tat", context: d.context(after: "the"), limit: 1, model: .typing(costs))
    #expect(found.count == 1 && found.first?.word != "rat", "\(found.map(\.word))")
  }

  @Test func theMarginCountsFromTheBestOfTheBlobsAndTheUsersWords() throws {
    var d = try Self.tatDictionary()
    d.userWords = try makeUserWords { _ = try $0.add("tat", uses: 5) }
    #expect(d.corrections(for: "tat", limit: 10).map(\.word) == ["tat"])
  }

  @Test func aRaisedWordCompletesAfterASpaceWhenTheTopListFallsShort() throws {
    var random = SeededGenerator(seed: 7)
    let words = randomWords(count: 1200, seed: 7, maxLength: 7).shuffled(using: &random)
    var d = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(
        words: words.enumerated().map { (word: $1, count: 1e6 / Double($0 + 1)) }, layout: testLayout()
      ).bytes)
    let rare = try #require(d.id(of: words.last!))
    #expect(d.completions(prefix: "", limit: 1100).count == 1100)  // past the 1,000 of the top list
    d.userWords = try makeUserWords { store in
      for _ in 0..<20 { _ = try store.learn(words.last!) }
      _ = try store.block(words[0])
    }
    #expect(d.completions(prefix: "", limit: 1000).contains { $0.id == rare })
    #expect(d.completions(prefix: "", limit: 1100).contains { $0.id == rare })
  }

  @Test func aPrefixLetterTheAlphabetLacksMatchesTheBlobsWordsToo() throws {
    var d = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(words: [("lower", 900), ("hello", 50)], layout: repositoryLayout("qwerty-en"))
        .bytes)
    #expect(d.completions(prefix: "łowe").map(\.word) == ["lower"])
    #expect(d.ids(matchingFolded: "łower") == [d.id(of: "lower")!])
    d.userWords = try makeUserWords { _ = try $0.add("Łowell") }
    #expect(Set(d.completions(prefix: "łowe").map(\.word)) == ["lower", "Łowell"])
  }

  @Test func aLongUserWordCompletesPastTheBlobsLongestWord() throws {
    var d = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(
        words: ["abc", "def", "ghi", "jkl", "mno", "pqr", "stu", "vwx", "yz"].map { (word: $0, count: 10) },
        layout: repositoryLayout("qwerty-en")
      ).bytes)
    let long = "pneumonoultramicroscopicsilicovolcanoconiosis"
    d.userWords = try makeUserWords { _ = try $0.add(long) }
    #expect(d.completions(prefix: String(long.prefix(30))).map(\.word) == [long])
    #expect(d.corrections(for: long).first?.word == long)
  }

  // MARK: - Review findings, each a case that failed

  @Test func userWordsCompleteUnderEverySpellingOfThePrefix() throws {
    var d = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(
        words: [(word: "straße", count: 900), (word: "œuvre", count: 400), (word: "ouvert", count: 300)],
        layout: repositoryLayout("qwerty-en")
      ).bytes)
    d.userWords = try makeUserWords { store in
      _ = try store.add("straßenbahn")
      _ = try store.add("œuvres")
    }
    #expect(Set(d.completions(prefix: "strass").map(\.word)) == ["straße", "straßenbahn"])
    #expect(Set(d.completions(prefix: "oeuv").map(\.word)) == ["œuvre", "œuvres"])
    // More words than the blob has: the limit counts the user's too.
    #expect(d.completions(prefix: "", limit: 10).count == 5)
    // A negative limit is no limit to trap on.
    #expect(d.completions(prefix: "strass", limit: -1).isEmpty)
    #expect(d.completions(prefix: "strass", context: .empty, limit: -1).isEmpty)
  }

  @Test func blockingCoversEveryCapitalization() throws {
    var d = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(
        words: [(word: "damn", count: 900), (word: "Damn", count: 400), (word: "dame", count: 30)],
        layout: repositoryLayout("qwerty-en")
      ).bytes)
    d.userWords = try makeUserWords { store in
      _ = try store.add("DAMNIT")
      _ = try store.block("DAMN")
      _ = try store.block("damnit")
    }
    #expect(d.completions(prefix: "da").map(\.word) == ["dame"])
    #expect(d.corrections(for: "damm").allSatisfy { !$0.word.lowercased().hasPrefix("damn") })
  }

  @Test func theCorrectionIndexReadsTheInputAsTheModelDoes() throws {
    var d = try Self.dictionary()
    d.userWords = try makeUserWords { _ = try $0.add("holdew") }
    // Digits are left out of the input, a letter the alphabet lacks reads as its key's.
    for input in ["h12oldew", "1h2oldew", "hold3ew"] {
      #expect(d.corrections(for: input, limit: 3).first?.word == "holdew", "\(input)")
    }
  }

  @Test func aRaisedWordComesFirstWhateverTheLimit() throws {
    var words: [(word: String, count: Double)] = "bcdefghijklmnoprsuv".map { (word: "\($0)at", count: 10_000) }
    words.append((word: "qat", count: 1))
    var d = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(words: words, layout: repositoryLayout("qwerty-en")).bytes)
    d.userWords = try makeUserWords { store in
      for _ in 0..<40 { _ = try store.learn("qat") }
    }
    // "qat" is scored by its raised frequency whatever the limit: it leads the words an
    // adjacent-key slip away, and a limit of 1 gives the first of a limit of 30.
    let wide = d.corrections(for: "aat", limit: 30)
    let qat = try #require(wide.first { $0.word == "qat" })
    #expect(qat.frequency == d.personalFrequency(of: d.id(of: "qat")!) && qat.frequency > d.frequency(of: "qat")!)
    #expect(wide.filter { $0.distance == qat.distance }.first?.word == "qat")
    for limit in 1...5 {
      #expect(
        d.corrections(for: "aat", limit: limit).map(\.id) == Array(wide.prefix(limit)).map(\.id), "limit \(limit)")
    }
  }
}
