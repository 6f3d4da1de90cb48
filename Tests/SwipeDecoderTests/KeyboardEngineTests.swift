import Foundation
import SwipeDictCompiler
import SwipeDictTestSupport
import SwipeDictTools
import Testing

@testable import SwipeDecoder
@testable import SwipeDict

/// The view mapping and the touch trace: what a keyboard's touches become before the decoder.
@Suite("Keyboard view mapping and touch trace")
struct TouchTraceTests {
  let layout = repositoryLayout("qwerty-en")  // keys 0…375 × 0…162 pt, key width 37.5

  @Test("a key area of any size and place maps onto the layout and back")
  func mappingRoundTrips() throws {
    let iPad = try #require(
      KeyboardViewMapping(layout: layout, keyArea: ViewRect(x: 10, y: 300, width: 1024, height: 240)))
    #expect(iPad.layoutPoint(for: ViewPoint(x: 10, y: 300)) == LayoutPoint(x: 0, y: 0))
    #expect(iPad.layoutPoint(for: ViewPoint(x: 1034, y: 540)) == LayoutPoint(x: 375, y: 162))
    #expect(iPad.layoutPoint(for: ViewPoint(x: 522, y: 420)) == LayoutPoint(x: 187.5, y: 81))
    for point in [LayoutPoint(x: 18.75, y: 27), LayoutPoint(x: 337.5, y: 81), LayoutPoint(x: -20, y: 200)] {
      let back = iPad.layoutPoint(for: iPad.viewPoint(for: point))
      #expect(abs(back.x - point.x) < 1e-4 && abs(back.y - point.y) < 1e-4)
    }
    // In the layout's own units the mapping is the identity.
    let identity = try #require(KeyboardViewMapping(layout: layout))
    #expect(identity.layoutPoint(for: ViewPoint(x: 123.5, y: -4)) == LayoutPoint(x: 123.5, y: -4))
    // Off the keys: clamped onto their edges.
    #expect(identity.clamped(LayoutPoint(x: -10, y: 400)) == LayoutPoint(x: 0, y: 162))
    #expect(identity.clamped(LayoutPoint(x: 100, y: 50)) == LayoutPoint(x: 100, y: 50))
  }

  @Test("no mapping of an empty, negative or non-finite area")
  func invalidAreas() {
    for area in [
      ViewRect(x: 0, y: 0, width: 0, height: 100), ViewRect(x: 0, y: 0, width: 100, height: -1),
      ViewRect(x: .nan, y: 0, width: 100, height: 100), ViewRect(x: 0, y: 0, width: .infinity, height: 100),
      ViewRect(x: 0, y: 0, width: .greatestFiniteMagnitude, height: 100),
    ] {
      #expect(KeyboardViewMapping(layout: layout, keyArea: area) == nil, "\(area)")
    }
  }

  /// Feeds view points through a trace; returns the points the decoder gets.
  func traced(_ points: [ViewPoint], times: [Double]? = nil) -> (points: [SwipePoint], trace: TouchTrace) {
    var trace = TouchTrace(mapping: KeyboardViewMapping(layout: layout)!)
    var out: [SwipePoint] = []
    for (i, point) in points.enumerated() { out += trace.add(point, time: times?[i]) }
    out += trace.finish()
    return (out, trace)
  }

  @Test("an isolated stray point is dropped, at the start, in the middle and at the end")
  func strayPointsAreDropped() {
    let line = (0..<10).map { ViewPoint(x: 40 + Double($0) * 20, y: 80) }
    let stray = ViewPoint(x: 1000, y: 1000)
    let clean = traced(line).points
    #expect(clean.count == 10)
    for at in [0, 5, 10] {
      var points = line
      points.insert(stray, at: at)
      let (out, trace) = traced(points)
      #expect(out == clean, "stray at \(at)")
      #expect(trace.droppedCount == 1 && trace.count == 10)
    }
  }

  @Test("a jump followed by points near it is the path moving: kept, and clamped onto the keys")
  func realJumpsAreKept() {
    // 5 key widths in one sample, then on from there; the last two points leave the keys.
    let points = [
      ViewPoint(x: 20, y: 30), ViewPoint(x: 40, y: 30), ViewPoint(x: 227.5, y: 30),
      ViewPoint(x: 250, y: 40), ViewPoint(x: 270, y: -10), ViewPoint(x: 290, y: -30),
    ]
    let out = traced(points).points
    #expect(out.count == 6)
    #expect(out[2] == SwipePoint(x: 227.5, y: 30))
    #expect(out[4] == SwipePoint(x: 270, y: 0) && out[5] == SwipePoint(x: 290, y: 0))
  }

  @Test("times become milliseconds since the first point, never decreasing; non-finite points are ignored")
  func timesAndNonFinitePoints() {
    let points = [
      ViewPoint(x: 20, y: 30), ViewPoint(x: 30, y: 30), ViewPoint(x: .nan, y: 30),
      ViewPoint(x: 40, y: 30), ViewPoint(x: 50, y: 30),
    ]
    let (out, _) = traced(points, times: [100.0, 100.016, 100.02, 100.012, 100.040])
    #expect(out.count == 4)
    #expect(out.map { ($0.time ?? -1).rounded() } == [0, 16, 16, 40])
  }

  @Test("a swipe hands at most maximumPointCount points to the decoder")
  func pointsAreBounded() {
    var trace = TouchTrace(mapping: KeyboardViewMapping(layout: layout)!)
    var handed = 0
    for i in 0..<(TouchTrace.maximumPointCount + 500) {
      handed += trace.add(ViewPoint(x: 20 + Double(i % 300), y: 80)).count
    }
    handed += trace.finish().count
    #expect(handed == TouchTrace.maximumPointCount)
  }
}

