import SwipeDict
import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

@testable import SwipeDecoder

@Suite("Session progress")
struct SessionProgressTests {
  private static let words: [(word: String, count: Double)] = [
    ("hello", 5000), ("hell", 3000), ("jello", 200), ("help", 4000), ("gel", 100), ("world", 2000),
    ("hold", 900), ("held", 800), ("yellow", 700), ("bell", 600), ("he", 9000), ("hero", 300),
  ]

  private func decoder() throws -> SwipeDecoder {
    let bytes = try DictionaryCompiler.compile(words: Self.words, layout: repositoryLayout("qwerty-en")).bytes
    return SwipeDecoder(dictionary: try SwipeDictionary(bytes: bytes))
  }

  @Test("before the direction is known there is no start count; after, it is the start filters' count")
  func startCandidatesFollowTheStartFilters() throws {
    let decoder = try decoder()
    let d = decoder.dictionary
    let points = perfectSwipe("hello", on: d)
    var session = decoder.makeSession()
    #expect(session.filter == nil)
    #expect(
      session.progress
        == SwipeProgress(pointCount: 0, reducedPoints: [], startCandidates: nil, isStartScanFinished: false))
    session.add(points[0])
    #expect(session.progress.startCandidates == nil)
    #expect(session.progress.reducedPoints == [SwipePoint(x: points[0].x, y: points[0].y)])
    for point in points.dropFirst() { session.add(point) }
    let progress = session.progress
    let filter = try #require(session.filter)
    #expect(
      filter
        == SwipeFilter(path: points.map { LayoutPoint(x: $0.x, y: $0.y) }, keyWidth: d.keyWidth).withTolerances(
          of: decoder.options.filter))
    var start = filter
    start.end = nil
    start.length = nil
    let expected = d.candidates(for: start).count
    #expect(expected > 0 && expected < d.wordCount)
    #expect(progress.isStartScanFinished)
    #expect(progress.startCandidates == expected)
    #expect(progress.pointCount == points.count)
    // The reduced points are the ones the matching uses, in layout units.
    let decoding = session.end()
    #expect(progress.reducedPoints.count == decoding.reducedPointCount)
    #expect(progress.reducedPoints.first == SwipePoint(x: points[0].x, y: points[0].y))
    let last = try #require(points.last)
    let reducedLast = try #require(progress.reducedPoints.last)
    #expect(abs(reducedLast.x - last.x) < 0.01 && abs(reducedLast.y - last.y) < 0.01)
    #expect(decoding.words.map(\.word).prefix(4).contains("hello"))
    // After the lift the session is empty again.
    #expect(session.progress.pointCount == 0)
    #expect(session.filter == nil)
  }
}

extension SwipeFilter {
  /// This filter's measurements with `template`'s tolerances.
  fileprivate func withTolerances(of template: SwipeFilter) -> SwipeFilter {
    var filter = template
    filter.start = start
    filter.startDirection = startDirection
    filter.end = end
    filter.length = length
    return filter
  }
}
