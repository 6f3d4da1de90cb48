import Foundation
import SwipeDecoder
import SwipeDict
import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

@testable import SwipeDictTools

/// The repository's English layout (corpora/layouts/qwerty-en.json, 37.5 pt keys).
private let qwerty = repositoryLayout("qwerty-en")

private let words = [
  "hello", "the", "quickly", "was", "keyboard", "pap", "typewriter", "zap", "of",
]

private func distance(_ a: SwipePoint, _ x: Float, _ y: Float) -> Float {
  ((a.x - x) * (a.x - x) + (a.y - y) * (a.y - y)).squareRoot()
}

/// The distance from (x, y) to the segment from `a` to `b`.
private func distance(_ x: Float, _ y: Float, toSegment a: SwipePoint, _ b: SwipePoint) -> Float {
  let dx = b.x - a.x
  let dy = b.y - a.y
  let squared = dx * dx + dy * dy
  let t = squared > 0 ? min(1, max(0, ((x - a.x) * dx + (y - a.y) * dy) / squared)) : 0
  return distance(SwipePoint(x: a.x + t * dx, y: a.y + t * dy), x, y)
}

/// Whether the polyline through `points` passes within `tolerance` of each key of the
/// word's key path, in the path's order; returns the first key it misses.
private func firstMissedKey(
  _ points: [SwipePoint], word: String, within tolerance: Float
) -> Character? {
  let path = qwerty.keyPath(for: word) ?? []
  var segment = 0
  for index in path {
    let key = qwerty.keys[index]
    let segments = zip(points, points.dropFirst()).enumerated().dropFirst(segment)
    guard
      let hit = segments.first(where: {
        distance(key.x, key.y, toSegment: $0.1.0, $0.1.1) <= tolerance
      })
    else { return Character(key.character) }
    segment = hit.0
  }
  return nil
}

@Suite struct SynthesizerTests {
  let synthesizer = SwipeSynthesizer(layout: qwerty)
  let unit = qwerty.keyWidth

  @Test func sameSeedSameSwipeOtherSeedOtherSwipe() throws {
    for word in words {
      let a = try synthesizer.swipe(for: word, seed: 11)
      let b = try synthesizer.swipe(for: word, seed: 11)
      let c = try synthesizer.swipe(for: word, seed: 12)
      #expect(a == b)
      #expect(a.points != c.points)
      #expect(a.word == word)
    }
  }

  @Test func eachWordOfABatchHasItsOwnStream() throws {
    let batch = try synthesizer.swipes(for: words, seed: 5)
    #expect(batch[0] == (try synthesizer.swipe(for: words[0], seed: 5)))
    // Dropping a word changes nothing for the words before it.
    let shorter = try synthesizer.swipes(for: Array(words.dropLast()), seed: 5)
    #expect(Array(batch.dropLast()) == shorter)
    // The same word twice in a batch gets two different swipes.
    let twice = try synthesizer.swipes(for: ["hello", "hello"], seed: 5)
    #expect(twice[0].points != twice[1].points)
  }

  @Test func startsAtTheFirstKeyAndEndsAtTheLastWithinTheNoiseBounds() throws {
    // A target is at most targetLimit from its center; the jitter adds a few σ at most.
    let bound = Float(synthesizer.targetLimit + 6 * synthesizer.jitter) * unit
    for seed in 0..<40 as Range<UInt64> {
      for word in words {
        let points = try synthesizer.swipe(for: word, seed: seed).points
        let path = try #require(qwerty.keyPath(for: word))
        let (first, last) = (qwerty.keys[path[0]], qwerty.keys[path[path.count - 1]])
        #expect(distance(points[0], first.x, first.y) <= bound, "\(word) seed \(seed)")
        #expect(distance(points[points.count - 1], last.x, last.y) <= bound, "\(word) seed \(seed)")
      }
    }
  }

