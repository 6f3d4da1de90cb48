import Foundation
import SwipeDecoder
import SwipeDict
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Turns words into human-like synthetic swipes on a keyboard layout, for tests and
/// benchmarks of swipe decoders.
///
/// ```swift
/// let synthesizer = SwipeSynthesizer(layout: dictionary.layout)
/// let swipe = try synthesizer.swipe(for: "hello", seed: 42)    // ~35 points at 60 Hz
/// print(SwipeFile.line(for: swipe))
/// ```
///
/// The model, for a word whose key path (``KeyboardLayout/keyPath(for:)``) has two keys or
/// more; `u` is the layout's `keyWidth`:
///
/// 1. **Aim.** Each key gets a target: its center plus Gaussian noise with σ = ``noise`` × u
///    (default 0.25) on each axis, pulled back onto a circle of radius ``targetLimit`` × u
///    (default 0.6) around the center when it lands farther (about 6 % of targets at the
///    defaults), so that the finger stays on or next to the key.
/// 2. **Corners.** The finger runs in straight lines between targets and cuts each inner
///    corner with a quadratic Bézier curve whose control point is the target. It leaves the
///    straight line a random fraction (``cornerCut``, default 0.1…0.35) of each adjoining
///    segment before the target, at most ``maxCornerCut`` × u (default 0.6) away, so it
///    passes within 0.3 u of a target at the sharpest turn and almost through it when the
///    path runs straight on.
/// 3. **Speed.** The speed along the path is the product of three factors: a ramp that
///    starts and ends slowly (a bell over the first and last 1.5 u, like a minimum-jerk
///    profile), a dip at each corner as deep as ``cornerSlowdown`` × (turn angle / 180°)
///    (default 0.8) and about a key wide, and a peak speed that grows with the square root of
///    the segment's length (long straight runs are faster; a factor 0.5…2 for segments of
///    0.25…4 u and beyond), interpolated between the segments' midpoints.
/// 4. **Time.** The whole swipe lasts a random ``baseDuration`` (default 120…180 ms) plus a
///    random ``perKeyDuration`` (default 80…120 ms) per key; the speed profile is scaled to
///    that duration and sampled at ``sampleRate`` (default 60 Hz), rounded to whole frames:
///    `t_ms` is `0, 16.7, 33.3, …`, the first sample on the first target and the last on the
///    last target (before jitter).
/// 5. **Jitter.** Each sample moves by Gaussian noise with σ = ``jitter`` × u (default 0.02),
///    the touch sensor's own noise.
///
/// A word with a single key (`"a"`, `"I"`, `"ll"`) is a short press instead: 50…100 ms of
/// samples on a slide of at most 0.15 u from the noisy target, with jitter.
///
/// **Bounds.** The work per swipe is linear in the word's key count and bounded: a word
/// whose key path has more than ``maxKeyCount`` keys (1,000) is refused with
/// ``SwipeSynthesisError/tooManyKeys(word:count:limit:)``, a swipe has at most
/// ``maxPointCount`` points (10,000; a swipe that would have more at ``sampleRate`` is sampled
/// more coarsely over the same duration), and each straight run or corner of the finger's path
/// is drawn with at most 1,000 pieces whatever the layout's proportions. The model's
/// parameters are clamped where they are used, so that no value traps or runs away (see each
/// property); values inside the documented ranges are used as they are.
///
/// Everything random comes from a seeded generator in this module (SplitMix64, Box–Muller
/// normals), so the same parameters, layout, word and seed give identical points on a given
/// platform. Word `i` of ``swipes(for:seed:)`` uses its own stream of that seed, so adding a
/// word does not change the others. ``perfectSwipe(for:)`` gives the noiseless key centers.
public struct SwipeSynthesizer: Sendable {
  /// The layout the swipes are drawn on.
  public var layout: KeyboardLayout
  /// σ of each key's target around its center, in key widths (default 0.25; 0 aims at centers).
  /// Used clamped to `0...10`; NaN counts as 0.
  public var noise: Double
  /// The farthest a target may be from its key's center, in key widths (default 0.6).
  /// Used clamped to `0...10`; NaN counts as 0.
  public var targetLimit: Double
  /// The fraction of each adjoining segment where corner cutting starts (default 0.1…0.35).
  /// Keep the upper bound below 0.5 so that neighboring corners do not overlap. Each draw is
  /// used clamped to `0...0.5`.
  public var cornerCut: ClosedRange<Double>
  /// The longest corner cut along one segment, in key widths (default 0.6).
  /// Used clamped to `0...10`; NaN counts as 0.
  public var maxCornerCut: Double
  /// How much the finger slows down at a full reversal, 0…0.95 (default 0.8: to 20 % speed).
  /// Used clamped to `0...0.95`; NaN counts as 0.
  public var cornerSlowdown: Double
  /// The fixed part of a swipe's duration, in milliseconds (default 120…180). Each draw is
  /// used clamped to `0...60_000`.
  public var baseDuration: ClosedRange<Double>
  /// The duration added per key of the key path, in milliseconds (default 80…120). Each draw
  /// is used clamped to `0...60_000`.
  public var perKeyDuration: ClosedRange<Double>
  /// Samples per second (default 60, a phone's touch rate). Used clamped to `1...1000`; NaN
  /// counts as 60. A swipe never has more than ``maxPointCount`` points.
  public var sampleRate: Double
  /// σ of the per-sample sensor noise, in key widths (default 0.02).
  /// Used clamped to `0...10`; NaN counts as 0.
  public var jitter: Double
  /// A human swipe model fitted to real swipes (default `nil`). When set, swipes are drawn
  /// with it (see ``HumanSwipeModel``) and ``noise``, ``targetLimit``, ``baseDuration``,
  /// ``perKeyDuration``, ``sampleRate`` and ``jitter`` are not used; the corner cuts and the
  /// speed profile are the default model's. Its numbers are used clamped to the ranges
  /// ``HumanSwipeModel/firstValueOutOfRange()`` checks.
  public var humanModel: HumanSwipeModel?

