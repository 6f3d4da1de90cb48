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
    #expect(d.completions(after: "new").map(\.word) == ["York"])
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
    var extras: [String] = []
    d.userWords = try makeUserWords { store in
      for _ in 0..<60 {
        let word = String((0..<Int.random(in: 2...6, using: &random)).map { _ in letters.randomElement(using: &random)! })
        switch Int.random(in: 0..<4, using: &random) {
        case 0: _ = try store.block(word)
        case 1: _ = try store.add(word)
        default: for _ in 0..<Int.random(in: 1...9, using: &random) { _ = try store.learn(word) }
        }
        extras.append(word)
      }
    }
    let context = d.context(after: "new")
    for prefix in ["", "h", "he", "hel", "w", "wo", "y", "ye", "k", "zz"] {
      for useContext in [false, true] {
        let limit = Int.random(in: 1...12, using: &random)
        let wordContext = useContext ? context : .empty
        let steps = WordContext.steps(frequencyScale: d.frequencyScale)
        let all = (0..<(d.wordCount + d.userLayer.extras.count)).filter { id in
          guard let word = d.word(for: id), id >= d.wordCount || d.isSuggestible(id) else { return false }
          return UserLayer.fold(word, alphabet: d.alphabet).hasPrefix(prefix)
        }
        let expected = all.map { id in
          let frequency = d.personalFrequency(of: id)!
          return WordContext.Completion(
            id: id, score: WordContext.score(frequency, wordContext.boost(of: id), steps: steps), frequency: frequency)
        }.sorted { $0.precedes($1) }.prefix(limit)
        let found = d.completions(prefix: prefix, context: wordContext, limit: limit)
        #expect(
          found.map(\.id) == expected.map(\.id),
          "prefix \"\(prefix)\", context \(useContext), limit \(limit): \(found.map(\.word)) \(expected.map { d.word(for: $0.id)! })")
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
        let word = String((0..<Int.random(in: 2...8, using: &random)).map { _ in letters.randomElement(using: &random)! })
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
    var d = try SwipeDictionary(bytes: DictionaryCompiler.compile(words: words, layout: repositoryLayout("qwerty-en")).bytes)
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
      #expect(d.corrections(for: "aat", limit: limit).map(\.id) == Array(wide.prefix(limit)).map(\.id), "limit \(limit)")
    }
  }
}
