import Foundation
import SwipeDecoder
import SwipeDict
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Measures how swipes are drawn — where they start and end, how close they pass the keys,
/// how long, hooked, looped and fast they are — so that real swipes and synthetic ones can
/// be compared figure by figure, and a ``HumanSwipeModel`` fitted to real ones.
///
/// ```swift
/// let statistics = SwipeStatistics(layout: dictionary.layout, swipes: try SwipeFile.read(path: "real.jsonl"))
/// print(statistics.summary.middle.radius.median)    // key widths
/// ```
///
/// Each swipe is measured against its label's key path on the layout
/// (``KeyboardLayout/keyPath(for:)``: case, accents and apostrophes do not matter, so the
/// label `im` measures like `I'm`). Distances are in key widths (``KeyboardLayout/keyWidth``);
/// `dx` grows to the right and `dy` downwards, as the layout's coordinates do. Per swipe
/// (see ``SwipeMeasurement`` for the exact definitions):
///
/// - the offset of the first point from the first key's center and of the last point from
///   the last key's center;
/// - the aim at each middle key: the offset of the point nearest it, where "nearest" is the
///   monotone alignment of the key path to the points that minimizes the summed distances
///   (so a key swiped twice is matched in order);
/// - the swiped length over the word's expected length (the polyline through the key centers);
/// - the hook at touch-down: the angle between the first 0.3 key widths of path and the
///   direction from the first point to the second key's center;
/// - the overshoot: the path length after the point aligned with the last key, and whether
///   the swipe ends off the keyboard (outside the box around all keys);
/// - loops at doubled letters: whether the path near the doubled key crosses itself around,
///   or turns by 270° or more, enclosing a round area (and the loop's size);
/// - the duration, the speed (key widths per second), the sampling intervals, the point count
///   and the roughness (the median distance of a point from the midpoint of its neighbours).
///
/// Swipes whose label is missing, cannot be typed on the layout or has a single key (a tap)
/// are counted in ``skipped`` and not measured.
public struct SwipeStatistics: Sendable {
  /// The measurements, one per measured swipe, in input order.
  public var measurements: [SwipeMeasurement]
  /// Swipes not measured, by reason: `"no word"`, `"untypeable word"`, `"one key"`.
  public var skipped: [String: Int]
  /// The medians, quantiles and shares of the measurements.
  public var summary: Summary

  /// Measures `swipes` against their labels on `layout`.
  /// - Parameters:
  ///   - layout: the layout the swipes were drawn on.
  ///   - swipes: the swipes; their `word` is the label.
  public init(layout: KeyboardLayout, swipes: [Swipe]) {
    let geometry = Geometry(layout: layout)
    var measurements: [SwipeMeasurement] = []
    var skipped: [String: Int] = [:]
    for swipe in swipes {
      guard let word = swipe.word else {
        skipped["no word", default: 0] += 1
        continue
      }
      guard let keys = Self.keys(of: word, on: layout) else {
        skipped["untypeable word", default: 0] += 1
        continue
      }
      guard keys.path.count >= 2 else {
        skipped["one key", default: 0] += 1
        continue
      }
      measurements.append(
        SwipeMeasurement(
          word: word, keyPath: keys.path, doubled: keys.doubled, points: swipe.points,
          geometry: geometry))
    }
    self.measurements = measurements
    self.skipped = skipped
    summary = Summary(measurements)
  }

  /// Measures `swipes` on the layout of `dictionary` (the geometry its features use).
  /// - Parameters:
  ///   - dictionary: the blob.
  ///   - swipes: the swipes; their `word` is the label.
  public init(dictionary: SwipeDictionary, swipes: [Swipe]) {
    self.init(layout: dictionary.layout, swipes: swipes)
  }

  /// The key path of `word` and the indices into it of keys typed twice in a row (the "l"
  /// of "hello"), or `nil` when a character has no key.
  static func keys(of word: String, on layout: KeyboardLayout) -> (path: [Int], doubled: [Int])? {
    var path: [Int] = []
    var doubled: [Int] = []
    for scalar in word.unicodeScalars {
      switch layout.classify(scalar) {
      case .key(let index):
        if path.last == index {
          if doubled.last != path.count - 1 { doubled.append(path.count - 1) }
        } else {
          path.append(index)
        }
      case .skipped: continue
      case .untypeable: return nil
      }
    }
    return (path, doubled)
  }
}

