import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

@testable import SwipeDecoder

/// The default dictionaries' lexicons (corpora/en.tsv.zst and de.tsv.zst, made by
/// corpora/make_corpora.py): the words people mean, offensive words marked and never offered.
@Suite("Default lexicons")
struct DefaultLexiconTests {
  /// A default list built on its layout, with the words its third column marks.
  static func build(_ list: String, layout: String) throws -> (SwipeDictionary, marked: [String]) {
    let path = repositoryRoot.appendingPathComponent("corpora/\(list)").path
    var marked: [String] = []
    _ = try readWordList(atPath: path) { entry in
      if entry.marks.contains(.possiblyOffensive) { marked.append(entry.word) }
    }
    let compiled = try DictionaryCompiler.compile(inputs: [path], layout: repositoryLayout(layout))
    return (try SwipeDictionary(bytes: compiled.bytes), marked)
  }

  static let english = Result { try build("en.tsv.zst", layout: "qwerty-en") }

  @Test("the misspellings and junk issue 33 found in the old en list are no words; the words meant are")
  func englishHasNoKnownJunk() throws {
    let (d, _) = try Self.english.get()
    for junk in [
      "teh", "becayse", "becuase", "hhhh", "hhh", "begining", "seperate", "neccesary", "independant",
      "futher", "ijm", "ium", "uim", "iium", "ahm", "im", "dont", "wouldnt", "alot",
    ] {
      #expect(!d.contains(junk), "\(junk)")
    }
    for word in ["the", "I", "I'm", "don't", "beginning", "separate", "necessary", "London", "iPhone", "us"] {
      #expect(d.contains(word), "\(word)")
    }
    #expect((0..<d.wordCount).allSatisfy { id in !(d.word(for: id) ?? "").contains(where: \.isNumber) })
  }

  @Test("en: marked words are words, and never a suggestion: top words, completion, correction, decoder")
  func englishNeverOffersAMarkedWord() throws {
    try Self.neverOffered(Self.english.get(), expectAtLeast: 500, swiped: ["fuck", "shit", "bitch"])
    // The keyboard complaint: a swipe of "duck" does not offer the obvious four-letter word.
    let (d, _) = try Self.english.get()
    let decoded = SwipeDecoder(dictionary: d).decode(perfectSwipe("duck", on: d)).words.map(\.word)
    #expect(decoded.first == "duck" && !decoded.contains("fuck"), "\(decoded)")
  }

  @Test("de: marked words are never a suggestion")
  func germanNeverOffersAMarkedWord() throws {
    try Self.neverOffered(Self.build("de.tsv.zst", layout: "qwertz-de"), expectAtLeast: 50, swiped: ["Scheiße"])
  }

  static func neverOffered(
    _ built: (SwipeDictionary, marked: [String]), expectAtLeast: Int, swiped: [String]
  ) throws {
    let (d, marked) = built
    #expect(marked.count >= expectAtLeast)
    let markedSet = Set(marked)
    #expect(d.topWords(limit: 1000).allSatisfy { !markedSet.contains($0.word) })
    for word in marked {
      #expect(d.contains(word), "\(word)")
      let prefix = String(word.prefix(max(1, word.count - 1)))
      // Correction keeps what was typed exactly (any case), and offers no other marked word: for
      // the word itself, and for a slip of one letter (its last letter doubled).
      let slip = word + String(word.last!)
      func corrected(_ input: String) -> [String] {
        d.corrections(for: input, limit: 10).map(\.word).filter { $0.lowercased() != input.lowercased() }
      }
      let offered =
        d.completions(prefix: prefix, limit: 10).map(\.word) + d.completions(prefix: word, limit: 10).map(\.word)
        + corrected(slip) + corrected(word)
      #expect(offered.allSatisfy { !markedSet.contains($0) }, "\(word): \(offered)")
    }
    // The decoder: perfect swipes of marked words (every 25th, and the ones named) and of
    // their neighbours decode to no marked word.
    let decoder = SwipeDecoder(dictionary: d)
    let sample = Set(swiped + marked.enumerated().filter { $0.offset % 25 == 0 }.map(\.element))
    for word in sample where d.contains(word) {
      let decoded = decoder.decode(perfectSwipe(word, on: d)).words.map(\.word)
      #expect(decoded.allSatisfy { !markedSet.contains($0) }, "\(word): \(decoded)")
    }
  }
}
