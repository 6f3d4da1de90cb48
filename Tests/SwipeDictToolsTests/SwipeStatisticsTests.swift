import Foundation
import SwipeDecoder
import SwipeDict
import SwipeDictTestSupport
import Testing

@testable import SwipeDictTools

/// The repository's English layout (37.5 pt keys, rows 54 pt apart).
private let qwerty = repositoryLayout("qwerty-en")
private let unit = Double(qwerty.keyWidth)

/// The center of `letter`'s key.
private func center(_ letter: Character) -> (x: Double, y: Double) {
  let key = qwerty.keys[qwerty.key(for: letter.unicodeScalars.first ?? "a") ?? 0]
  return (Double(key.x), Double(key.y))
}

/// Points every `step` layout units along the polyline through `corners`, 10 ms apart.
private func polyline(_ corners: [(x: Double, y: Double)], step: Double = 3) -> [SwipePoint] {
  var points: [(Double, Double)] = [corners[0]]
  for (a, b) in zip(corners, corners.dropFirst()) {
    let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    let pieces = max(1, Int((length / step).rounded(.up)))
    for k in 1...pieces {
      let t = Double(k) / Double(pieces)
      points.append((a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t))
    }
  }
  return points.enumerated().map { i, p in
    SwipePoint(x: Float(p.0), y: Float(p.1), time: Float(i * 10))
  }
}

@Suite struct SwipeStatisticsTests {
  @Test("a straight swipe through the key centers has ratio 1, no offsets, hook or overshoot")
  func straightSwipe() throws {
    let swipe = Swipe(word: "qwerty", points: polyline([center("q"), center("y")]))
    let statistics = SwipeStatistics(layout: qwerty, swipes: [swipe])
    let m = try #require(statistics.measurements.first)
    #expect(abs((m.lengthRatio ?? 0) - 1) < 1e-6)
    #expect(m.start.radius < 1e-6 && m.end.radius < 1e-6)
    #expect(m.middle.count == 4)
    #expect(m.middle.allSatisfy { $0.radius < 0.05 })
    #expect((m.hookAngle ?? 99) < 1e-6)
    #expect((m.overshoot ?? 99) < 1e-6)
    #expect(!m.endsOffKeyboard)
    #expect(m.doubledLetterLoops.isEmpty)
    #expect(m.loopAtPlainKey == false)
    #expect(m.stretchRatios.allSatisfy { abs($0 - 1) < 1e-6 })
    // 10 ms a point: the speed is the length over the duration.
    let length = (center("y").x - center("q").x) / unit
    #expect(abs((m.speed ?? 0) - length / ((m.duration ?? 1) / 1000)) < 1e-9)
    #expect(m.intervals.allSatisfy { $0 == 10 })
  }

  @Test("a circle drawn at the doubled letter counts one loop of its size; none without it")
  func loopAtDoubledLetter() throws {
    let (h, e, l, o) = (center("h"), center("e"), center("l"), center("o"))
    let radius = 0.3 * unit
    // A full circle from the l key's center, above it, then on to o.
    let circle = (1...24).map { k -> (x: Double, y: Double) in
      let phi = 2 * Double.pi * Double(k) / 24
      return (l.x + radius * sin(phi), l.y - radius + radius * cos(phi))
    }
    let looped = Swipe(word: "hello", points: polyline([h, e, l] + circle + [o]))
    let plain = Swipe(word: "hello", points: polyline([h, e, l, o]))
    let statistics = SwipeStatistics(layout: qwerty, swipes: [looped, plain])
    let sizes = statistics.measurements.map(\.doubledLetterLoops)
    #expect(sizes.count == 2)
    let size = try #require(sizes[0].first ?? nil)
    // The circle (0.6 key widths across) first closes against the stroke coming in from e,
    // so the part the detector cuts off is most of it.
    #expect((0.4...0.65).contains(size))
    #expect(sizes[1] == [nil])
    #expect(statistics.summary.loopsAtDoubledLetters == .init([true, false]))
  }