/// An offset from a key's center, in key widths (`dx` to the right, `dy` downwards).
public struct KeyOffset: Sendable, Hashable {
  /// The horizontal offset.
  public var dx: Double
  /// The vertical offset (positive below the center).
  public var dy: Double
  /// The distance from the center.
  public var radius: Double { (dx * dx + dy * dy).squareRoot() }

  /// An offset.
  public init(dx: Double, dy: Double) {
    self.dx = dx
    self.dy = dy
  }
}

/// What ``SwipeStatistics`` measures on one swipe. Lengths are in key widths, times in
/// milliseconds, angles in degrees.
public struct SwipeMeasurement: Sendable {
  /// The label.
  public var word: String
  /// The keys of the label's key path (at least 2).
  public var keyCount: Int
  /// The swipe's points.
  public var pointCount: Int
  /// The first point's offset from the first key's center.
  public var start: KeyOffset
  /// The last point's offset from the last key's center.
  public var end: KeyOffset
  /// For each middle key (all but the first and the last), the offset of the point the
  /// alignment matched to it; empty when the swipe has too many points × keys to align
  /// (over 4,000,000).
  public var middle: [KeyOffset]
  /// The swipe's path length over the polyline through its keys' centers; `nil` when those
  /// centers coincide.
  public var lengthRatio: Double?
  /// For each pair of consecutive keys whose aligned points are at least half a key width
  /// apart, the path length between those points over their straight distance (1 for a
  /// straight stroke; detours around keys make it larger).
  public var stretchRatios: [Double]
  /// For the same stretches, the largest distance of the path from the straight line
  /// between their ends, key widths.
  public var stretchDeviations: [Double]
  /// The angle between the direction of the first 0.3 key widths of path and the direction
  /// from the first point to the second key's center, 0…180°; `nil` when the path is
  /// shorter than 0.3 key widths or starts on the second key's center.
  public var hookAngle: Double?
  /// How far the first key width of path strays from the line from the first point to the
  /// second key's center (the largest distance from that line); `nil` as for ``hookAngle``.
  public var hookSize: Double?
  /// The path length after the point aligned with the last key (0 when it is the last);
  /// `nil` when the swipe was not aligned.
  public var overshoot: Double?
  /// Whether the last point is outside the box around all keys.
  public var endsOffKeyboard: Bool
  /// For each doubled letter of the label (the "l" of "hello"), the size of the loop drawn
  /// near its key (its largest extent), or `nil` when there is none.
  public var doubledLetterLoops: [Double?]
  /// For a label without doubled letters and with 3 keys or more, whether the loop detector
  /// finds a loop at its middle key (how often the detector fires where no loop is
  /// expected); `nil` otherwise.
  public var loopAtPlainKey: Bool?
  /// The time from the first point to the last; `nil` without times or when it is 0.
  public var duration: Double?
  /// The path length per second of ``duration``.
  public var speed: Double?
  /// The times between consecutive points.
  public var intervals: [Double]
  /// The median distance of an inner point from the midpoint of its two neighbours (how
  /// wobbly the sampled path is); `nil` below 3 points.
  public var roughness: Double?

  /// The largest points × keys product the alignment takes on (4,000,000 steps).
  static let maxAlignmentWork = 4_000_000