  /// The most keys a swiped word's key path may have (1,000): a longer word is refused with
  /// ``SwipeSynthesisError/tooManyKeys(word:count:limit:)``, so one word cannot keep the
  /// synthesizer busy or fill memory.
  public static let maxKeyCount = 1_000
  /// The most points one swipe has (10,000, a minute at 166 Hz): a swipe that would have more
  /// at ``sampleRate`` is sampled more coarsely, spreading this many points over its duration.
  public static let maxPointCount = 10_000
  /// The most pieces one straight run or corner of the finger's path is drawn with, whatever
  /// the layout's key width (1,000, a run of 50 key widths at the usual spacing).
  static let maxPiecesPerRun = 1_000

  /// Creates a synthesizer with the default model (see the type's description).
  /// - Parameters:
  ///   - layout: the keyboard layout.
  ///   - noise: σ of the targets around the key centers, in key widths.
  public init(layout: KeyboardLayout, noise: Double = 0.25) {
    self.layout = layout
    self.noise = noise
    targetLimit = 0.6
    cornerCut = 0.1...0.35
    maxCornerCut = 0.6
    cornerSlowdown = 0.8
    baseDuration = 120...180
    perKeyDuration = 80...120
    sampleRate = 60
    jitter = 0.02
    humanModel = nil
  }

  /// Creates a synthesizer that draws swipes with a fitted human model.
  /// - Parameters:
  ///   - layout: the keyboard layout.
  ///   - humanModel: the model (see ``HumanSwipeModel``).
  public init(layout: KeyboardLayout, humanModel: HumanSwipeModel) {
    self.init(layout: layout)
    self.humanModel = humanModel
  }

  /// A synthetic swipe over `word`, with `word` as its truth.
  /// - Parameters:
  ///   - word: the word; its key path decides the keys.
  ///   - seed: the random seed (same seed, same swipe).
  /// - Returns: the swipe, with times in milliseconds.
  /// - Throws: ``SwipeSynthesisError`` when the word cannot be typed on the layout or has
  ///   no keyed character.
  public func swipe(for word: String, seed: UInt64) throws(SwipeSynthesisError) -> Swipe {
    var random = SeededGenerator(seed: seed, stream: 0)
    return Swipe(word: word, points: points(for: word, along: try keyPath(for: word), random: &random))
  }