/// The engine: touches in view coordinates to words, the user's words everywhere at once.
@MainActor
@Suite("Keyboard engine")
struct KeyboardEngineTests {
  /// A small English dictionary.
  static func dictionary() throws -> SwipeDictionary {
    let words: [(word: String, count: Double)] = [
      ("hello", 9e5), ("help", 8e5), ("hell", 3e5), ("world", 7e5), ("word", 6e5), ("the", 5e7), ("new", 2e6),
      ("york", 3e5), ("year", 9e5), ("you", 3e7), ("duck", 1e5), ("luck", 2e5), ("jello", 1e3),
    ]
    let pairs: [(first: String, second: String, count: Double)] = [("new", "york", 5_000), ("new", "year", 3_000)]
    return try SwipeDictionary(
      bytes: DictionaryCompiler.compile(words: words, bigrams: pairs, layout: repositoryLayout("qwerty-en")).bytes)
  }

  static func engine(
    userDictionary: UserDictionary? = nil, deadline: Duration = .seconds(60)
  ) throws -> KeyboardEngine {
    var configuration = KeyboardEngine.Configuration()
    configuration.deadline = deadline
    return try KeyboardEngine(
      languages: [.init(name: "en", dictionary: dictionary())], userDictionary: userDictionary,
      configuration: configuration)
  }

  /// Swipes `points` (view coordinates) through the engine.
  static func swipe(_ points: [ViewPoint], on engine: KeyboardEngine) async -> KeyboardEngine.SwipeResult {
    guard let first = points.first else { return await engine.touchEnded() }
    engine.touchBegan(at: first)
    for point in points.dropFirst() { engine.touchMoved(to: point) }
    return await engine.touchEnded()
  }

  static func swipe(_ word: String, on engine: KeyboardEngine, dictionary: SwipeDictionary) async -> [String] {
    let points = perfectSwipe(word, on: dictionary).map { ViewPoint(x: Double($0.x), y: Double($0.y)) }
    return await swipe(points, on: engine).words.map(\.word)
  }

  @Test("a blocked word leaves swipes, completions and corrections at once; an added word joins them")
  func userWordsReachEveryQuery() async throws {
    let d = try Self.dictionary()
    let directory = TemporaryDirectory()
    let store = try UserDictionary(path: directory.path + "/user.words")
    let engine = try Self.engine(userDictionary: store)
    #expect(await Self.swipe("hello", on: engine, dictionary: d).first == "hello")
    #expect(engine.completions(for: "hel").map(\.word).contains("hello"))
    #expect(engine.corrections(for: "helo").map(\.word).contains("hello"))

    engine.block("hello")
    #expect(!(await Self.swipe("hello", on: engine, dictionary: d)).contains("hello"))
    #expect(!engine.completions(for: "hel", limit: 10).map(\.word).contains("hello"))
    #expect(!engine.corrections(for: "helo", limit: 10).map(\.word).contains("hello"))
    #expect(store.words.isBlocked("hello"))  // written, not only in memory

    // A word of the user's, of letters the blob has (a user word is corrected when they are).
    engine.add("rowdy")
    #expect(engine.completions(for: "row").map(\.word) == ["rowdy"])
    #expect(engine.corrections(for: "rowdu").map(\.word).first == "rowdy")
    #expect(await Self.swipe("rowdy", on: engine, dictionary: d).first == "rowdy")

    // The app unblocks it in its own process: refreshUserWords() brings it back.
    let app = try UserDictionary(path: store.path)
    try app.add("hello")
    #expect(engine.refreshUserWords())
    #expect(await Self.swipe("hello", on: engine, dictionary: d).first == "hello")
    #expect(engine.refreshUserWords() == false)
  }