  init(
    word: String, keyPath: [Int], doubled: [Int], points: [SwipePoint], geometry: Geometry
  ) {
    let unit = geometry.unit
    let centers = keyPath.map { geometry.centers[$0] }
    let path = points.map { Vector(x: Double($0.x), y: Double($0.y)) }
    self.word = word
    keyCount = keyPath.count
    pointCount = points.count
    func offset(_ point: Vector, _ center: Vector) -> KeyOffset {
      KeyOffset(dx: (point.x - center.x) / unit, dy: (point.y - center.y) / unit)
    }
    // safe: a Swipe has at least one point (SwipeFile refuses empty ones) — but be total.
    let first = path.first ?? centers[0]
    let last = path.last ?? centers[centers.count - 1]
    start = offset(first, centers[0])
    end = offset(last, centers[centers.count - 1])
    endsOffKeyboard = !geometry.bounds.contains(last)

    let arc = Self.arcLengths(path)
    let length = arc[arc.count - 1]
    var expected = 0.0
    for (a, b) in zip(centers, centers.dropFirst()) { expected += (b - a).length }
    lengthRatio = expected > 1e-9 * unit ? length / expected : nil

    // Alignment: key i ↦ point index, nondecreasing, minimizing the summed distances.
    let aligned = Self.align(centers, to: path)
    middle =
      aligned.map { indices in
        (1..<max(1, centers.count - 1)).map { offset(path[indices[$0]], centers[$0]) }
      } ?? []
    overshoot = aligned.map { (length - arc[$0[$0.count - 1]]) / unit }
    (stretchRatios, stretchDeviations) =
      aligned.map { Self.stretches(path, arc: arc, aligned: $0, unit: unit) } ?? ([], [])
    (hookAngle, hookSize) = Self.hook(path, arc: arc, first: first, second: centers[1], unit: unit)

    // Loops.
    let anchors = aligned
    doubledLetterLoops = doubled.map { i in
      Self.loop(in: path, near: centers[i], around: anchors?[i], unit: unit)
    }
    if doubled.isEmpty && centers.count >= 3 {
      let i = centers.count / 2
      loopAtPlainKey = Self.loop(in: path, near: centers[i], around: anchors?[i], unit: unit) != nil
    } else {
      loopAtPlainKey = nil
    }

    // Time.
    let times = points.compactMap { $0.time.map(Double.init) }
    if times.count == points.count, let t0 = times.first, let t1 = times.last, t1 > t0 {
      duration = t1 - t0
      speed = length / unit / ((t1 - t0) / 1000)
      intervals = zip(times, times.dropFirst()).map { $1 - $0 }
    } else {
      duration = nil
      speed = nil
      intervals = []
    }
    roughness = Self.roughness(path, unit: unit)
  }

  /// The arc length at each point of `path`.
  private static func arcLengths(_ path: [Vector]) -> [Double] {
    var arc: [Double] = [0]
    arc.reserveCapacity(path.count)
    for (a, b) in zip(path, path.dropFirst()) { arc.append(arc[arc.count - 1] + (b - a).length) }
    return arc
  }

  /// Each stretch between aligned points at least half a key width apart: its length over
  /// its chord's, and its farthest distance from the chord (key widths).
  private static func stretches(
    _ path: [Vector], arc: [Double], aligned indices: [Int], unit: Double
  ) -> (ratios: [Double], deviations: [Double]) {
    var ratios: [Double] = []
    var deviations: [Double] = []
    for (a, b) in zip(indices, indices.dropFirst()) {
      let chord = path[b] - path[a]
      let length = chord.length
      guard length >= 0.5 * unit else { continue }
      ratios.append((arc[b] - arc[a]) / length)
      var farthest = 0.0
      for point in path[a...b] {
        let d = point - path[a]
        farthest = max(farthest, abs(d.x * chord.y - d.y * chord.x) / length)
      }
      deviations.append(farthest / unit)
    }
    return (ratios, deviations)
  }

  /// The hook at touch-down: the angle (degrees) between the heading 0.3 key widths in and
  /// the line to the second key, and the farthest the first key width strays from that line
  /// (key widths); `nil` when the path is too short or the first two keys meet.
  private static func hook(
    _ path: [Vector], arc: [Double], first: Vector, second: Vector, unit: Double
  ) -> (angle: Double?, size: Double?) {
    let toSecond = second - first
    guard let k = arc.firstIndex(where: { $0 >= 0.3 * unit }), toSecond.length > 1e-9 * unit else {
      return (nil, nil)
    }
    let heading = path[k] - first
    let cross = heading.x * toSecond.y - heading.y * toSecond.x
    let dot = heading.x * toSecond.x + heading.y * toSecond.y
    var farthest = 0.0
    for (point, s) in zip(path, arc) where s <= unit {
      let d = point - first
      farthest = max(farthest, abs(d.x * toSecond.y - d.y * toSecond.x) / toSecond.length)
    }
    return (abs(atan2(cross, dot)) * 180 / Double.pi, farthest / unit)
  }

  /// The median distance of an inner point from the midpoint of its neighbours (key widths);
  /// `nil` below 3 points.
  private static func roughness(_ path: [Vector], unit: Double) -> Double? {
    guard path.count >= 3 else { return nil }
    var deviations: [Double] = []
    deviations.reserveCapacity(path.count - 2)
    for k in 1..<(path.count - 1) {
      deviations.append((path[k] - (path[k - 1] + path[k + 1]) * 0.5).length / unit)
    }
    deviations.sort()
    return quantile(deviations, 0.5)
  }

