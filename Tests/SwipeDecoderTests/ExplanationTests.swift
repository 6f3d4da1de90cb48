import SwipeDict
import SwipeDictTestSupport
import SwipeDictTools
import Testing

@testable import SwipeDecoder

@Suite("Why not my word: the decoder's explanations")
struct ExplanationTests {
  let decoder = SwipeDecoder(dictionary: english)
  let synthesizer = SwipeSynthesizer(layout: english.layout)

  @Test("every word shown is explained as shown at its place, and no word outside scores above it")
  func shownWordsAgreeWithTheirRank() throws {
    for (seed, word) in ["hello", "world", "keyboard", "the", "would", "people", "swipe"].enumerated() {
      let points = try synthesizer.swipe(for: word, seed: UInt64(seed + 1)).points
      let result = decoder.decode(points)
      for (place, shown) in result.words.enumerated() {
        let explanation = decoder.explain(points, word: shown.word)
        #expect(explanation.decoding == result)
        let form = try #require(explanation.forms.first { $0.id == shown.id }, "\(word): \(shown.word)")
        #expect(form.verdict == .shown(place: place + 1))
        #expect(form.filters.passes)
        #expect(form.distance == shown.distance)
        // Every word's score is the ranking's.
        #expect(abs((form.score ?? .nan) - shown.score) < 1e-5, "\(word): \(shown.word)")
        // Words scoring above it are the ones shown before it, and the variants or words the
        // search left out of its pool: never fewer than its place says.
        let rank = try #require(form.rank)
        #expect(rank >= 1 && rank <= place + 1 + SwipeDecoder.Options().candidatePool)
        if place == 0 { #expect(rank == 1, "\(word): the first word has rank 1, not \(rank)") }
      }
    }
  }

  @Test("a word whose first key is far from the swipe's start is dropped by the start filter, with the numbers")
  func filteredWord() throws {
    let points = try synthesizer.swipe(for: "hello", seed: 3).points
    let explanation = decoder.explain(points, word: "people")
    let form = try #require(explanation.forms.first { $0.word == "people" })
    #expect(form.verdict == .filtered(.start))
    let start = try #require(form.filters.checks.first)
    #expect(start.stage == .start && !start.passes && start.value > start.accepted.upperBound)
    // Its distance and would-be rank are still measured.
    #expect(form.distance.map { $0 > 0 } ?? true)
    #expect(form.rank.map { $0 > 1 } ?? true)
  }

  @Test("a case or apostrophe variant is explained as shown in its more frequent form's place")
  func mergedVariant() throws {
    let points = try synthesizer.swipe(for: "its", seed: 2).points
    let explanation = decoder.explain(points, word: "its")
    let forms = Dictionary(uniqueKeysWithValues: explanation.forms.map { ($0.word, $0) })
    let its = try #require(forms["its"])
    let apostrophe = try #require(forms["it's"], "\(explanation.forms.map(\.word))")
    #expect(its.distance == apostrophe.distance)
    let verdicts = [its.verdict, apostrophe.verdict]
    #expect(verdicts.contains { if case .shown = $0 { true } else { false } })
    #expect(verdicts.contains { if case .merged = $0 { true } else { false } })
  }

  @Test("a label without its apostrophe or capital finds the stored forms; an unknown word has none")
  func forms() throws {
    let points = try synthesizer.swipe(for: "I'm", seed: 1).points
    #expect(decoder.explain(points, word: "im").forms.contains { $0.word == "I'm" })
    #expect(decoder.explain(points, word: "qqqzzx").forms.isEmpty)
    #expect(decoder.explain([], word: "hello").forms.isEmpty)
  }
}