  @Test("running on past the last key is measured as overshoot and moves the end")
  func overshoot() throws {
    let (a, s) = (center("a"), center("s"))
    let past = (x: s.x + unit, y: s.y)
    let swipe = Swipe(word: "as", points: polyline([a, s, past]))
    let m = try #require(SwipeStatistics(layout: qwerty, swipes: [swipe]).measurements.first)
    #expect(abs((m.overshoot ?? 0) - 1) < 0.01)
    #expect(abs(m.end.dx - 1) < 1e-6 && abs(m.end.dy) < 1e-6)
    #expect(abs((m.lengthRatio ?? 0) - 2) < 1e-6)
    // Far below the keyboard: off it.
    let off = Swipe(word: "as", points: polyline([a, s, (s.x, s.y + 3 * 54)]))
    #expect(SwipeStatistics(layout: qwerty, swipes: [off]).measurements.first?.endsOffKeyboard == true)
  }

  @Test("a first stroke away from the second key is a hook")
  func hook() throws {
    let (d, o) = (center("d"), center("o"))
    let away = (x: d.x, y: d.y + 0.5 * unit)  // down, while o is up and to the right
    let swipe = Swipe(word: "do", points: polyline([d, away, o]))
    let m = try #require(SwipeStatistics(layout: qwerty, swipes: [swipe]).measurements.first)
    #expect((m.hookAngle ?? 0) > 60)
    // The corner at 0.5 key widths below d is 0.3…0.5 key widths off the line to o.
    #expect((0.3...0.5).contains(m.hookSize ?? 0))
  }

  @Test("unlabelled, untypeable and one-key swipes are counted, not measured")
  func skipped() {
    let point = [SwipePoint(x: 10, y: 10, time: 0)]
    let statistics = SwipeStatistics(
      layout: qwerty,
      swipes: [
        Swipe(word: nil, points: point), Swipe(word: "42", points: point),
        Swipe(word: "a", points: point), Swipe(word: "I'm", points: polyline([center("i"), center("m")])),
      ])
    #expect(statistics.skipped == ["no word": 1, "untypeable word": 1, "one key": 1])
    #expect(statistics.measurements.map(\.word) == ["I'm"])
  }

  @Test("the duration power law recovers a × keys^b")
  func durationCurve() {
    let swipes = (2...8).map { keys -> Swipe in
      let word = String("qwertyuiop".prefix(keys))
      let duration = 100 * pow(Double(keys), 1.5)
      var points = polyline([center("q"), center(Array(word).last ?? "w")])
      for i in points.indices {
        points[i].time = Float(duration * Double(i) / Double(points.count - 1))
      }
      return Swipe(word: word, points: points)
    }
    let summary = SwipeStatistics(layout: qwerty, swipes: swipes).summary
    #expect(abs(summary.durationPerKey - 100) < 0.5)
    #expect(abs(summary.durationExponent - 1.5) < 0.01)
  }
}

/// A model with round numbers, far from the default synthesizer.
private let testModel = HumanSwipeModel(
  source: "test", command: "none",
  start: .init(biasX: 0.1, biasY: -0.1, sigmaX: 0.2, sigmaY: 0.15),
  middle: .init(biasX: 0, biasY: 0, sigmaX: 0.1, sigmaY: 0.1),
  end: .init(biasX: 0.2, biasY: 0, sigmaX: 0.3, sigmaY: 0.2), aimLimit: 2, cornerCut: 0.1,
  bow: 0.05, detour: .init(probability: 0.2, size: 0.4), bendLimit: 1,
  hook: .init(probability: 0.3, angle: 100, length: 0.6, wobble: 3),
  loop: .init(probability: 1, size: 0.6, sizeSpread: 0.1),
  overshoot: .init(probability: 0.5, length: 0.8),
  timing: .init(
    baseDuration: 100, perKeyDuration: 150, keyExponent: 1.2, durationSpread: 0.3,
    sampleRate: 100, intervalJitter: 1, dropRate: 0.1),
  jitter: 0.01)

/// Words with and without doubled letters, 2–8 keys.
private let modelWords = [
  "hello", "the", "quickly", "was", "keyboard", "letter", "typewriter", "coffee", "of", "little",
  "good", "world", "apple", "running", "see", "tomorrow", "mississippi", "balloon", "hand",
]

@Suite struct HumanSwipeModelTests {
  @Test("JSON round trip: the text parses back to the same model, and the same model writes the same bytes")
  func roundTrip() throws {
    let text = testModel.jsonText
    let parsed = try HumanSwipeModel.parse(Array(text.utf8), file: "model.json")
    #expect(parsed == testModel)
    #expect(parsed.jsonText == text)
    // Codable too, for library users.
    let decoded = try JSONDecoder().decode(
      HumanSwipeModel.self, from: JSONEncoder().encode(testModel))
    #expect(decoded == testModel)
  }