  @Test("without a store the user's words live in memory, and still reach every query")
  func userWordsWithoutAStore() async throws {
    let d = try Self.dictionary()
    let engine = try Self.engine()
    engine.block("hello")
    #expect(!(await Self.swipe("hello", on: engine, dictionary: d)).contains("hello"))
    #expect(engine.userWords.isBlocked("hello"))
    engine.add("hello")
    #expect(await Self.swipe("hello", on: engine, dictionary: d).first == "hello")
  }

  @Test("a commit is learned and becomes the previous word; a retraction takes both back")
  func commitAndRetract() throws {
    let directory = TemporaryDirectory()
    let store = try UserDictionary(path: directory.path + "/user.words")
    let engine = try Self.engine(userDictionary: store)
    #expect(engine.nextWords().isEmpty)
    engine.commit("new")
    #expect(engine.previousWord == "new")
    #expect(store.words.entry(for: "new")?.uses == 1)
    #expect(engine.nextWords(limit: 2).map(\.word) == ["york", "year"])
    #expect(engine.completions(for: "y", limit: 1).map(\.word) == ["york"])  // "you" without the context
    engine.resetContext()
    #expect(engine.completions(for: "y", limit: 1).map(\.word) == ["you"])
    engine.commit("new")
    engine.commit("yorkk")  // a typo, taken back
    #expect(store.words.entry(for: "yorkk")?.uses == 1)
    engine.retract("yorkk")
    #expect(store.words.entry(for: "yorkk") == nil)
    #expect(engine.previousWord == "new")
    #expect(store.words.entry(for: "new")?.uses == 2)
  }

  @Test("a busy store keeps the changes in memory, in effect at once, and writes them when it can")
  func busyStoreKeepsChanges() async throws {
    let d = try Self.dictionary()
    let directory = TemporaryDirectory()
    let path = directory.path + "/user.words"
    let store = try UserDictionary(path: path, options: .init(lockTimeout: .milliseconds(20)))
    let engine = try Self.engine(userDictionary: store)
    let holder = open(path, O_RDWR | O_CLOEXEC)
    defer { close(holder) }
    #expect(flock(holder, LOCK_EX) == 0)
    engine.block("hello")
    #expect(engine.pendingChangeCount == 1)
    #expect(engine.lastStoreError?.reason == .busy)
    #expect(!(await Self.swipe("hello", on: engine, dictionary: d)).contains("hello"))
    #expect(!store.words.isBlocked("hello"))
    flock(holder, LOCK_UN)
    engine.commit("world")
    #expect(engine.pendingChangeCount == 0)
    #expect(engine.lastStoreError == nil)
    #expect(store.words.isBlocked("hello") && store.words.entry(for: "world")?.uses == 1)
  }

  @Test("limits: typed text past 128 characters is neither completed nor corrected; a zero deadline answers at once")
  func limits() async throws {
    let d = try Self.dictionary()
    let engine = try Self.engine(deadline: .zero)
    let long = String(repeating: "h", count: KeyboardEngine.maximumTypedLength + 1)
    #expect(engine.completions(for: long).isEmpty)
    #expect(engine.corrections(for: long).isEmpty)
    #expect(engine.completions(for: "").isEmpty)
    let points = perfectSwipe("hello", on: d).map { ViewPoint(x: Double($0.x), y: Double($0.y)) }
    let result = await Self.swipe(points, on: engine)
    #expect(!result.isComplete)  // the deadline passed before the matching began
    // A stuck touch: at most maximumPointCount points reach the decoder.
    let stuck = try Self.engine()
    stuck.touchBegan(at: ViewPoint(x: 100, y: 80))
    for i in 0..<(TouchTrace.maximumPointCount + 100) {
      stuck.touchMoved(to: ViewPoint(x: 100 + Double(i % 50), y: 80))
    }
    let bounded = await stuck.touchEnded()
    #expect(bounded.pointCount == TouchTrace.maximumPointCount && bounded.isTruncated)
  }

  @Test("a stray point and a finger that ends above the keys change nothing")
  func strayAndOffKeyboardPoints() async throws {
    let d = try Self.dictionary()
    let engine = try Self.engine()
    let hello = perfectSwipe("hello", on: d).map { ViewPoint(x: Double($0.x), y: Double($0.y)) }
    let plain = await Self.swipe(hello, on: engine).words.map(\.word)
    #expect(plain.first == "hello")
    var stray = hello
    stray.insert(ViewPoint(x: 1000, y: 1000), at: hello.count / 2)
    #expect(await Self.swipe(stray, on: engine).words.map(\.word) == plain)
    // The finger goes on 30 pt above the top row after "o".
    let o = try #require(hello.last)
    let above = hello + [ViewPoint(x: o.x, y: -3), ViewPoint(x: o.x, y: -30)]
    #expect(await Self.swipe(above, on: engine).words.first?.word == "hello")
  }

