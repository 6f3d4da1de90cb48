import Foundation
import SwipeDict
import SwipeDictTestSupport
import Testing

@testable import SwipeDecoder

@Suite("The ranking model: location, shape and length channels")
struct RankingTests {
  /// An L-shaped path and the same path moved, shrunk and its points spread unevenly.
  let path: [(x: Float, y: Float)] = [(0, 0), (3, 0), (3, 2)]

  @Test("the shape channel ignores where a path is drawn and how large, not what it looks like")
  func shapeIsTranslationAndScaleFree() {
    let moved = path.map { (x: 0.7 * $0.x + 4.2, y: 0.7 * $0.y - 1.3) }
    // The same polyline with extra points along its first segment: resampling by length
    // makes them count no more than the rest.
    let uneven = [path[0], (x: 0.1, y: 0), (x: 0.2, y: 0), (x: 0.3, y: 0), path[1], path[2]]
    let reference = ShapeSample(path)
    #expect(reference.distance(to: ShapeSample(moved)) < 1e-5)
    #expect(reference.distance(to: ShapeSample(uneven)) < 1e-5)
    #expect(abs(reference.length - 5) < 1e-5)
    // Mirrored, it is another shape.
    let mirrored = path.map { (x: -$0.x, y: $0.y) }
    #expect(reference.distance(to: ShapeSample(mirrored)) > 0.2)
    // A point (a tap, a one-key word) has no extent: it is not blown up to size 1.
    let tap = ShapeSample([(x: 5, y: 1)])
    #expect(tap.length == 0 && tap.distance(to: ShapeSample([(x: 1, y: 1)])) == 0)
  }

  @Test("a swipe drawn smaller and off to one side keeps its word's shape")
  func smallerOffsetSwipe() throws {
    let d = english
    let perfect = perfectSwipe("keyboard", on: d)
    let cx = perfect.map(\.x).reduce(0, +) / Float(perfect.count)
    let cy = perfect.map(\.y).reduce(0, +) / Float(perfect.count)
    let shift = 0.3 * d.keyWidth
    let drawn = perfect.map { SwipePoint(x: cx + 0.85 * ($0.x - cx) + shift, y: cy + 0.85 * ($0.y - cy) + shift) }
    let result = SwipeDecoder(dictionary: d).decode(drawn)
    let word = try #require(result.words.first { $0.word == "keyboard" }, "\(result.words.map(\.word))")
    #expect(word.shapeDistance < 0.02, "\(word.shapeDistance)")
    // Swiped 0.85 times the perfect swipe's length (the filters' jitter-robust measure).
    #expect(abs(word.lengthRatio - log(0.85)) < 0.05, "\(word.lengthRatio)")
    #expect(word.distance > 0.05)
  }

  @Test("the score is the model's: ln(count) less each channel's weighted log, plus the length's")
  func scoreFollowsTheModel() throws {
    let d = english
    let decoder = SwipeDecoder(dictionary: d)
    let ranking = try #require(decoder.options.ranking)
    let result = decoder.decode(perfectSwipe("would", on: d))
    #expect(result.words.count == 4)
    for word in result.words {
      let logCount = Float(word.frequency) / 255 * Float(d.frequencyScale)
      let expected =
        logCount - ranking.locationWeight * log(word.distance + ranking.noiseFloor)
        - ranking.shapeWeight * log(word.shapeDistance + ranking.noiseFloor) + ranking.lengthWeight * word.lengthRatio
      #expect(abs(word.score - expected) < 1e-3, "\(word.word): \(word.score) against \(expected)")
      #expect(word.lengthRatio >= -1 && word.lengthRatio <= 1)
    }
    #expect(zip(result.words, result.words.dropFirst()).allSatisfy { $0.score >= $1.score })
  }

  @Test("without the model, the words are ranked by the search's linear score")
  func linearRanking() throws {
    let d = english
    var options = SwipeDecoder.Options()
    options.ranking = nil
    let result = SwipeDecoder(dictionary: d, options: options).decode(perfectSwipe("people", on: d))
    #expect(result.words.first?.word == "people")
    for word in result.words {
      let logCount = Float(word.frequency) / 255 * Float(d.frequencyScale)
      #expect(abs(word.score - (options.frequencyWeight * logCount - word.distance)) < 1e-5)
    }
    #expect(zip(result.words, result.words.dropFirst()).allSatisfy { $0.score >= $1.score })
  }
}
