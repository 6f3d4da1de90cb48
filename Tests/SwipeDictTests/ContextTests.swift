import Foundation
import SwipeDictCompiler
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import SwipeDictTools
import Testing

@testable @_spi(SwipeDictInternals) import SwipeDict

@Suite("Ranking by the previous word: WordContext, completion and correction in context")
struct ContextTests {
  static let words: [(word: String, count: Double)] = [
    ("in", 5_000), ("on", 3_000), ("depends", 40), ("live", 200), ("new", 900), ("York", 30), ("year", 400),
    ("you", 4_000), ("the", 9_000), ("of", 6_000), ("if", 1_500), ("kind", 300), ("form", 100), ("from", 2_500),
    ("thaw", 20), ("I", 4_500),
  ]
  static let pairs: [(first: String, second: String, count: Double)] = [
    ("depends", "on", 900), ("depends", "in", 20), ("live", "in", 700), ("live", "on", 200),
    ("new", "York", 3_000), ("new", "year", 800), ("kind", "of", 2_000), ("in", "the", 9_000),
    ("on", "the", 7_000), ("I", "live", 60),
  ]

  static func dictionary() throws -> SwipeDictionary {
    let result = try DictionaryCompiler.compile(words: words, bigrams: pairs, layout: repositoryLayout("qwerty-en"))
    return try SwipeDictionary(bytes: result.bytes, verify: true)
  }

  /// `ln(1 + count)` of word `id`, as the decoder reads its frequency byte.
  static func logCount(_ d: SwipeDictionary, _ id: Int) -> Double {
    Double(d.frequency(of: id) ?? 0) / 255 * d.frequencyScale
  }

  @Test func theContextIsAProbabilityDistribution() throws {
    // Σ_w c(w) · e^boost(w) = N: P(w | previous) sums to 1 over the words, for any λ.
    let d = try Self.dictionary()
    let total = (0..<d.wordCount).reduce(0.0) { $0 + exp(Self.logCount(d, $1)) }
    for previous in ["depends", "live", "new", "kind", "in", "I"] {
      for lambda in [0.05, 0.3, 0.6, 0.9, 0.999] {
        let context = d.context(after: previous, pairWeight: lambda)
        #expect(!context.isEmpty && context.pairWeight == lambda)
        let sum = (0..<d.wordCount).reduce(0.0) { $0 + exp(Self.logCount(d, $1) + Double(context.boost(of: $1))) }
        #expect(abs(sum / total - 1) < 1e-4, "after \(previous), λ \(lambda): Σ P = \(sum / total)")
      }
    }
  }

  @Test func listedPairsRiseAndTheRestShareOneBoost() throws {
    let d = try Self.dictionary()
    let context = d.context(after: "depends")
    let on = try #require(d.id(of: "on"))
    let inWord = try #require(d.id(of: "in"))
    let the = try #require(d.id(of: "the"))
    #expect(context.previousID == d.id(of: "depends") && context.followerCount == 2)
    #expect(context.boost(of: on) > context.boost(of: inWord))
    #expect(context.boost(of: on) > 0)
    // A word that never followed "depends": ln(1 − λ), whatever its own frequency.
    #expect(context.boost(of: the) == Float(log1p(-WordContext.defaultPairWeight)))
    #expect(context.boost(of: -1) == context.boost(of: the) && context.boost(of: .max) == context.boost(of: the))
    // The previous word as typed, lowercased, capitalized.
    #expect(d.context(after: "Depends") == context && d.context(after: "DEPENDS") == context)
    #expect(d.context(after: "i").previousID == d.id(of: "I"))
  }