  /// Synthetic swipes over several words; word `i` uses stream `i` of `seed`, so
  /// `swipes(for: words, seed: s)[0] == swipe(for: words[0], seed: s)`.
  /// - Parameters:
  ///   - words: the words.
  ///   - seed: the random seed.
  /// - Returns: one swipe per word, in order.
  /// - Throws: ``SwipeSynthesisError`` for the first word that cannot be swiped.
  public func swipes(for words: [String], seed: UInt64) throws(SwipeSynthesisError) -> [Swipe] {
    var swipes: [Swipe] = []
    swipes.reserveCapacity(words.count)
    for (i, word) in words.enumerated() {
      var random = SeededGenerator(seed: seed, stream: UInt64(i))
      swipes.append(
        Swipe(word: word, points: points(for: word, along: try keyPath(for: word), random: &random)))
    }
    return swipes
  }

  /// The noiseless swipe over `word`: the centers of its key path, without times.
  /// - Parameter word: the word.
  /// - Returns: one point per key; empty when the word cannot be typed on the layout.
  public func perfectSwipe(for word: String) -> [SwipePoint] {
    (layout.keyPath(for: word) ?? []).map { SwipePoint(x: layout.keys[$0].x, y: layout.keys[$0].y) }
  }

  /// The key path of `word`, or why it has none.
  func keyPath(for word: String) throws(SwipeSynthesisError) -> [Int] {
    guard let path = layout.keyPath(for: word) else {
      let bad = word.unicodeScalars.first { layout.classify($0) == .untypeable }
      throw .untypeable(
        word: word, character: bad.map { Character($0) } ?? "?", layout: layout.name)
    }
    guard !path.isEmpty else { throw .noKeys(word: word) }
    guard path.count <= Self.maxKeyCount else {
      throw .tooManyKeys(word: word, count: path.count, limit: Self.maxKeyCount)
    }
    return path
  }

  // MARK: - The model

  /// The swipe's samples over `word` along its non-empty key path: the human model's when
  /// ``humanModel`` is set, the default model's otherwise.
  func points(for word: String, along path: [Int], random: inout SeededGenerator) -> [SwipePoint] {
    if let humanModel {
      let doubled = SwipeStatistics.keys(of: word, on: layout)?.doubled ?? []
      return points(along: path, doubled: doubled, model: humanModel, random: &random)
    }
    return points(along: path, random: &random)
  }

  /// The swipe's samples along a non-empty key path, with the default model.
  func points(along path: [Int], random: inout SeededGenerator) -> [SwipePoint] {
    let unit = Double(layout.keyWidth)
    let rate = sampleRate.isNaN ? 60 : Self.clamp(sampleRate, 1...1000)
    var frame = 1000 / rate
    // 1. Aim.
    let sigmaAim = Self.clamp(noise, 0...10) * unit
    let limit = Self.clamp(targetLimit, 0...10) * unit
    let targets = path.map { index -> Vector in
      let key = layout.keys[index]
      var offset = Vector(x: random.gaussian(), y: random.gaussian()) * sigmaAim
      if offset.length > limit { offset = offset * (limit / offset.length) }
      return Vector(x: Double(key.x), y: Double(key.y)) + offset
    }
    var duration = Self.clamp(random.uniform(baseDuration), 0...60_000)
    for _ in path { duration += Self.clamp(random.uniform(perKeyDuration), 0...60_000) }

    let track = Track(targets: targets, synthesizer: self, unit: unit, random: &random)
    let samples = Self.sample(
      track, duration: duration, from: targets[0], unit: unit, frame: &frame, random: &random)
    // 5. Jitter.
    let sigma = Self.clamp(jitter, 0...10) * unit
    return samples.enumerated().map { k, sample in
      let point = sample + Vector(x: random.gaussian(), y: random.gaussian()) * sigma
      return SwipePoint(x: Float(point.x), y: Float(point.y), time: Float(Double(k) * frame))
    }
  }
}