  /// The monotone alignment of `centers` to `points` with the least summed distance: for
  /// each center, the index of its point (nondecreasing). `nil` when the work would exceed
  /// ``maxAlignmentWork``.
  static func align(_ centers: [Vector], to points: [Vector]) -> [Int]? {
    let n = centers.count
    let m = points.count
    guard n > 0, m > 0, n * m <= maxAlignmentWork else { return nil }  // n, m ≤ 10⁴ or so
    var back = [Int](repeating: 0, count: n * m)
    var previous = points.map { ($0 - centers[0]).length }
    for i in 1..<n {  // empty for one key
      var current = [Double](repeating: 0, count: m)
      var best = 0
      for j in 0..<m {
        if previous[j] < previous[best] { best = j }
        current[j] = previous[best] + (points[j] - centers[i]).length
        back[i * m + j] = best
      }
      previous = current
    }
    var indices = [Int](repeating: 0, count: n)
    var j = 0
    for k in 0..<m where previous[k] < previous[j] { j = k }
    indices[n - 1] = j
    var i = n - 1
    while i > 0 {
      j = back[i * m + j]
      indices[i - 1] = j
      i -= 1
    }
    return indices
  }

  /// The size (largest extent, key widths) of a loop the path draws within one key width of
  /// `center`, in the stretch of points around `anchor` that stays that close; `nil` when
  /// there is none.
  ///
  /// The stretch is resampled every 0.1 key widths (sensor noise draws no loops then). A loop
  /// is a self-crossing, or a run whose heading turns by 270° or more; either way the part of
  /// the path it closes must be at least 0.2 key widths across and enclose at least 0.2 ×
  /// its extent² (a round loop encloses 0.79 ×; a reversal that crosses its own track
  /// encloses almost nothing).
  static func loop(in path: [Vector], near center: Vector, around anchor: Int?, unit: Double)
    -> Double?
  {
    let radius = unit
    let anchor =
      anchor
      ?? path.indices.min { (path[$0] - center).length < (path[$1] - center).length } ?? 0
    guard path.indices.contains(anchor), (path[anchor] - center).length <= radius else {
      return nil
    }
    var a = anchor
    while a > 0 && (path[a - 1] - center).length <= radius { a -= 1 }
    var b = anchor
    while b < path.count - 1 && (path[b + 1] - center).length <= radius { b += 1 }
    var stretch: [Vector] = [path[a]]
    for point in path[a...b] where (point - stretch[stretch.count - 1]).length >= 0.1 * unit {
      stretch.append(point)
      if stretch.count >= 400 { break }  // bounds the quadratic scans below
    }
    func closes(_ part: ArraySlice<Vector>) -> Double? {
      guard part.count >= 3 else { return nil }
      var (minX, maxX, minY, maxY) = (Double.infinity, -Double.infinity, Double.infinity, -Double.infinity)
      var twiceArea = 0.0
      var previous = part[part.endIndex - 1]
      for point in part {
        minX = min(minX, point.x)
        maxX = max(maxX, point.x)
        minY = min(minY, point.y)
        maxY = max(maxY, point.y)
        twiceArea += previous.x * point.y - point.x * previous.y
        previous = point
      }
      let size = max(maxX - minX, maxY - minY) / unit
      let area = abs(twiceArea) / 2 / (unit * unit)
      return size >= 0.2 && area >= 0.2 * size * size ? size : nil
    }
    let count = stretch.count
    guard count >= 4 else { return nil }
    // Self-crossings between non-adjacent segments.
    for i in 0..<(count - 1) {
      for k in (i + 2)..<max(i + 2, count - 1) {
        if intersects(stretch[i], stretch[i + 1], stretch[k], stretch[k + 1]),
          let size = closes(stretch[(i + 1)...k])
        {
          return size
        }
      }
    }
    // Turning by 270° or more.
    var headings: [Double] = []
    for (p, q) in zip(stretch, stretch.dropFirst()) { headings.append(atan2(q.y - p.y, q.x - p.x)) }
    var turning: [Double] = [0]
    for (h, g) in zip(headings, headings.dropFirst()) {
      var t = g - h
      if t > Double.pi { t -= 2 * Double.pi }
      if t < -Double.pi { t += 2 * Double.pi }
      turning.append(turning[turning.count - 1] + t)
    }
    let full = 1.5 * Double.pi
    for i in 0..<turning.count {
      for k in (i + 1)..<max(i + 1, turning.count) where abs(turning[k] - turning[i]) >= full {
        // Turns i+1…k are between segments i…k+1: points i…k+1.
        if let size = closes(stretch[i...min(k + 1, count - 1)]) { return size }
        break
      }
    }
    return nil
  }

