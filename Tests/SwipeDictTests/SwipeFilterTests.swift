import Foundation
import SwipeDictCompiler
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import Testing

@testable import SwipeDict

@Suite("Swipe candidate filters")
struct SwipeFilterTests {
  /// The four filters evaluated word by word from `features(of:)`, with no tables or ranges.
  static func bruteForce(_ d: SwipeDictionary, _ filter: SwipeFilter) -> [Int] {
    let layout = d.layout
    let width = d.keyWidth
    return (0..<d.wordCount).filter { id in
      let f = d.features(of: id)!
      let first = d.keyCenters[f.firstKey]
      // A radius reaches at least half a key width past the nearest key center.
      func reach(_ radius: Float, _ point: LayoutPoint) -> Float {
        max(radius * width, d.keyCenters.map { $0.distance(to: point) }.min()! + width / 2)
      }
      guard first.distance(to: filter.start) <= reach(filter.startRadius, filter.start) else { return false }
      if let measured = filter.startDirection, let second = f.secondKey,
        !layout.neighbors(of: f.firstKey).contains(second), f.expectedLength / width >= filter.directionMinimumLength
      {
        var delta = abs(first.direction(to: d.keyCenters[second]) - measured)
        if delta > .pi { delta = 2 * .pi - delta }
        if delta > filter.directionTolerance { return false }
      }
      if let end = filter.end, f.lastPoint.distance(to: end) > reach(filter.endRadius, end) { return false }
      if let length = filter.length {
        let expected = f.expectedLength / width
        let swiped = length / width
        let ratio =
          expected >= filter.lengthRatio.lowerBound * swiped && expected <= filter.lengthRatio.upperBound * swiped
        if !ratio && abs(expected - swiped) > filter.lengthSlack { return false }
      }
      return true
    }
  }

  @Test(
    "candidates equal a word-by-word evaluation of the four filters (narrow and 32-bit records)",
    arguments: [(UInt64(1), false), (2, false), (3, false), (4, true)])
  func matchesBruteForce(seed: UInt64, digits: Bool) throws {
    let layout = digits ? testLayoutWithDigits() : testLayout()
    let (d, _) = try openDictionary(randomWords(count: 4000, seed: seed), layout: layout, verify: false)
    #expect(d.featureView?.isNarrow == !digits)
    var generator = SeededGenerator(state: seed)
    for trial in 0..<60 {
      func point() -> LayoutPoint {
        LayoutPoint(x: Float.random(in: -5...105, using: &generator), y: Float.random(in: -5...45, using: &generator))
      }
      var filter = SwipeFilter(
        start: point(),
        startDirection: trial % 4 == 0 ? nil : Float.random(in: -.pi...(.pi), using: &generator),
        end: trial % 5 == 0 ? nil : point(),
        length: trial % 3 == 0 ? nil : Float.random(in: 0...200, using: &generator))
      filter.startRadius = Float.random(in: 0.5...2, using: &generator)
      filter.endRadius = Float.random(in: 0.5...2.5, using: &generator)
      filter.directionTolerance = Float.random(in: 0.2...1.2, using: &generator)
      filter.lengthSlack = Float.random(in: 0...3, using: &generator)
      // Half the trials exempt the words shorter than a few key widths from the direction.
      filter.directionMinimumLength = trial % 2 == 0 ? 0 : Float.random(in: 0...8, using: &generator)
      let candidates = d.candidates(for: filter)
      #expect(candidates == Self.bruteForce(d, filter), "trial \(trial)")
      // The per-word report agrees with the scan, word by word.
      let reported = (0..<d.wordCount).filter { d.filterReport(for: $0, filter: filter)?.passes == true }
      #expect(reported == candidates, "trial \(trial): filterReport")
      let test = d.makeCandidateTest(for: filter)
      #expect((0..<d.wordCount).filter(test.accepts) == candidates, "trial \(trial): makeCandidateTest")
      #expect(!test.accepts(-1) && !test.accepts(d.wordCount) && !test.accepts(.max))
    }
  }

  @Test("narrowing a list of IDs keeps exactly the IDs the full filter keeps", arguments: [UInt64(4), 5])
  func narrowingMatchesTheFullFilter(seed: UInt64) throws {
    let (d, _) = try openDictionary(randomWords(count: 3000, seed: seed), verify: false)
    var generator = SeededGenerator(state: seed)
    for trial in 0..<40 {
      func point() -> LayoutPoint {
        LayoutPoint(x: Float.random(in: 0...100, using: &generator), y: Float.random(in: 0...40, using: &generator))
      }
      let start = SwipeFilter(start: point(), startDirection: Float.random(in: -.pi...(.pi), using: &generator))
      var full = start
      full.end = point()
      full.length = Float.random(in: 0...150, using: &generator)
      let early = d.candidates(for: start)
      #expect(d.candidates(for: full, among: early) == d.candidates(for: full), "trial \(trial)")
      // Any list: the order is kept and non-words are dropped.
      let mixed = [d.wordCount, -1] + (0..<d.wordCount).reversed()
      #expect(d.candidates(for: full, among: mixed) == d.candidates(for: full).reversed(), "trial \(trial)")
    }
  }

