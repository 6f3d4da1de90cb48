import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

@testable import SwipeDecoder
@testable import SwipeDict

/// A small dictionary on `layout` from words and counts.
private func dictionary(_ entries: [(String, Double)], layout: String = "qwerty-en") throws -> SwipeDictionary {
  try SwipeDictionary(
    bytes: DictionaryCompiler.compile(
      words: entries.map { (word: $0.0, count: $0.1) }, layout: repositoryLayout(layout)
    ).bytes)
}

@Suite("Several languages at once")
struct MultilingualTests {
  static let english: [(String, Double)] = [
    ("the", 5e7), ("house", 2e5), ("hand", 3e5), ("and", 2e7), ("haus", 10), ("word", 1e5), ("help", 2e5),
  ]
  static let german: [(String, Double)] = [
    ("der", 4e7), ("Haus", 5e5), ("Hand", 2e5), ("und", 3e7), ("Wort", 1e5), ("Hilfe", 1e5), ("die", 4e7),
  ]

  static func both(germanWeight: Double = 1) throws -> MultilingualDictionary {
    try MultilingualDictionary([
      .init(language: "en", dictionary: dictionary(english)),
      .init(language: "de", dictionary: dictionary(german), weight: germanWeight),
    ])
  }

  @Test func wordsCarryTheirLanguage() throws {
    let both = try Self.both()
    #expect(both.lookUp("Haus").map(\.language) == [1])
    #expect(both.lookUp("haus").map(\.language) == [0])
    #expect(both.lookUp("zzz").isEmpty)
    let completions = both.completions(prefix: "ha", limit: 10)
    #expect(completions.map(\.suggestion.word) == ["Haus", "hand", "Hand", "haus"])
    #expect(completions.map(\.language) == [1, 0, 1, 0])
    // A weight below 1 lowers a language: German's Haus (5e5 × 0.1) after English hand (3e5).
    let weighted = try Self.both(germanWeight: 0.1).completions(prefix: "ha", limit: 2)
    #expect(weighted.map(\.suggestion.word) == ["hand", "Haus"])
    let corrections = both.corrections(for: "hilfw", limit: 3)
    #expect(corrections.first?.suggestion.word == "Hilfe" && corrections.first?.language == 1)
  }

  @Test func aWordInBothLanguagesIsSuggestedOnce() throws {
    let both = try MultilingualDictionary([
      .init(language: "en", dictionary: dictionary([("die", 1e5), ("dig", 1e4)])),
      .init(language: "de", dictionary: dictionary([("die", 4e7), ("dir", 1e6)])),
    ])
    let completions = both.completions(prefix: "di", limit: 10)
    #expect(completions.map(\.suggestion.word) == ["die", "dir", "dig"])
    #expect(completions.first?.language == 1)  // German's count is higher
  }

