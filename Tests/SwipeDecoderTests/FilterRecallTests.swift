import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictTestSupport
import SwipeDictTools
import Testing

@testable import SwipeDecoder

@Suite("Swipe filters on synthetic swipes")
struct FilterRecallTests {
  @Test(
    "the true word survives the four filters on human-like swipes",
    arguments: [(WordSampler.Weighting.frequency, 0.25), (.uniform, 0.25), (.frequency, 0.4), (.uniform, 0.4)])
  func recall(weighting: WordSampler.Weighting, noise: Double) throws {
    let d = english
    let ids = WordSampler(dictionary: d, weighting: weighting).sample(500, seed: 3)
    let swipes = try SwipeSynthesizer(layout: d.layout, noise: noise)
      .swipes(for: ids.map { d.word(for: $0)! }, seed: 4)
    var kept = 0
    var candidates = 0
    for (swipe, id) in zip(swipes, ids) {
      let filter = SwipeFilter(path: swipe.points.map { LayoutPoint(x: $0.x, y: $0.y) }, keyWidth: d.keyWidth)
      let survivors = d.candidates(for: filter)
      candidates += survivors.count
      if survivors.contains(id) { kept += 1 }
    }
    // Recall of 99 % or better, while the filters keep a small share of the dictionary.
    #expect(kept >= 495, "\(kept) of 500 kept")
    #expect(candidates / 500 < d.wordCount / 10, "\(candidates / 500) candidates per swipe")
  }
}
