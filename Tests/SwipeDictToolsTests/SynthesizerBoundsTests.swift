import SwipeDecoder
import SwipeDict
import Testing

@testable import SwipeDictTools

/// A 10-key row in key widths of `keyWidth`, keys `spacing` apart.
private func row(keyWidth: Float, spacing: Float) -> KeyboardLayout {
  let keys = "qwertyuiop".unicodeScalars.enumerated().map { i, c in
    KeyboardLayout.Key(
      character: c, x: Float(i) * spacing, y: 0, width: keyWidth, height: keyWidth)
  }
  return KeyboardLayout(name: "row", unit: "pt", keyWidth: keyWidth, keys: keys)
}

/// The synthesizer's bounds: no configuration traps, no word runs away, and the work is
/// linear in the word (these tests feed hostile input, so each has a time limit).
@Suite("Synthesizer bounds")
struct SynthesizerBoundsTests {
  let layout = row(keyWidth: 10, spacing: 10)

  /// Every point is finite and times, when present, never decrease.
  func expectWellFormed(_ swipe: Swipe, _ note: Comment) {
    #expect(!swipe.points.isEmpty, note)
    #expect(swipe.points.count <= SwipeSynthesizer.maxPointCount, note)
    #expect(swipe.points.allSatisfy { $0.x.isFinite && $0.y.isFinite }, note)
    let times = swipe.points.compactMap(\.time)
    #expect(times.count == swipe.points.count, note)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, note)
  }

  @Test(
    "a word with more keys than maxKeyCount is refused at once (60,000 letters)",
    .timeLimit(.minutes(1)))
  func tooManyKeysIsRefused() {
    let word = String(repeating: "qp", count: 30_000)
    let synthesizer = SwipeSynthesizer(layout: layout)
    #expect(throws: SwipeSynthesisError.tooManyKeys(word: word, count: 60_000, limit: 1_000)) {
      try synthesizer.swipe(for: word, seed: 1)
    }
    let error = SwipeSynthesisError.tooManyKeys(word: word, count: 60_000, limit: 1_000)
    #expect(error.description.count < 200)  // the word is shortened in the message
  }

  @Test(
    "a word of maxKeyCount keys at the slowest speed and highest rate stays within maxPointCount",
    .timeLimit(.minutes(1)))
  func longestWordIsBounded() throws {
    let word = String(repeating: "qp", count: SwipeSynthesizer.maxKeyCount / 2)
    var synthesizer = SwipeSynthesizer(layout: layout)
    synthesizer.sampleRate = 1000
    synthesizer.perKeyDuration = 800...1200
    let swipe = try synthesizer.swipe(for: word, seed: 3)
    expectWellFormed(swipe, "1,000 keys")
    #expect(swipe.points.count == SwipeSynthesizer.maxPointCount)
    // Sampled more coarsely, the samples still span the whole duration (≥ 800 ms per key).
    let last = try #require(swipe.points.last?.time)
    #expect(last >= 800 * 1000)
  }

  @Test(
    "values that would trap or run away are clamped: rate, durations, noise, cuts, jitter",
    .timeLimit(.minutes(1)),
    arguments: [
      "sampleRate 1e9", "sampleRate 1e-300", "sampleRate 0", "sampleRate -5", "sampleRate NaN",
      "sampleRate ∞", "baseDuration 1e300", "baseDuration ∞", "perKeyDuration 1e300",
      "perKeyDuration negative", "noise ∞", "noise NaN", "targetLimit ∞", "cornerCut 1e300",
      "maxCornerCut ∞", "cornerSlowdown NaN", "jitter ∞", "jitter NaN",
    ])
  func hostileConfigurationIsClamped(name: String) throws {
    var s = SwipeSynthesizer(layout: layout)
    switch name {
    case "sampleRate 1e9": s.sampleRate = 1e9
    case "sampleRate 1e-300": s.sampleRate = 1e-300
    case "sampleRate 0": s.sampleRate = 0
    case "sampleRate -5": s.sampleRate = -5
    case "sampleRate NaN": s.sampleRate = .nan
    case "sampleRate ∞": s.sampleRate = .infinity
    case "baseDuration 1e300": s.baseDuration = 1e300...1e300
    case "baseDuration ∞": s.baseDuration = 0...Double.infinity
    case "perKeyDuration 1e300": s.perKeyDuration = 0...1e300
    case "perKeyDuration negative": s.perKeyDuration = -1e9...0
    case "noise ∞": s.noise = .infinity
    case "noise NaN": s.noise = .nan
    case "targetLimit ∞": s.targetLimit = .infinity
    case "cornerCut 1e300": s.cornerCut = 0...1e300
    case "maxCornerCut ∞": s.maxCornerCut = .infinity
    case "cornerSlowdown NaN": s.cornerSlowdown = .nan
    case "jitter ∞": s.jitter = .infinity
    case "jitter NaN": s.jitter = .nan
    default: Issue.record("unknown case \(name)")
    }
    let synthesizer = s
    for word in ["q", "qwerty", "qpqpqpqpqp"] {
      expectWellFormed(try synthesizer.swipe(for: word, seed: 5), "\(name), \(word)")
    }
  }

  @Test(
    "a layout whose keys are far apart in key widths does not blow up the path",
    .timeLimit(.minutes(1)))
  func farApartKeysAreBounded() throws {
    // 1e-6-unit keys a whole unit apart: a million key widths between neighbors.
    let synthesizer = SwipeSynthesizer(layout: row(keyWidth: 1e-6, spacing: 1))
    expectWellFormed(try synthesizer.swipe(for: "qpqpqpqp", seed: 2), "far apart")
  }

  @Test(
    "the work is linear in the word: a 1,000-key word is fast (it was quadratic)",
    .timeLimit(.minutes(1)))
  func longWordIsLinear() throws {
    let word = String(repeating: "qp", count: 500)
    let synthesizer = SwipeSynthesizer(layout: layout)
    // The time limit is the check: a quadratic profile took minutes on words this long.
    for seed in 0..<20 {
      expectWellFormed(try synthesizer.swipe(for: word, seed: UInt64(seed)), "seed \(seed)")
    }
  }
}