extension SwipeSynthesizer {
  /// `value` clamped to `range`; NaN gives the lower bound.
  static func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double {
    value >= range.lowerBound ? min(value, range.upperBound) : range.lowerBound
  }

  /// The positions of a swipe along `track` sampled every `frame` ms for `duration` ms;
  /// without a track (one key, or targets on top of each other), a short press at `start`
  /// that slides a little.
  static func sample(
    _ track: Track?, duration: Double, from start: Vector, unit: Double, frame: inout Double,
    random: inout SeededGenerator
  ) -> [Vector] {
    if let track { return track.samples(count: frameCount(duration: duration, frame: &frame) + 1) }
    let frames = frameCount(duration: random.uniform(50...100), frame: &frame)
    let angle = 2 * Double.pi * random.unit()
    let slide = Vector(x: cos(angle), y: sin(angle)) * (random.uniform(0...0.15) * unit)
    return (0...frames).map { start + slide * (Double($0) / Double(frames)) }
  }

  /// The frames (samples − 1) of a swipe lasting `duration` ms at one sample per `frame` ms:
  /// at least 2, and at most ``maxPointCount`` − 1, in which case `frame` grows so that the
  /// samples still span the duration.
  static func frameCount(duration: Double, frame: inout Double) -> Int {
    let exact = (duration / frame).rounded()
    let most = maxPointCount - 1
    guard exact <= Double(most) else {  // also catches NaN: the cap, one frame each
      frame = duration.isFinite && duration > 0 ? duration / Double(most) : frame
      return most
    }
    return max(2, Int(exact))  // safe: exact ≤ most, and a NaN took the branch above
  }
}

/// Why a word cannot be swiped on a layout.
public enum SwipeSynthesisError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A character of `word` has no key, no alias and is not skipped on the layout.
  case untypeable(word: String, character: Character, layout: String)
  /// Every character of `word` is skipped (apostrophes, hyphens): there is no key to swipe.
  case noKeys(word: String)
  /// The key path of `word` has `count` keys, more than the synthesizer's `limit`
  /// (``SwipeSynthesizer/maxKeyCount``).
  case tooManyKeys(word: String, count: Int, limit: Int)

  /// What is wrong, naming the word.
  public var description: String {
    switch self {
    case .untypeable(let word, let character, let layout):
      "cannot swipe \"\(word)\": '\(character)' has no key on layout \(layout)"
    case .noKeys(let word):
      "cannot swipe \"\(word)\": it has no character with a key"
    case .tooManyKeys(let word, let count, let limit):
      "cannot swipe \"\(word.count > 40 ? word.prefix(40) + "…" : Substring(word))\": its key "
        + "path has \(count) keys, more than the \(limit) a synthetic swipe may have"
    }
  }
}

// MARK: - Geometry

/// A 2-D vector in layout units (Double, for the model's arithmetic).
struct Vector: Sendable {
  var x: Double
  var y: Double

  static func + (a: Vector, b: Vector) -> Vector { Vector(x: a.x + b.x, y: a.y + b.y) }
  static func - (a: Vector, b: Vector) -> Vector { Vector(x: a.x - b.x, y: a.y - b.y) }
  static func * (a: Vector, s: Double) -> Vector { Vector(x: a.x * s, y: a.y * s) }
  var length: Double { (x * x + y * y).squareRoot() }
}

/// What the human model adds to a track: loops at some targets and bowed stretches.
struct TrackShape {
  /// A loop drawn at a target.
  struct Loop {
    /// The loop's radius, in layout units.
    var radius: Double
    /// Which way it turns (as seen on screen, y down).
    var clockwise: Bool
    /// How much the finger slows down in it, 0…0.95.
    var slowdown: Double
  }
  /// Loops by target index.
  var loops: [Int: Loop] = [:]
  /// For each stretch between consecutive targets, how far its middle leaves the chord,
  /// as a signed fraction of the chord's length.
  var bows: [Double] = []
  /// The farthest a bow takes a stretch's middle off its chord, in layout units.
  var bendLimit = Double.infinity
}