  @Test("a scan run in pieces finds what the whole scan finds")
  func scanInPieces() throws {
    let (d, _) = try openDictionary(randomWords(count: 3000, seed: 8), verify: false)
    var generator = SeededGenerator(state: 8)
    for piece in [1, 7, 100, 1000] {
      let filter = SwipeFilter(
        start: LayoutPoint(
          x: Float.random(in: 0...100, using: &generator), y: Float.random(in: 0...40, using: &generator)),
        startDirection: Float.random(in: -.pi...(.pi), using: &generator))
      var scan = d.makeCandidateScan(for: filter)
      let total = scan.remaining
      var found: [Int] = []
      var steps = 0
      while !scan.isFinished {
        scan.advance(by: piece, into: &found)
        steps += 1
      }
      #expect(found == d.candidates(for: filter), "pieces of \(piece)")
      #expect(steps == (total + piece - 1) / piece && scan.remaining == 0)
    }
    // A start far off the keyboard still reaches the nearest keys (half a key width past
    // the nearest center): a corner key's words, nothing from the middle of the keyboard.
    let corner = LayoutPoint(x: -500, y: -500)
    let nearest = d.keyCenters.indices.min {
      d.keyCenters[$0].distance(to: corner) < d.keyCenters[$1].distance(to: corner)
    }!
    let far = d.candidates(for: SwipeFilter(start: corner))
    let startingThere = (0..<d.wordCount).filter { d.features(of: $0)!.firstKey == nearest }
    #expect(far == startingThere)
  }

  @Test("a swipe along a word's key centers keeps the word, and most of the dictionary goes")
  func perfectSwipesSurvive() throws {
    let words = randomWords(count: 4000, seed: 21).filter { $0.unicodeScalars.count > 1 }
    let (d, _) = try openDictionary(words, verify: false)
    let layout = d.layout
    var kept = 0
    for word in words.prefix(400) {
      let path = layout.keyPath(for: word)!.map { d.keyCenters[$0] }
      let filter = SwipeFilter(path: path, keyWidth: d.keyWidth)
      let candidates = d.candidates(for: filter)
      #expect(candidates.contains(d.id(of: word)!), "\(word)")
      kept += candidates.count
    }
    #expect(kept / 400 < d.wordCount / 5)
  }

  @Test("measuring a path: start, direction one key width along, end, length")
  func measuredPath() {
    let path = [LayoutPoint(x: 0, y: 0), LayoutPoint(x: 6, y: 0), LayoutPoint(x: 12, y: 0), LayoutPoint(x: 12, y: 20)]
    let filter = SwipeFilter(path: path, keyWidth: 10)
    #expect(filter.start == path[0] && filter.end == path[3])
    #expect(filter.length == 32)
    #expect(filter.startDirection == 0)
    let tap = SwipeFilter(path: [LayoutPoint(x: 3, y: 3), LayoutPoint(x: 4, y: 3)], keyWidth: 10)
    #expect(tap.startDirection == nil)
  }

  @Test("measuring point by point: jitter adds no length; a tap has no direction")
  func measurementIgnoresJitter() {
    // A straight 60-point run of 40 units (4 key widths) with ±0.6 units of zigzag: the raw
    // polyline is over 70 units long, the measured length stays within 2 % of 40.
    var measurement = SwipeFilterMeasurement(keyWidth: 10)
    var path: [LayoutPoint] = []
    for i in 0...60 {
      let point = LayoutPoint(x: Float(i) * 40 / 60, y: i % 2 == 0 ? 0.6 : -0.6)
      path.append(point)
      measurement.add(point)
      // The direction appears once the counted length reaches a key width, not before.
      #expect((measurement.startDirection != nil) == (Float(i) * 40 / 60 >= 10.5), "point \(i)")
    }
    let raw = zip(path, path.dropFirst()).reduce(Float(0)) { $0 + $1.0.distance(to: $1.1) }
    #expect(raw > 70)
    #expect(abs(measurement.length - 40) < 0.8)
    #expect(abs(measurement.startDirection ?? 9) < 0.1)
    #expect(measurement.count == 61 && measurement.start == path[0] && measurement.end == path[60])
    // The filter measured from the path at once is the same.
    let template = SwipeFilter(start: LayoutPoint(x: 0, y: 0))
    #expect(SwipeFilter(path: path, keyWidth: 10) == measurement.filter(template))
    // Non-finite points are ignored; a tap's direction is off.
    var tap = SwipeFilterMeasurement(keyWidth: 10)
    for point in [LayoutPoint(x: 5, y: 5), LayoutPoint(x: .nan, y: 0), LayoutPoint(x: 6, y: 5)] { tap.add(point) }
    #expect(tap.count == 2 && tap.length == 1)
    #expect(tap.filter(template).startDirection == nil && tap.filter(template).length == 1)
    // An empty measurement leaves the template as it is.
    #expect(SwipeFilterMeasurement(keyWidth: 10).filter(template) == template)
  }

  @Test("a format 1.0 blob (no FEAT, no PTRE) opens and its swipe queries answer empty")
  func blobWithoutSwipeSections() throws {
    let (full, blob) = try openDictionary(randomWords(count: 500, seed: 3), verify: false)
    let d = try SwipeDictionary(
      bytes: removingSections([.features, .prefixTree, .bestLists], from: blob), verify: true)
    #expect(d.wordCount == full.wordCount)
    #expect(d.features(of: 0) == nil)
    #expect(d.candidates(for: SwipeFilter(start: d.keyCenters[0])).isEmpty)
    #expect(d.completions(prefix: "a", limit: 5).map(\.id) == full.completions(prefix: "a", limit: 5).map(\.id))
    #expect(d.corrections(for: "abc", model: .kaennsch()).isEmpty && d.topWords().isEmpty)
    // The typing corrector reads only the automaton and the frequencies: the same answers.
    #expect(d.corrections(for: "abc") == full.corrections(for: "abc"))
  }
}