  /// Whether segment `a`–`b` properly crosses segment `c`–`d`.
  static func intersects(_ a: Vector, _ b: Vector, _ c: Vector, _ d: Vector) -> Bool {
    func cross(_ o: Vector, _ p: Vector, _ q: Vector) -> Double {
      (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x)
    }
    return cross(c, d, a) * cross(c, d, b) < 0 && cross(a, b, c) * cross(a, b, d) < 0
  }
}

/// The layout's key centers and the box around its keys, in Double.
struct Geometry: Sendable {
  var unit: Double
  var centers: [Vector]
  var bounds: Box

  struct Box: Sendable {
    var minX, maxX, minY, maxY: Double
    func contains(_ p: Vector) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
  }

  init(layout: KeyboardLayout) {
    unit = Double(layout.keyWidth)
    centers = layout.keys.map { Vector(x: Double($0.x), y: Double($0.y)) }
    var box = Box(minX: .infinity, maxX: -.infinity, minY: .infinity, maxY: -.infinity)
    for key in layout.keys {
      box.minX = min(box.minX, Double(key.x - key.width / 2))
      box.maxX = max(box.maxX, Double(key.x + key.width / 2))
      box.minY = min(box.minY, Double(key.y - key.height / 2))
      box.maxY = max(box.maxY, Double(key.y + key.height / 2))
    }
    bounds = box
  }
}

// MARK: - Summary

extension SwipeStatistics {
  /// The 10th, 50th and 90th percentiles of a measured quantity (nearest rank, as
  /// ``quantile(_:_:)``), and how many values they come from.
  public struct Spread: Sendable, Hashable {
    /// How many values.
    public var count: Int
    /// The 10th percentile.
    public var p10: Double
    /// The median.
    public var median: Double
    /// The 90th percentile.
    public var p90: Double
    /// A robust standard deviation: (p90 − p10) / 2.563, the σ of a normal distribution with
    /// these percentiles.
    public var sigma: Double { (p90 - p10) / 2.563 }

    /// The spread of `values` (any order); zeros when empty.
    public init(_ values: [Double]) {
      let sorted = values.filter { $0.isFinite }.sorted()
      count = sorted.count
      p10 = quantile(sorted, 0.1)
      median = quantile(sorted, 0.5)
      p90 = quantile(sorted, 0.9)
    }
  }

  /// How often something happens among `count` cases.
  public struct Share: Sendable, Hashable {
    /// The cases where it happens.
    public var hits: Int
    /// The cases.
    public var count: Int
    /// `hits / count`, 0 when there are no cases.
    public var fraction: Double { count > 0 ? Double(hits) / Double(count) : 0 }

    /// The share of `true` among `flags`.
    public init(_ flags: [Bool]) {
      hits = flags.lazy.filter { $0 }.count
      count = flags.count
    }
  }

  /// Offsets from key centers: per axis and as a radius.
  public struct OffsetSpread: Sendable, Hashable {
    /// The horizontal offsets.
    public var dx: Spread
    /// The vertical offsets.
    public var dy: Spread
    /// The distances.
    public var radius: Spread

    init(_ offsets: [KeyOffset]) {
      dx = Spread(offsets.map(\.dx))
      dy = Spread(offsets.map(\.dy))
      radius = Spread(offsets.map(\.radius))
    }
  }