/// The finger's path through the targets as a dense polyline, with the time to reach each of
/// its vertices (steps 2–4 of the model).
struct Track {
  /// Dense vertices, about 0.05 key widths apart.
  private var vertices: [Vector] = []
  /// The time at each vertex, 0 at the first, in arbitrary units (scaled by `samples`).
  private var times: [Double] = []

  /// Builds the track, or `nil` when the targets are (almost) one point.
  init?(
    targets: [Vector], synthesizer model: SwipeSynthesizer, unit: Double,
    random: inout SeededGenerator, shape: TrackShape? = nil
  ) {
    guard targets.count >= 2 else { return nil }
    var path = TrackPath(start: targets[0], unit: unit, shape: shape)
    path.draw(through: targets, synthesizer: model, random: &random)
    if let shape { path.bow(shape, targetCount: targets.count) }
    let total = path.arc[path.arc.count - 1]
    guard total > 0.01 * unit else { return nil }
    var profile = SpeedProfile(
      corners: path.corners, total: total, unit: unit,
      slowdown: SwipeSynthesizer.clamp(model.cornerSlowdown, 0...0.95))

    // 4. Time: integrate ds / v along the polyline.
    let arc = path.arc
    vertices = path.vertices
    var previousSpeed = profile.speed(at: 0)
    times = [0]
    times.reserveCapacity(vertices.count)
    for m in 1..<vertices.count {
      let v = profile.speed(at: arc[m])
      times.append(times[m - 1] + (arc[m] - arc[m - 1]) / ((previousSpeed + v) / 2))
      previousSpeed = v
    }
  }

  /// `count` samples at equal time steps from the first vertex to the last.
  func samples(count: Int) -> [Vector] {
    let total = times[times.count - 1]
    var out: [Vector] = []
    out.reserveCapacity(count)
    var m = 0
    for k in 0..<count {
      let t = total * Double(k) / Double(count - 1)
      while m < times.count - 2 && times[m + 1] < t { m += 1 }
      let span = times[m + 1] - times[m]
      let f = span > 0 ? min(1, max(0, (t - times[m]) / span)) : 1
      out.append(vertices[m] + (vertices[m + 1] - vertices[m]) * f)
    }
    return out
  }
}

/// The track's polyline as it is drawn (step 2 of the model, with a human model's loops and
/// bows): its vertices, their arc lengths, and the corners where the finger slows down.
private struct TrackPath {
  let unit: Double
  /// The distance between vertices, about.
  let step: Double
  let shape: TrackShape?
  private(set) var vertices: [Vector]
  /// The arc length at each vertex.
  private(set) var arc: [Double] = [0]
  /// Each corner's arc length and sharpness (0 straight on, 1 reversal), and its vertex.
  private(set) var corners: [(arc: Double, sharpness: Double)] = []
  private var cornerVertices: [Int] = []
  /// The vertex index at each target (the apex of its corner), for the bows.
  private var apexes: [Int] = [0]
  /// The vertex indices where each target's loop ends (the apex itself without a loop).
  private var loopEnds: [Int] = []

  init(start: Vector, unit: Double, shape: TrackShape?) {
    self.unit = unit
    self.step = 0.05 * unit
    self.shape = shape
    vertices = [start]
  }

  private mutating func append(_ vertex: Vector) {
    arc.append(arc[arc.count - 1] + (vertex - vertices[vertices.count - 1]).length)
    vertices.append(vertex)
  }

  /// How many pieces of about `step` make `length`: 1…maxPiecesPerRun (NaN gives 1).
  private func pieceCount(_ length: Double) -> Int {
    let exact = (length / step).rounded(.up)
    guard exact >= 1 else { return 1 }
    // safe: exact is at least 1 and at most the cap here.
    return Int(min(exact, Double(SwipeSynthesizer.maxPiecesPerRun)))
  }

  private mutating func lineTo(_ end: Vector) {
    let start = vertices[vertices.count - 1]
    let pieces = pieceCount((end - start).length)
    for k in 1...pieces { append(start + (end - start) * (Double(k) / Double(pieces))) }
  }

