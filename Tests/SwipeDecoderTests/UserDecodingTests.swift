import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

@testable import SwipeDecoder

@Suite("Decoding the user's words")
struct UserDecodingTests {
  static func dictionary() throws -> SwipeDictionary {
    let words: [(word: String, count: Double)] = [
      ("hello", 800), ("help", 600), ("held", 50), ("jelly", 40), ("world", 700), ("word", 650), ("damn", 300),
      ("dam", 200), ("darn", 100), ("the", 9_000), ("they", 2_000), ("quiz", 30), ("helo", 5),
    ]
    let result = try DictionaryCompiler.compile(words: words, layout: repositoryLayout("qwerty-en"))
    return try SwipeDictionary(bytes: result.bytes, verify: true)
  }

  @Test func aLearnedWordIsSwipedLikeTheBlobsWords() throws {
    var d = try Self.dictionary()
    let points = perfectSwipe("jolly", on: d)
    #expect(SwipeDecoder(dictionary: d).decode(points).words.first?.word != "jolly")
    d.userWords = try makeUserWords { store in
      for _ in 0..<3 { _ = try store.learn("jolly") }
    }
    let decoded = SwipeDecoder(dictionary: d).decode(points)
    let first = try #require(decoded.words.first)
    #expect(first.word == "jolly" && first.id >= d.wordCount)
    #expect(first.frequency == d.personalFrequency(of: first.id))
    // A session, fed point by point, too.
    var session = SwipeDecoder(dictionary: d).makeSession()
    for point in points { session.add(point) }
    #expect(session.end().words.first?.word == "jolly")
    // Words that fail the filters are not matched: a swipe of "the" never gets "jolly".
    #expect(SwipeDecoder(dictionary: d).decode(perfectSwipe("the", on: d)).words.allSatisfy { $0.word != "jolly" })
  }

  @Test func blockedWordsAreNeverDecoded() throws {
    var d = try Self.dictionary()
    let points = perfectSwipe("damn", on: d)
    #expect(SwipeDecoder(dictionary: d).decode(points).words.first?.word == "damn")
    d.userWords = try makeUserWords { _ = try $0.block("damn") }
    let decoded = SwipeDecoder(dictionary: d).decode(points)
    #expect(!decoded.words.isEmpty && decoded.words.allSatisfy { $0.word != "damn" })
    #expect(SwipeDecoder(dictionary: d).explain(points, word: "damn").forms.first?.verdict == .blocked)
  }

  @Test func usesRaiseAWordAboveAMoreFrequentOne() throws {
    var d = try Self.dictionary()
    // "hello" and "helo" share a key path: the more frequent comes first, until the user
    // uses the other.
    let points = perfectSwipe("helo", on: d)
    #expect(SwipeDecoder(dictionary: d).decode(points).words.first?.word == "hello")
    d.userWords = try makeUserWords { store in
      for _ in 0..<8 { _ = try store.learn("helo") }
    }
    #expect(SwipeDecoder(dictionary: d).decode(points).words.first?.word == "helo")
  }
}