  /// The statistics of a set of swipes (key widths, milliseconds, degrees).
  public struct Summary: Sendable, Hashable {
    /// Measured swipes.
    public var swipeCount: Int
    /// The first point's offset from the first key.
    public var start: OffsetSpread
    /// The aim at middle keys (the aligned point's offset).
    public var middle: OffsetSpread
    /// The last point's offset from the last key.
    public var end: OffsetSpread
    /// Swiped length ÷ expected length.
    public var lengthRatio: Spread
    /// Path length ÷ straight distance between the points aligned with consecutive keys.
    public var stretchRatio: Spread
    /// Stretches whose ratio is over 1.25 (detours).
    public var detoured: Share
    /// The ratio of those stretches.
    public var detourRatio: Spread
    /// How far stretches stray from the straight line between their ends.
    public var stretchDeviation: Spread
    /// The hook angle at touch-down.
    public var hookAngle: Spread
    /// Swipes whose hook angle is over 60°.
    public var hooked: Share
    /// How far the hooked swipes' first key width strays from the line to the second key.
    public var hookSize: Spread
    /// Path length after the point aligned with the last key.
    public var overshoot: Spread
    /// Swipes whose overshoot is at least 0.25 key widths.
    public var overshooting: Share
    /// The overshoot of those swipes.
    public var overshootLength: Spread
    /// Swipes that end off the keyboard.
    public var endsOffKeyboard: Share
    /// Doubled letters with a loop near their key.
    public var loopsAtDoubledLetters: Share
    /// The size of those loops.
    public var loopSize: Spread
    /// Middle keys of words without doubled letters where the detector finds a loop.
    public var loopsAtPlainKeys: Share
    /// Duration of a swipe.
    public var duration: Spread
    /// The power law through the median duration of each key count, fitted by weighted
    /// least squares on their logarithms (each count weighted by its swipes): a swipe over
    /// `n` keys lasts about `durationPerKey × n ^ durationExponent` ms.
    public var durationPerKey: Double
    /// See ``durationPerKey``.
    public var durationExponent: Double
    /// The natural logarithm of duration ÷ that power law.
    public var durationLogResidual: Spread
    /// Key widths per second.
    public var speed: Spread
    /// Times between consecutive points (all swipes pooled).
    public var interval: Spread
    /// Intervals longer than 1.5 × the median interval (samples the sensor did not send).
    public var longIntervals: Share
    /// Points per swipe.
    public var pointCount: Spread
    /// Per-swipe roughness.
    public var roughness: Spread

    /// Summarizes measurements.
    public init(_ measurements: [SwipeMeasurement]) {
      swipeCount = measurements.count
      start = OffsetSpread(measurements.map(\.start))
      middle = OffsetSpread(measurements.flatMap(\.middle))
      end = OffsetSpread(measurements.map(\.end))
      lengthRatio = Spread(measurements.compactMap(\.lengthRatio))
      let stretches = measurements.flatMap(\.stretchRatios)
      stretchRatio = Spread(stretches)
      detoured = Share(stretches.map { $0 > 1.25 })
      detourRatio = Spread(stretches.filter { $0 > 1.25 })
      stretchDeviation = Spread(measurements.flatMap(\.stretchDeviations))
      hookAngle = Spread(measurements.compactMap(\.hookAngle))
      hooked = Share(measurements.compactMap { $0.hookAngle.map { $0 > 60 } })
      hookSize = Spread(
        measurements.compactMap { ($0.hookAngle ?? 0) > 60 ? $0.hookSize : nil })
      let overshoots = measurements.compactMap(\.overshoot)
      overshoot = Spread(overshoots)
      overshooting = Share(overshoots.map { $0 >= 0.25 })
      overshootLength = Spread(overshoots.filter { $0 >= 0.25 })
      endsOffKeyboard = Share(measurements.map(\.endsOffKeyboard))
      let loops = measurements.flatMap(\.doubledLetterLoops)
      loopsAtDoubledLetters = Share(loops.map { $0 != nil })
      loopSize = Spread(loops.compactMap { $0 })
      loopsAtPlainKeys = Share(measurements.compactMap(\.loopAtPlainKey))
      let timed = measurements.filter { $0.duration != nil }
      duration = Spread(timed.compactMap(\.duration))
      (durationPerKey, durationExponent) = Self.durationCurve(timed)
      let (scale, exponent) = (durationPerKey, durationExponent)
      durationLogResidual = Spread(
        timed.compactMap { m in
          let predicted = scale * pow(Double(m.keyCount), exponent)
          guard let d = m.duration, predicted > 0 else { return nil }
          return log(d / predicted)
        })
      speed = Spread(measurements.compactMap(\.speed))
      let intervals = measurements.flatMap(\.intervals)
      interval = Spread(intervals)
      let typical = interval.median
      longIntervals = Share(intervals.map { $0 > 1.5 * typical })
      pointCount = Spread(measurements.map { Double($0.pointCount) })
      roughness = Spread(measurements.compactMap(\.roughness))
    }