  @Test("the repository's fitted model reads, is in range and writes back byte for byte")
  func committedModel() throws {
    let path = repositoryRoot.appendingPathComponent("corpora/swipe-models/hws-dev.json").path
    let model = try HumanSwipeModel.read(path: path)
    #expect(model.firstValueOutOfRange() == nil)
    #expect(model.source.contains("hws-dev.jsonl"))
    #expect(model.command.hasPrefix("swipedict swipestats"))
    #expect(model.jsonText == (try String(contentsOfFile: path, encoding: .utf8)))
  }

  @Test(
    "bad model files are refused with the line and what is wrong",
    arguments: [
      ("not json {", 1, "not JSON"),
      ("[1, 2]", 1, "not a JSON object"),
      (#"{"format": "something-else"}"#, 1, #""format" is "something-else""#),
      (
        testModel.jsonText.replacingOccurrences(of: #""probability":0.3"#, with: #""probability":3"#),
        14, "hook.probability is 3.0, outside 0.0…1.0"
      ),
      (
        testModel.jsonText.replacingOccurrences(of: #""jitter":0.01"#, with: #""jitter":"x""#), 18,
        #""jitter" is not a number"#
      ),
      (
        testModel.jsonText.replacingOccurrences(of: #""bow":0.05,"#, with: ""), 1,
        #""bow" is missing"#
      ),
      (testModel.jsonText.replacingOccurrences(of: #""version":1"#, with: #""version":9"#), 3, "version 9"),
    ])
  func badFiles(text: String, line: Int, message: String) {
    #expect {
      try HumanSwipeModel.parse(Array(text.utf8), file: "m.json")
    } throws: { error in
      guard let error = error as? HumanSwipeModelError else { return false }
      return error.file == "m.json" && error.line == line && error.message.contains(message)
        && !error.hint.isEmpty
    }
  }

  @Test("synthesis with a model is deterministic per seed, and each word has its own stream")
  func deterministic() throws {
    let synthesizer = SwipeSynthesizer(layout: qwerty, humanModel: testModel)
    let a = try synthesizer.swipes(for: modelWords, seed: 9)
    #expect(a == (try synthesizer.swipes(for: modelWords, seed: 9)))
    #expect(a.map(\.points) != (try synthesizer.swipes(for: modelWords, seed: 10)).map(\.points))
    #expect(Array(a.dropLast()) == (try synthesizer.swipes(for: Array(modelWords.dropLast()), seed: 9)))
    #expect(a[0] == (try synthesizer.swipe(for: modelWords[0], seed: 9)))
    // Times never go backwards; every point is finite.
    for swipe in a {
      let times = swipe.points.compactMap(\.time)
      #expect(times.count == swipe.points.count)
      #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
      #expect(swipe.points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
    }
  }

  @Test("the default model is unchanged by the human one's code paths")
  func defaultUnchanged() throws {
    var synthesizer = SwipeSynthesizer(layout: qwerty)
    let before = try synthesizer.swipes(for: modelWords, seed: 4)
    synthesizer.humanModel = testModel
    synthesizer.humanModel = nil
    #expect(before == (try synthesizer.swipes(for: modelWords, seed: 4)))
  }

  @Test("swipes drawn from a model measure back near its parameters", arguments: [1, 2, 3] as [UInt64])
  func statisticsFollowTheModel(seed: UInt64) throws {
    let words = Array(repeating: modelWords, count: 12).flatMap { $0 }
    let swipes = try SwipeSynthesizer(layout: qwerty, humanModel: testModel).swipes(
      for: words, seed: seed)
    let summary = SwipeStatistics(layout: qwerty, swipes: swipes).summary
    // The first point is the start target plus jitter: bias and σ come straight back.
    #expect(abs(summary.start.dx.median - 0.1) < 0.04)
    #expect(abs(summary.start.dy.median + 0.1) < 0.04)
    #expect(abs(summary.start.dx.sigma - 0.2) < 0.04)
    #expect(abs(summary.start.dy.sigma - 0.15) < 0.04)
    // Sampling at 100 Hz with 10 % of the samples dropped.
    #expect(abs(summary.interval.median - 10) < 1)
    #expect(abs(summary.longIntervals.fraction - 0.1) < 0.03)
    // Hooks of 100° ± 20° in 30 % of the swipes (the wobble adds almost none).
    #expect(abs(summary.hooked.fraction - 0.3) < 0.07)
    // A loop at every doubled letter; the detector finds most of them.
    #expect(summary.loopsAtDoubledLetters.fraction > 0.7)
    #expect(abs(summary.loopSize.median - 0.6) < 0.15)
    // Half the swipes run on by 0.8 key widths on average: of them, e^(-0.25/0.8) = 73 %
    // by 0.25 or more, on top of the swipes whose end aim alone lies past the last key.
    var still = testModel
    still.overshoot.probability = 0
    let without = SwipeStatistics(
      layout: qwerty,
      swipes: try SwipeSynthesizer(layout: qwerty, humanModel: still).swipes(for: words, seed: seed)
    ).summary
    let added = 0.5 * exp(-0.25 / 0.8) * (1 - without.overshooting.fraction)
    #expect(abs(summary.overshooting.fraction - without.overshooting.fraction - added) < 0.08)
    #expect(summary.overshootLength.median > without.overshootLength.median + 0.1)
    // Durations: 100 + 150 × (keys + loops)^1.2 ms at the median, spread σ 0.3 in ln.
    let predicted = words.map { word -> Double in
      let keys = SwipeStatistics.keys(of: word, on: qwerty)
      let n = Double((keys?.path.count ?? 0) + (keys?.doubled.count ?? 0))
      return 100 + 150 * pow(n, 1.2)
    }.sorted()
    #expect(abs(summary.duration.median / quantile(predicted, 0.5) - 1) < 0.15)
  }

  @Test("fitting to swipes drawn from a model recovers its main parameters")
  func fitRecoversTheModel() throws {
    let words = Array(repeating: modelWords, count: 10).flatMap { $0 }
    let swipes = try SwipeSynthesizer(layout: qwerty, humanModel: testModel).swipes(for: words, seed: 77)
    let real = SwipeStatistics(layout: qwerty, swipes: swipes)
    let fitted = HumanSwipeModel.fit(
      to: real, layout: qwerty, source: "s", command: "c", rounds: 4, draws: 1)
    #expect(fitted.firstValueOutOfRange() == nil)
    #expect(abs(fitted.start.biasX - 0.1) < 0.05 && abs(fitted.start.sigmaX - 0.2) < 0.05)
    #expect(abs(fitted.timing.sampleRate - 100) < 10)
    #expect(abs(fitted.overshoot.probability - 0.5) < 0.15)
    #expect(abs(fitted.loop.probability - 1) < 0.2)
    #expect(abs(fitted.timing.dropRate - 0.1) < 0.04)
    // The same swipes give the same model.
    #expect(
      fitted
        == HumanSwipeModel.fit(to: real, layout: qwerty, source: "s", command: "c", rounds: 4, draws: 1))
  }
}

/// The real dev swipes, when the shared folder is there.
private let devSwipes = repositoryRoot.appendingPathComponent("../shared/swipes/hws-dev.jsonl")
  .standardizedFileURL.path

@Suite struct RealSwipeTests {
  @Test(
    "the committed model's swipes of the dev words match the dev swipes' statistics",
    .enabled(
      if: FileManager.default.fileExists(atPath: devSwipes),
      "../shared/swipes/hws-dev.jsonl is absent: the real swipes are not in the repository"))
  func committedModelMatchesTheDevSet() throws {
    let real = try SwipeFile.read(path: devSwipes)
    let model = try HumanSwipeModel.read(
      path: repositoryRoot.appendingPathComponent("corpora/swipe-models/hws-dev.json").path)
    let words = real.compactMap(\.word)
    let drawn = try SwipeSynthesizer(layout: qwerty, humanModel: model).swipes(for: words, seed: 1)
    let r = SwipeStatistics(layout: qwerty, swipes: real).summary
    let s = SwipeStatistics(layout: qwerty, swipes: drawn).summary
    #expect(abs(r.start.radius.median - s.start.radius.median) < 0.05)
    #expect(abs(r.middle.radius.median - s.middle.radius.median) < 0.05)
    #expect(abs(r.end.radius.median - s.end.radius.median) < 0.08)
    #expect(abs(r.lengthRatio.median - s.lengthRatio.median) < 0.08)
    #expect(abs(r.overshooting.fraction - s.overshooting.fraction) < 0.08)
    #expect(abs(s.speed.median / r.speed.median - 1) < 0.2)
    #expect(abs(s.duration.median / r.duration.median - 1) < 0.2)
    #expect(abs(s.pointCount.median / r.pointCount.median - 1) < 0.2)
    #expect(abs(r.interval.median - s.interval.median) < 1)
  }
}