  /// Under ThreadSanitizer (`make tsan`): swipes whose decodings overlap (one ends off the main
  /// actor while the next begins and the user's words change), the sessions handed back and forth.
  @Test("overlapping swipes and user-word changes: each answer is its own swipe's (shared between threads)")
  func overlappingSwipesSharedBetweenThreads() async throws {
    let d = try Self.dictionary()
    let engine = try Self.engine()
    let words = ["hello", "world", "year", "help", "duck", "new"]
    var pending: [(String, Task<[String], Never>)] = []
    for round in 0..<40 {
      let word = words[round % words.count]
      let points = perfectSwipe(word, on: d).map { ViewPoint(x: Double($0.x), y: Double($0.y)) }
      engine.touchBegan(at: points[0])
      for point in points.dropFirst() { engine.touchMoved(to: point) }
      pending.append((word, Task { await engine.touchEnded().words.map(\.word) }))
      // Until the task has taken the swipe (its decoding then runs off the main actor).
      while engine.isSwiping { await Task.yield() }
      if round % 7 == 3 { engine.block("jello") }
      if round % 7 == 5 { engine.add("jello") }
    }
    for (word, task) in pending {
      let answer = await task.value
      #expect(answer.first == word, "\(word): \(answer)")
    }
  }

  @Test("swapping the languages is one call; the user's words carry over")
  func swappingLanguages() async throws {
    let engine = try Self.engine()
    engine.block("hello")
    let update = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(
        words: [("hello", 9e5), ("howdy", 8e5)], layout: repositoryLayout("qwerty-en")
      ).bytes)
    try engine.setLanguages([.init(name: "en", dictionary: update)])
    #expect(engine.completions(for: "h", limit: 5).map(\.word) == ["howdy"])
    let de = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(words: [("Haus", 5e5)], layout: repositoryLayout("qwertz-de")).bytes)
    #expect(throws: MultilingualDictionary.Error.self) {
      try engine.setLanguages([.init(name: "de", dictionary: de)])
    }
    #expect(engine.languages.map(\.name) == ["en"])
  }
}

/// The real dev swipes, when ../shared is there.
private let devSwipes = repositoryRoot.appendingPathComponent("../shared/swipes/hws-dev.jsonl").standardizedFileURL.path

@MainActor
@Suite("Keyboard engine on real swipes in real views")
struct KeyboardEngineViewTests {
  /// The views a keyboard shows qwerty-en's three letter rows in: @3x pixels, a landscape
  /// phone, an iPad, each offset in its view.
  static let views: [(name: String, area: ViewRect)] = [
    ("@3x pixels", ViewRect(x: 0, y: 24, width: 1125, height: 486)),
    ("landscape", ViewRect(x: 60, y: 10, width: 812, height: 150)),
    ("iPad", ViewRect(x: 8, y: 300, width: 1024, height: 240)),
  ]

  @Test(
    "the dev swipes mapped into pixel, landscape and iPad views decode exactly as in layout units",
    .enabled(
      if: FileManager.default.fileExists(atPath: devSwipes),
      "../shared/swipes/hws-dev.jsonl is absent: the real swipes are not in the repository"))
  func realSwipesInViews() async throws {
    let swipes = try SwipeFile.read(path: devSwipes)
    var configuration = KeyboardEngine.Configuration()
    configuration.deadline = .seconds(60)
    let engine = try KeyboardEngine(languages: [.init(name: "en", dictionary: english)], configuration: configuration)
    let identity = try #require(KeyboardViewMapping(layout: english.layout))
    var differing: [String] = []
    for swipe in swipes {
      let layoutPoints = swipe.points.map { LayoutPoint(x: $0.x, y: $0.y) }
      engine.keyArea = identity.keyArea
      let expected = await KeyboardEngineTests.swipe(
        layoutPoints.map { identity.viewPoint(for: $0) }, on: engine
      ).words.map(\.word)
      for view in Self.views {
        let mapping = try #require(KeyboardViewMapping(layout: english.layout, keyArea: view.area))
        engine.keyArea = view.area
        let words = await KeyboardEngineTests.swipe(layoutPoints.map { mapping.viewPoint(for: $0) }, on: engine)
          .words.map(\.word)
        if words != expected { differing.append("\(swipe.word ?? "?") in \(view.name): \(words) ≠ \(expected)") }
      }
    }
    #expect(differing.isEmpty, "\(differing.prefix(10))")
  }
}