    /// The weighted least-squares fit of ln(median duration) = ln(a) + b ln(keys) over the key
    /// counts; `b` = 1 when there is one key count, zeros without times.
    static func durationCurve(_ timed: [SwipeMeasurement]) -> (perKey: Double, exponent: Double) {
      var byCount: [Int: [Double]] = [:]
      for m in timed {
        if let d = m.duration, d > 0 { byCount[m.keyCount, default: []].append(d) }
      }
      var (sw, sx, sy, sxx, sxy) = (0.0, 0.0, 0.0, 0.0, 0.0)
      // In key order: the sums' rounding must not depend on the dictionary's order.
      for (count, durations) in byCount.sorted(by: { $0.key < $1.key }) {
        let w = Double(durations.count)
        let x = log(Double(count))
        let y = log(quantile(durations.sorted(), 0.5))
        sw += w
        sx += w * x
        sy += w * y
        sxx += w * x * x
        sxy += w * x * y
      }
      guard sw > 0 else { return (0, 0) }
      let denominator = sw * sxx - sx * sx
      guard denominator > 1e-9 * sw * sw else { return (exp((sy - sx) / sw), 1) }
      let slope = (sw * sxy - sx * sy) / denominator
      return (exp((sy - slope * sx) / sw), slope)
    }

    /// The rows of a side-by-side table: a label and the value as text (key widths, ms,
    /// degrees and percentages, 2 decimals; `–` where nothing was measured).
    public var rows: [(label: String, value: String)] {
      func spread(_ s: Spread, places: Int = 2) -> String {
        s.count > 0
          ? "\(fixedDecimal(s.median, places: places)) (\(fixedDecimal(s.p10, places: places))…\(fixedDecimal(s.p90, places: places)))"
          : "–"
      }
      func share(_ s: Share) -> String {
        s.count > 0 ? "\(fixedDecimal(100 * s.fraction, places: 1)) % of \(s.count)" : "–"
      }
      return [
        ("swipes measured", String(swipeCount)),
        ("start dx, key widths: median (p10…p90)", spread(start.dx)),
        ("start dy", spread(start.dy)),
        ("start distance", spread(start.radius)),
        ("middle-key dx", spread(middle.dx)),
        ("middle-key dy", spread(middle.dy)),
        ("middle-key distance", spread(middle.radius)),
        ("end dx", spread(end.dx)),
        ("end dy", spread(end.dy)),
        ("end distance", spread(end.radius)),
        ("length ÷ expected length", spread(lengthRatio)),
        ("stretch between keys ÷ its chord", spread(stretchRatio)),
        ("detours (stretches over 1.25 × chord)", share(detoured)),
        ("their ratio", spread(detourRatio)),
        ("stretch's farthest point off its chord, key widths", spread(stretchDeviation)),
        ("hook angle at touch-down, °", spread(hookAngle, places: 1)),
        ("hooks over 60°", share(hooked)),
        ("hook size (hooked), key widths", spread(hookSize)),
        ("overshoot past the last key", spread(overshoot)),
        ("overshoots of 0.25 key widths or more", share(overshooting)),
        ("their length", spread(overshootLength)),
        ("ends off the keyboard", share(endsOffKeyboard)),
        ("loops at doubled letters", share(loopsAtDoubledLetters)),
        ("loop size", spread(loopSize)),
        ("loops at other keys (detector's false alarms)", share(loopsAtPlainKeys)),
        ("speed, key widths/s", spread(speed, places: 1)),
        ("duration, ms", spread(duration, places: 1)),
        (
          "duration ≈ a × keys^b, ms",
          duration.count > 0
            ? "\(fixedDecimal(durationPerKey, places: 1)) × keys^\(fixedDecimal(durationExponent, places: 2))"
            : "–"
        ),
        ("duration ÷ that curve, ln", spread(durationLogResidual)),
        ("sampling interval, ms", spread(interval, places: 1)),
        ("intervals over 1.5 × median", share(longIntervals)),
        ("points per swipe", spread(pointCount, places: 1)),
        ("roughness, key widths", spread(roughness, places: 3)),
      ].map { (label: $0.0, value: $0.1) }
    }
  }
}