  @Test func emptyContexts() throws {
    let d = try Self.dictionary()
    // No such word, a word with no listed followers, no pair weight.
    for context in [d.context(after: "nowhere"), d.context(after: "thaw"), d.context(after: "depends", pairWeight: 0)] {
      #expect(context.isEmpty && context == .empty)
      #expect((0..<d.wordCount).allSatisfy { context.boost(of: $0) == 0 })
    }
    // Weights outside 0…0.999 are clamped, NaN is none: no value traps.
    #expect(d.context(after: "depends", pairWeight: .nan).isEmpty)
    #expect(d.context(after: "depends", pairWeight: -3).isEmpty)
    #expect(d.context(after: "depends", pairWeight: 7).pairWeight == 0.999)
    #expect(d.context(after: "depends", pairWeight: .infinity).pairWeight == 0.999)
    // A blob without pairs.
    let plain = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(words: Self.words, layout: repositoryLayout("qwerty-en")).bytes)
    #expect(plain.context(after: "depends").isEmpty)
  }

  @Test func completionsFollowThePreviousWord() throws {
    let d = try Self.dictionary()
    #expect(d.completions(prefix: "y").map(\.word) == ["you", "year", "York"])
    #expect(d.completions(prefix: "y", context: d.context(after: "new")).map(\.word) == ["York", "year", "you"])
    #expect(d.completions(prefix: "o", context: d.context(after: "depends")).first?.word == "on")
    #expect(d.completions(prefix: "o", context: d.context(after: "kind")).first?.word == "of")
    #expect(d.completions(prefix: "i", context: d.context(after: "live")).first?.word == "in")
    // An empty prefix: next words mixed with the top words.
    #expect(
      d.completions(prefix: "", context: d.context(after: "new"), limit: 3).map(\.word) == ["York", "year", "the"])
    // A prefix with a letter the blob lacks completes to nothing, followers neither.
    #expect(d.completions(prefix: "zz", context: d.context(after: "new")).isEmpty)
    // No context, or a limit of 0: as without one.
    #expect(d.completions(prefix: "y", context: .empty) == d.completions(prefix: "y"))
    #expect(d.completions(prefix: "y", context: d.context(after: "new"), limit: 0).isEmpty)
  }

  @Test("completion in context equals scoring every word", arguments: [UInt64(1), 2, 3, 4])
  func completionsInContextMatchAScan(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let letters = Array("abcdefghij")
    var words = Set<String>()
    while words.count < 300 {
      words.insert(
        String((0..<Int.random(in: 1...5, using: &random)).map { _ in letters.randomElement(using: &random)! }))
    }
    let list = words.sorted().map { ($0, Double(Int.random(in: 1...100_000, using: &random))) }
    let pairs = (0..<2_000).map { _ in
      (
        list.randomElement(using: &random)!.0, list.randomElement(using: &random)!.0,
        Double(Int.random(in: 1...50_000, using: &random))
      )
    }
    let d = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(words: list, bigrams: pairs, layout: repositoryLayout("qwerty-en")).bytes,
      verify: true)
    let steps = 255 / d.frequencyScale
    for _ in 0..<40 {
      let previous = list.randomElement(using: &random)!.0
      let context = d.context(after: previous, pairWeight: Double.random(in: 0.1...0.95, using: &random))
      let prefix = String(
        (0..<Int.random(in: 0...2, using: &random)).map { _ in letters.randomElement(using: &random)! })
      let limit = Int.random(in: 1...120, using: &random)
      let expected = (0..<d.wordCount).filter { d.word(for: $0)!.hasPrefix(prefix) }.map { id in
        let frequency = d.frequency(of: id)!
        let score = Int((Double(frequency) + Double(context.boost(of: id)) * steps).rounded())
        return (id: id, score: score, frequency: frequency)
      }.sorted { ($0.score, $0.frequency, -$0.id) > ($1.score, $1.frequency, -$1.id) }.prefix(limit)
      let found = d.completions(prefix: prefix, context: context, limit: limit)
      #expect(found.map(\.id) == expected.map(\.id), "after \(previous), prefix \"\(prefix)\", limit \(limit)")
      #expect(found.map(\.score) == expected.map(\.score))
    }
  }

  @Test func correctionsFollowThePreviousWord() throws {
    let d = try Self.dictionary()
    // "n" is "in" or "on" less its first letter, at the same cost: the more frequent "in"
    // alone, the previous word's follower in context.
    #expect(d.corrections(for: "n", limit: 3).first?.word == "in")
    #expect(d.corrections(for: "n", context: d.context(after: "depends"), limit: 3).first?.word == "on")
    #expect(d.corrections(for: "n", context: d.context(after: "live"), limit: 3).first?.word == "in")
    let kaennsch = CorrectionModel.kaennsch(KaennschCosts())
    // The Kännsch model's list is reordered the same way.
    let plainOrder = d.corrections(for: "yo", model: kaennsch).map(\.word)
    let inContext = d.corrections(for: "yo", context: d.context(after: "new"), model: kaennsch).map(\.word)
    #expect(plainOrder.first == "you" && inContext.first == "York", "\(plainOrder), \(inContext)")
    // No context changes nothing; the context never adds a word the model did not find.
    for input in ["fomr", "n", "thw", "yiu"] {
      #expect(d.corrections(for: input, context: .empty) == d.corrections(for: input))
      let plain = Set(d.corrections(for: input, limit: 10 + Corrector.contextExtra).map(\.id))
      let inContext = d.corrections(for: input, context: d.context(after: "new"), limit: 10)
      #expect(inContext.allSatisfy { plain.contains($0.id) })
      #expect(inContext.count == min(10, plain.count))
    }
    #expect(d.corrections(for: "n", context: d.context(after: "live"), limit: 0).isEmpty)
    #expect(d.corrections(for: "n", context: d.context(after: "live"), limit: .max).count > 0)
  }

  @Test func theUnigramTotalIsStored() throws {
    let d = try Self.dictionary()
    let view = try #require(d.bigramView)
    let total = (0..<d.wordCount).reduce(0.0) { $0 + exp(Self.logCount(d, $1)) }
    #expect(abs(view.unigramTotal - log(total)) < 1e-9)
  }
}