  @Test func passesEveryKeyInOrderAtZeroNoise() throws {
    var exact = SwipeSynthesizer(layout: qwerty, noise: 0)
    exact.jitter = 0
    for seed in 0..<20 as Range<UInt64> {
      for word in words {
        let points = try exact.swipe(for: word, seed: seed).points
        // A cut corner's curve passes within 0.3 key widths of its key; the chords between
        // 60 Hz samples stay on the key (within half a key width of its center).
        #expect(
          firstMissedKey(points, word: word, within: 0.5 * unit) == nil, "\(word) seed \(seed)")
        let path = try #require(qwerty.keyPath(for: word))
        #expect(
          points[0] == SwipePoint(x: qwerty.keys[path[0]].x, y: qwerty.keys[path[0]].y, time: 0))
      }
    }
    // With the default noise the path still passes every key, within a key width.
    for seed in 0..<20 as Range<UInt64> {
      for word in words {
        let points = try synthesizer.swipe(for: word, seed: seed).points
        #expect(
          firstMissedKey(points, word: word, within: 1.0 * unit) == nil, "\(word) seed \(seed)")
      }
    }
  }

  @Test func samplesAt60HzForARealisticDuration() throws {
    let frame: Float = 1000 / 60
    for seed in 0..<20 as Range<UInt64> {
      for word in words {
        let points = try synthesizer.swipe(for: word, seed: seed).points
        let keys = try #require(qwerty.keyPath(for: word)).count
        let times = points.compactMap(\.time)
        #expect(times.count == points.count)
        #expect(times.first == 0)
        for (k, time) in times.enumerated() {
          #expect(abs(time - Float(k) * frame) < 0.01)
        }
        // 120…180 ms plus 80…120 ms per key, rounded to whole frames.
        let duration = try #require(times.last)
        #expect(duration >= 120 + 80 * Float(keys) - frame / 2, "\(word)")
        #expect(duration <= 180 + 120 * Float(keys) + frame / 2, "\(word)")
      }
    }
  }

  @Test func slowAtTheEndsAndAtSharpTurnsFastOnStraightRuns() throws {
    var exact = SwipeSynthesizer(layout: qwerty, noise: 0)
    exact.jitter = 0
    func steps(_ points: [SwipePoint]) -> [Float] {
      zip(points, points.dropFirst()).map { distance($0, $1.x, $1.y) }
    }
    // "zap": z → a is short, a → p a long straight run across the keyboard.
    let zap = steps(try exact.swipe(for: "zap", seed: 1).points)
    let fastest = try #require(zap.max())
    #expect(zap[0] < fastest / 3)
    #expect(zap[zap.count - 1] < fastest / 3)
    // "pap": p → a → p reverses at "a"; the finger is slowest near the turn.
    let points = try exact.swipe(for: "pap", seed: 1).points
    let a = qwerty.keys[try #require(qwerty.key(for: "a"))]
    let turn = try #require(
      points.indices.min { distance(points[$0], a.x, a.y) < distance(points[$1], a.x, a.y) })
    let pap = steps(points)
    #expect(turn > 2 && turn < pap.count - 2)
    let peak = try #require(pap.max())
    #expect(pap[turn - 1] < peak / 3 && pap[turn] < peak / 3)
  }

  @Test func oneKeyWordsAreAShortPress() throws {
    for word in ["a", "I", "ll", "o'"] {
      for seed in 0..<20 as Range<UInt64> {
        let points = try synthesizer.swipe(for: word, seed: seed).points
        let key = qwerty.keys[try #require(qwerty.keyPath(for: word)?.first)]
        #expect((4...7).contains(points.count), "\(word): \(points.count) points")
        let bound = Float(synthesizer.targetLimit + 0.15 + 6 * synthesizer.jitter) * unit
        #expect(points.allSatisfy { distance($0, key.x, key.y) <= bound })
      }
    }
  }

  @Test func perfectSwipeIsTheKeyCenters() {
    let points = synthesizer.perfectSwipe(for: "Hello")
    let centers = "helo".unicodeScalars.map { qwerty.keys[qwerty.key(for: $0)!] }
    #expect(points == centers.map { SwipePoint(x: $0.x, y: $0.y) })
    #expect(synthesizer.perfectSwipe(for: "h3llo").isEmpty)
  }

  @Test func wordsThatCannotBeSwipedSayWhy() {
    #expect(
      throws: SwipeSynthesisError.untypeable(word: "h3llo", character: "3", layout: "qwerty-en")
    ) {
      try synthesizer.swipe(for: "h3llo", seed: 1)
    }
    #expect(throws: SwipeSynthesisError.noKeys(word: "'-")) {
      try synthesizer.swipes(for: ["ok", "'-"], seed: 1)
    }
    #expect(
      SwipeSynthesisError.untypeable(word: "h3llo", character: "3", layout: "qwerty-en").description
        == "cannot swipe \"h3llo\": '3' has no key on layout qwerty-en")
  }

  @Test func swipesRoundTripThroughJSONLines() throws {
    let swipes = try synthesizer.swipes(for: words, seed: 3)
    let text = SwipeFile.text(for: swipes)
    let read = try SwipeFile.parse(contents: Array(text.utf8), file: "synth.jsonl")
    #expect(read.map(\.word) == words)
    #expect(SwipeFile.text(for: read) == text)
  }
}

@Suite struct WordSamplerTests {
  let dictionary: SwipeDictionary

  init() throws {
    let counts: [(word: String, count: Double)] = [
      ("the", 1_000_000), ("of", 10_000), ("zap", 100), ("quickly", 1), ("Über", 1),
    ]
    let compiled = try DictionaryCompiler.compile(words: counts, layout: qwerty)
    dictionary = try SwipeDictionary(bytes: compiled.bytes)
  }

  private func histogram(_ ids: [Int]) -> [String: Int] {
    ids.reduce(into: [:]) { $0[dictionary.word(for: $1) ?? "?", default: 0] += 1 }
  }

  @Test func sameSeedSameWords() {
    for weighting in WordSampler.Weighting.allCases {
      let sampler = WordSampler(dictionary: dictionary, weighting: weighting)
      #expect(sampler.sample(100, seed: 9) == sampler.sample(100, seed: 9))
      #expect(sampler.sample(100, seed: 9) != sampler.sample(100, seed: 10))
      #expect(sampler.sample(100, seed: 9).allSatisfy { (0..<dictionary.wordCount).contains($0) })
      #expect(sampler.sample(0, seed: 9).isEmpty)
    }
  }

  @Test func uniformDrawsEveryIDAboutEquallyOften() {
    let ids = WordSampler(dictionary: dictionary, weighting: .uniform).sample(50_000, seed: 1)
    let counts = histogram(ids)
    #expect(counts.count == 5)
    for (word, count) in counts {
      #expect(abs(Double(count) / 10_000 - 1) < 0.05, "\(word): \(count)")
    }
  }

  @Test func frequencyDrawsInProportionToTheCounts() {
    let ids = WordSampler(dictionary: dictionary, weighting: .frequency).sample(200_000, seed: 1)
    let counts = histogram(ids)
    // The byte scale is log; each step is about 5.6 % in count, so ratios hold within ~6 %.
    let the = Double(counts["the"] ?? 0)
    let of = Double(counts["of"] ?? 0)
    #expect(the / 200_000 > 0.985)
    #expect(abs(of / the / 0.01 - 1) < 0.15, "of/the = \(of / the)")
    #expect((counts["zap"] ?? 0) < 60)
  }
}