  @Test func languagesMustShareALayoutAndHaveSaneWeights() throws {
    let en = try dictionary(Self.english)
    let de = try dictionary(Self.german, layout: "qwertz-de")
    #expect(
      throws: MultilingualDictionary.Error.layoutMismatch(language: "de", layout: "qwertz-de", expected: "qwerty-en")
    ) {
      try MultilingualDictionary([.init(language: "en", dictionary: en), .init(language: "de", dictionary: de)])
    }
    #expect(throws: MultilingualDictionary.Error.empty) { try MultilingualDictionary([]) }
    for weight in [0, -1, .infinity, .nan] {
      #expect(throws: MultilingualDictionary.Error.self) {
        try MultilingualDictionary([.init(language: "en", dictionary: en, weight: weight)])
      }
    }
    #expect(throws: MultilingualDictionary.Error.duplicateLanguage("en")) {
      try MultilingualDictionary([.init(language: "en", dictionary: en), .init(language: "en", dictionary: en)])
    }
  }

  @Test func aSwipeFindsItsWordInEitherLanguage() throws {
    let both = try Self.both()
    let decoder = MultilingualDecoder(dictionary: both)
    let en = both.members[0].dictionary
    for (word, language) in [("word", 0), ("Wort", 1), ("help", 0), ("Hilfe", 1), ("the", 0), ("und", 1)] {
      let result = decoder.decode(perfectSwipe(word, on: en))
      let first = try #require(result.words.first, "\(word)")
      #expect(first.word == word && first.language == language, "\(word): \(result.words.map(\.word))")
      #expect(result.words.count <= 4 && result.decodings.count == 2)
    }
  }

  @Test func oneLanguageDecodesAsTheSingleDecoder() throws {
    let en = try dictionary(Self.english + [("hose", 1e4), ("horse", 2e4), ("hold", 1e5)])
    let single = SwipeDecoder(dictionary: en)
    let multi = MultilingualDecoder(dictionary: try MultilingualDictionary([.init(language: "en", dictionary: en)]))
    for word in ["house", "hand", "help", "hold", "the"] {
      let points = perfectSwipe(word, on: en)
      #expect(multi.decode(points).words.map(\.word) == single.decode(points).words.map(\.word), "\(word)")
    }
  }

  @Test func theLanguageWeightMovesTheRanking() throws {
    // Same key path: "haus" (English, rare) and "Haus" (German, frequent) are one place, in
    // the form of the better-weighted language.
    let en = try dictionary(Self.english)
    let points = perfectSwipe("haus", on: en)
    let even = MultilingualDecoder(dictionary: try Self.both())
    #expect(even.decode(points).words.first?.word == "Haus")
    let englishFirst = MultilingualDecoder(dictionary: try Self.both(germanWeight: 1e-6))
    #expect(englishFirst.decode(points).words.first?.word == "haus")
  }

  @Test("one multilingual decoder shared by four tasks, a session each, gives the one-task answers")
  func multilingualSharedBetweenThreads() async throws {
    let decoder = MultilingualDecoder(dictionary: try Self.both())
    let en = decoder.dictionary.members[0].dictionary
    let swipes = ["word", "Wort", "help", "Hilfe", "the", "und", "house", "Haus"].map { perfectSwipe($0, on: en) }
    let expected = swipes.map { decoder.decode($0) }
    let results = await withTaskGroup(of: [MultilingualDecoding].self) { group in
      for _ in 0..<4 {
        group.addTask {
          var session = decoder.makeSession()
          return swipes.map { points in
            for point in points { session.add(point) }
            return session.end()
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 4)
    for result in results { #expect(result == expected) }
  }

  @Test("a deadline is shared by the languages; the options are the caller's")
  func aDeadlineIsShared() throws {
    let decoder = MultilingualDecoder(dictionary: try Self.both())
    let points = perfectSwipe("Wort", on: decoder.dictionary.members[0].dictionary)
    var session = decoder.makeSession()
    for point in points { session.add(point) }
    let result = session.end(deadline: .now + .seconds(5))
    #expect(result.words.first?.word == "Wort" && result.isComplete)
    #expect(result.decodings.count == 2)
    #expect(decoder.options.resultCount == 4)  // the caller's, not each language's pool
    // A deadline already past: every language stops at once, nothing traps.
    for point in points { session.add(point) }
    _ = session.end(deadline: .now - .seconds(1))
  }

  @Test func aSessionFedPointByPointGivesTheWholeDecoding() throws {
    let decoder = MultilingualDecoder(dictionary: try Self.both())
    let points = perfectSwipe("Wort", on: decoder.dictionary.members[0].dictionary)
    var session = decoder.makeSession()
    for point in points { session.add(point) }
    #expect(session.count == points.count)
    let result = session.end()
    #expect(result == decoder.decode(points))
    #expect(session.count == 0)  // ready for the next swipe
    #expect(session.end().words.isEmpty)
  }
}

@Suite("Several languages with the previous word and the user's words")
struct MultilingualContextTests {
  /// English with word pairs (ContextDecodingTests' "in"/"on" words) and German without.
  static func both() throws -> MultilingualDictionary {
    try MultilingualDictionary([
      .init(language: "en", dictionary: ContextDecodingTests.dictionary()),
      .init(language: "de", dictionary: dictionary(MultilingualTests.german)),
    ])
  }

  @Test func thePreviousWordReachesEveryQueryOfItsLanguage() throws {
    let both = try Self.both()
    let en = both.members[0].dictionary
    let depends = both.context(after: "depends")
    #expect(!depends.context(of: 0).isEmpty && depends.context(of: 1).isEmpty && !depends.isEmpty)
    #expect(both.context(after: "Haus").isEmpty)  // no language lists its followers
    // The decoder: "in" without a context, "on" after "depends", as on English alone.
    let decoder = MultilingualDecoder(dictionary: both)
    let points = ContextDecodingTests.ambiguous(en)
    #expect(decoder.decode(points).words.first?.word == "in")
    #expect(decoder.decode(points, context: depends).words.first?.word == "on")
    #expect(decoder.decode(points, context: both.context(after: "live")).words.first?.word == "in")
    var session = decoder.makeSession()
    for point in points { session.add(point) }
    #expect(session.end(context: depends).words.first.map { ($0.word, $0.language) } ?? ("", -1) == ("on", 0))
    // Completion and correction rank by the count in context, as English alone does.
    #expect(both.completions(prefix: "o").first?.suggestion.word == "of")
    #expect(both.completions(prefix: "o", context: depends).first?.suggestion.word == "on")
    let alone = try MultilingualDictionary([.init(language: "en", dictionary: en)])
    let single = en.corrections(for: "jn", context: en.context(after: "depends"), limit: 5)
    #expect(
      alone.corrections(for: "jn", context: alone.context(after: "depends"), limit: 5).map(\.suggestion.id)
        == single.map(\.id))
    #expect(single.map(\.id) != en.corrections(for: "jn", limit: 5).map(\.id))
  }

  @Test func oneLanguageWithAContextDecodesAsTheSingleDecoder() throws {
    let en = try ContextDecodingTests.dictionary()
    let single = SwipeDecoder(dictionary: en)
    let alone = try MultilingualDictionary([.init(language: "en", dictionary: en)])
    let multi = MultilingualDecoder(dictionary: alone)
    for previous in ["depends", "live", "kind", "zzz"] {
      let points = ContextDecodingTests.ambiguous(en)
      let expected = single.decode(points, context: en.context(after: previous))
      let found = multi.decode(points, context: alone.context(after: previous))
      #expect(found.words.map(\.candidate.id) == expected.words.map(\.id), "\(previous)")
      #expect(found.words.map(\.candidate.score) == expected.words.map(\.score), "\(previous)")
    }
  }

  @Test func aUsersWordThatOneLanguageHasIsThatLanguagesOnly() throws {
    let en = try dictionary([("the", 1e6), ("helm", 2), ("hello", 1e4)])
    let de = try dictionary([("der", 1e6), ("hallo", 1e4), ("held", 1e3)])
    var both = try MultilingualDictionary([
      .init(language: "de", dictionary: de), .init(language: "en", dictionary: en),
    ])
    both.userWords = try makeUserWords { store in
      _ = try store.learn("helm")
      _ = try store.add("Zorbing")
    }
    let helm = try #require(both.completions(prefix: "hel", limit: 5).first { $0.suggestion.word == "helm" })
    #expect(both.members[helm.language].language == "en")
    #expect(both.members[0].dictionary.userLayer.extras.map(\.word) == ["Zorbing"])
    #expect(both.members[1].dictionary.userLayer.extras.map(\.word) == ["Zorbing"])
    #expect(both.members[1].dictionary.personalFrequency(of: en.id(of: "helm")!)! > en.frequency(of: "helm")!)
  }

  @Test func theUsersWordsReachEveryLanguage() throws {
    var both = try Self.both()
    both.userWords = try makeUserWords { store in
      _ = try store.add("Zorbing")
      _ = try store.block("Haus")
    }
    #expect(both.members.allSatisfy { !$0.dictionary.userWords.isEmpty })
    #expect(both.userWords.sequence == both.members[1].dictionary.userWords.sequence)
    // An added word both languages lack: one suggestion.
    #expect(both.completions(prefix: "zor").map(\.suggestion.word) == ["Zorbing"])
    // Blocked in German, and its English form of another case too.
    let ha = both.completions(prefix: "ha", limit: 10).map(\.suggestion.word)
    #expect(!ha.contains("Haus") && !ha.contains("haus") && ha.contains("Hand"))
    #expect(both.corrections(for: "hsus", limit: 10).allSatisfy { $0.suggestion.word.lowercased() != "haus" })
    // The decoder swipes the added word and never offers the blocked one.
    let decoder = MultilingualDecoder(dictionary: both)
    let en = both.members[0].dictionary
    #expect(decoder.decode(perfectSwipe("zorbing", on: en)).words.first?.word == "Zorbing")
    #expect(decoder.decode(perfectSwipe("haus", on: en)).words.allSatisfy { $0.word.lowercased() != "haus" })
  }
}