  /// Draws `shape`'s loop at target `i`, if any, from the last vertex with the finger
  /// heading along `tangent`: a circle back to that vertex.
  private mutating func drawLoop(at i: Int, heading tangent: Vector) {
    defer { loopEnds.append(vertices.count - 1) }
    guard let loop = shape?.loops[i], loop.radius > 0 else { return }
    let length = tangent.length
    guard length > 1e-9 * unit else { return }
    let along = tangent * (1 / length)
    let normal = Vector(x: -along.y, y: along.x) * (loop.clockwise ? -1 : 1)
    let apex = vertices[vertices.count - 1]
    let center = apex + normal * loop.radius
    let pieces = max(8, pieceCount(2 * Double.pi * loop.radius))
    var middle = vertices.count - 1
    for k in 1...pieces {
      // Angle from the apex around the center, turning towards the normal's side.
      let phi = 2 * Double.pi * Double(k) / Double(pieces)
      let offset = (apex - center)
      let (c, s) = (cos(phi), sin(phi) * (loop.clockwise ? -1 : 1))
      append(
        k == pieces
          ? apex
          : center + Vector(x: offset.x * c - offset.y * s, y: offset.x * s + offset.y * c))
      if k == pieces / 2 { middle = vertices.count - 1 }
    }
    corners.append((arc[middle], loop.slowdown))
    cornerVertices.append(middle)
  }

  /// Draws the path through `targets`: straight lines, each inner target rounded off by a
  /// quadratic Bézier (the cuts drawn from `random`), with the shape's loops.
  mutating func draw(through targets: [Vector], synthesizer model: SwipeSynthesizer, random: inout SeededGenerator) {
    if shape != nil {
      drawLoop(at: 0, heading: targets[1] - targets[0])
    }
    for i in 1..<(targets.count - 1) {
      let corner = targets[i]
      let incoming = corner - targets[i - 1]
      let outgoing = targets[i + 1] - corner
      let lengths = (incoming.length, outgoing.length)
      guard lengths.0 > 1e-9 * unit, lengths.1 > 1e-9 * unit else {
        lineTo(corner)  // coincident targets: no corner to cut
        if shape != nil {
          apexes.append(vertices.count - 1)
          drawLoop(at: i, heading: lengths.1 > 1e-9 * unit ? outgoing : incoming)
        }
        continue
      }
      let cosine = (incoming.x * outgoing.x + incoming.y * outgoing.y) / (lengths.0 * lengths.1)
      let turn = acos(min(1, max(-1, cosine))) / Double.pi  // 0 straight on, 1 reversal
      let cut = SwipeSynthesizer.clamp(model.maxCornerCut, 0...10) * unit
      let cutBefore = SwipeSynthesizer.clamp(random.uniform(model.cornerCut), 0...0.5)
      let before = min(cutBefore * lengths.0, cut)
      let cutAfter = SwipeSynthesizer.clamp(random.uniform(model.cornerCut), 0...0.5)
      let after = min(cutAfter * lengths.1, cut)
      let entry = corner - incoming * (before / lengths.0)
      let exit = corner + outgoing * (after / lengths.1)
      lineTo(entry)
      let pieces = 2 * pieceCount((before + after) / 2)
      for k in 1...pieces {
        let t = Double(k) / Double(pieces)
        let a = (1 - t) * (1 - t)
        let b = 2 * (1 - t) * t
        let c = t * t
        append(
          Vector(
            x: a * entry.x + b * corner.x + c * exit.x, y: a * entry.y + b * corner.y + c * exit.y))
        if k == pieces / 2 {
          corners.append((arc[arc.count - 1], turn))
          cornerVertices.append(vertices.count - 1)
          if shape != nil {
            apexes.append(vertices.count - 1)
            drawLoop(at: i, heading: exit - entry)
          }
        }
      }
    }
    lineTo(targets[targets.count - 1])
    if shape != nil {
      apexes.append(vertices.count - 1)
      drawLoop(at: targets.count - 1, heading: targets[targets.count - 1] - targets[targets.count - 2])
    }
  }

