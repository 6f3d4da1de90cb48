import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

@testable import SwipeDecoder

/// Words marked possibly offensive: the decoder never offers them, unless the user added or
/// learned them (then they are the user's words), and never when the user blocked them.
@Suite("Decoding offensive words")
struct OffensiveDecodingTests {
  static func dictionary() throws -> SwipeDictionary {
    var fuck = WordListEntry(word: "fuck", count: 50_000, line: 1)
    fuck.marks = .possiblyOffensive
    let others = [("duck", 20_000.0), ("dick", 10), ("fickle", 50), ("the", 90_000), ("luck", 8_000)]
    let compiled = try DictionaryCompiler.compile(
      entries: [fuck] + others.map { WordListEntry(word: $0.0, count: $0.1, line: 2) },
      layout: repositoryLayout("qwerty-en"))
    return try SwipeDictionary(bytes: compiled.bytes, verify: true)
  }

  @Test func aLearnedOffensiveWordIsDecodedABlockedOneNever() throws {
    var d = try Self.dictionary()
    let points = perfectSwipe("fuck", on: d)
    #expect(!SwipeDecoder(dictionary: d).decode(points).words.map(\.word).contains("fuck"))
    #expect(!SwipeDecoder(dictionary: d).decode(perfectSwipe("duck", on: d)).words.map(\.word).contains("fuck"))
    d.userWords = try makeUserWords { _ = try $0.learn("fuck") }
    #expect(SwipeDecoder(dictionary: d).decode(points).words.first?.word == "fuck")
    var session = SwipeDecoder(dictionary: d).makeSession()
    for point in points { session.add(point) }
    #expect(session.end().words.first?.word == "fuck")
    d.userWords = try makeUserWords { _ = try $0.block("fuck") }
    #expect(!SwipeDecoder(dictionary: d).decode(points).words.map(\.word).contains("fuck"))
    var blocked = SwipeDecoder(dictionary: d).makeSession()
    for point in points { blocked.add(point) }
    #expect(!blocked.end().words.map(\.word).contains("fuck"))
  }
}
