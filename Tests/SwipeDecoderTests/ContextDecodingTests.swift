import SwipeDict
import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

@testable import SwipeDecoder

@Suite("Decoding with the previous word")
struct ContextDecodingTests {
  /// "in" and "on", with pairs that favour one or the other, and other words around.
  static func dictionary() throws -> SwipeDictionary {
    let words: [(word: String, count: Double)] = [
      ("in", 5_000), ("on", 3_000), ("depends", 40), ("live", 200), ("I", 4_000), ("om", 20), ("inn", 30),
      ("un", 10), ("ion", 40), ("kind", 300), ("of", 6_000), ("if", 1_500),
    ]
    let pairs: [(first: String, second: String, count: Double)] = [
      ("depends", "on", 900), ("depends", "in", 20), ("live", "in", 700), ("live", "on", 200),
      ("kind", "of", 2_000), ("I", "live", 100),
    ]
    let result = try DictionaryCompiler.compile(words: words, bigrams: pairs, layout: repositoryLayout("qwerty-en"))
    return try SwipeDictionary(bytes: result.bytes, verify: true)
  }

  /// A swipe from between "i" and "o" to "n": as close to "in" as to "on".
  static func ambiguous(_ d: SwipeDictionary) -> [SwipePoint] {
    let i = d.keyCenters[d.layout.keyPath(for: "i")![0]]
    let o = d.keyCenters[d.layout.keyPath(for: "o")![0]]
    let n = d.keyCenters[d.layout.keyPath(for: "n")![0]]
    let start = SwipePoint(x: (i.x + o.x) / 2, y: (i.y + o.y) / 2)
    return (0...12).map { k in
      let t = Float(k) / 12
      return SwipePoint(x: start.x + t * (n.x - start.x), y: start.y + t * (n.y - start.y))
    }
  }

  @Test func thePreviousWordDecidesBetweenInAndOn() throws {
    let d = try Self.dictionary()
    let decoder = SwipeDecoder(dictionary: d)
    let points = Self.ambiguous(d)
    #expect(decoder.decode(points).words.first?.word == "in")
    #expect(decoder.decode(points, context: d.context(after: "depends")).words.first?.word == "on")
    #expect(decoder.decode(points, context: d.context(after: "live")).words.first?.word == "in")
    // A session takes it at the lift.
    var session = decoder.makeSession()
    for point in points { session.add(point) }
    #expect(session.end(context: d.context(after: "depends")).words.first?.word == "on")
  }

  @Test func noContextAndAZeroWeightChangeNothing() throws {
    let d = try Self.dictionary()
    let decoder = SwipeDecoder(dictionary: d)
    var options = SwipeDecoder.Options()
    options.contextWeight = 0
    let ignoring = SwipeDecoder(dictionary: d, options: options)
    options.contextWeight = .nan
    let nan = SwipeDecoder(dictionary: d, options: options)
    for word in ["in", "on", "live", "kind", "of"] {
      let points = perfectSwipe(word, on: d)
      let plain = decoder.decode(points)
      #expect(decoder.decode(points, context: .empty) == plain)
      #expect(ignoring.decode(points, context: d.context(after: "depends")) == plain)
      #expect(nan.decode(points, context: d.context(after: "depends")) == plain)
      // A clean swipe keeps its word first whatever the previous word.
      #expect(decoder.decode(points, context: d.context(after: "depends")).words.first?.word == word)
    }
  }

  @Test func explanationsUseTheContext() throws {
    let d = try Self.dictionary()
    let decoder = SwipeDecoder(dictionary: d)
    let points = Self.ambiguous(d)
    let context = d.context(after: "depends")
    let explained = decoder.explain(points, word: "on", context: context)
    #expect(explained.decoding == decoder.decode(points, context: context))
    #expect(explained.forms.first?.verdict == .shown(place: 1))
    #expect(explained.forms.first?.rank == 1)
    #expect(decoder.explain(points, word: "on").forms.first?.rank == 2)
  }
}