  /// Bows: each stretch from a target's loop end to the next target's apex leaves its chord
  /// sideways by bows[i] × the chord's length at its middle, as a half sine. Then the arc
  /// lengths, and the corners' with them, are counted again.
  mutating func bow(_ shape: TrackShape, targetCount: Int) {
    var bent = false
    for i in 0..<min(shape.bows.count, targetCount - 1) where shape.bows[i] != 0 {
      let (from, to) = (loopEnds[i], apexes[i + 1])
      guard to > from + 1 else { continue }
      let chord = vertices[to] - vertices[from]
      let length = chord.length
      guard length > 1e-9 * unit else { continue }
      let normal = Vector(x: -chord.y / length, y: chord.x / length)
      var along = [0.0]
      for m in (from + 1)...to {
        along.append(along[along.count - 1] + (vertices[m] - vertices[m - 1]).length)
      }
      let total = along[along.count - 1]
      guard total > 0 else { continue }
      let bend = min(shape.bendLimit, max(-shape.bendLimit, shape.bows[i] * length))
      for m in (from + 1)..<to {
        let t = along[m - from] / total
        vertices[m] = vertices[m] + normal * (bend * sin(Double.pi * t))
      }
      bent = true
    }
    if bent {
      arc = [0]
      for m in 1..<vertices.count { arc.append(arc[m - 1] + (vertices[m] - vertices[m - 1]).length) }
      for c in corners.indices { corners[c].arc = arc[cornerVertices[c]] }
    }
  }
}

/// The finger's speed along the track (step 3 of the model): the ends ramp, corners dip,
/// long segments run faster. Read at ascending arc lengths only, so both lookups walk
/// forward: the work is linear in the vertices and corners (a quadratic scan made a
/// 60,000-key word take minutes).
private struct SpeedProfile {
  private let corners: [(arc: Double, sharpness: Double)]
  private let total: Double
  private let ramp: Double
  private let dipWidth: Double
  private let slowdown: Double
  /// Segment peak speeds at segment midpoints (segments split at the corners' apexes).
  private let peaks: [(mid: Double, speed: Double)]
  /// The first peak whose midpoint is at or beyond the last arc length read.
  private var nextPeak = 0
  /// A corner farther than 40 dip widths changes nothing: exp(-40² / 2) is exactly 0 in
  /// Double (it underflows below e^-745), so its factor is exactly 1 and skipping it keeps
  /// the product bit for bit.
  private let reach: Double
  /// The first corner not yet left behind by more than `reach`.
  private var firstCorner = 0

  init(corners: [(arc: Double, sharpness: Double)], total: Double, unit: Double, slowdown: Double) {
    self.corners = corners
    self.total = total
    ramp = min(total / 2, 1.5 * unit)
    dipWidth = 0.5 * unit
    self.slowdown = slowdown
    let bounds = [0] + corners.map(\.arc) + [total]
    peaks = zip(bounds, bounds.dropFirst()).map { a, b in
      (mid: (a + b) / 2, speed: min(2, max(0.5, ((b - a) / unit).squareRoot())))
    }
    reach = 40 * dipWidth
  }

  private mutating func peak(at s: Double) -> Double {
    while nextPeak < peaks.count && peaks[nextPeak].mid < s { nextPeak += 1 }
    guard nextPeak < peaks.count else { return peaks[peaks.count - 1].speed }
    guard nextPeak > 0 else { return peaks[0].speed }
    let (a, b) = (peaks[nextPeak - 1], peaks[nextPeak])
    return a.speed + (b.speed - a.speed) * (s - a.mid) / (b.mid - a.mid)
  }

  /// The speed at arc length `s`, at least the last one read.
  mutating func speed(at s: Double) -> Double {
    let start = sin(Double.pi / 2 * min(1, s / ramp))
    let end = sin(Double.pi / 2 * min(1, (total - s) / ramp))
    var v = 0.12 + 0.88 * start * end
    while firstCorner < corners.count && corners[firstCorner].arc < s - reach {
      firstCorner += 1
    }
    var c = firstCorner
    while c < corners.count && corners[c].arc <= s + reach {
      let d = (s - corners[c].arc) / dipWidth
      v *= 1 - slowdown * corners[c].sharpness * exp(-d * d / 2)
      c += 1
    }
    return max(0.02, v * peak(at: s))
  }
}
