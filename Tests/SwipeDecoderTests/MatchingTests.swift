import SwipeDictTools
import Testing

@testable import SwipeDecoder

/// The segment DTW computed the plain way: the whole table, point by point (row-major, as
/// the thesis adds rows while the finger moves), over the perfect swipe's list of segments.
/// An independent check of the column-wise computation with its prefix cache.
private func referenceCost(
  points: [(x: Float, y: Float)], keys: [Int], centers: [(x: Float, y: Float)],
  band: SegmentDTW.Band
) -> Float? {
  // Segments (from, to) with the perfect swipe's length at their ends.
  var segments: [(a: (x: Float, y: Float), b: (x: Float, y: Float), e0: Float, e1: Float)] = []
  var length: Float = 0
  for (d, key) in keys.enumerated() {
    let c = centers[key]
    if d > 0 {
      let p = centers[keys[d - 1]]
      let step = ((c.x - p.x) * (c.x - p.x) + (c.y - p.y) * (c.y - p.y)).squareRoot()
      segments.append((p, c, length, length + step))
      length += step
    }
    segments.append((c, c, length, length))
  }
  var arcs: [Float] = [0]
  for (a, b) in zip(points, points.dropFirst()) {
    arcs.append(arcs[arcs.count - 1] + ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
  }
  func project(_ p: (x: Float, y: Float), _ s: Int, from t0: Float) -> (cost: Float, t: Float) {
    let (a, b, _, _) = segments[s]
    let vx = b.x - a.x
    let vy = b.y - a.y
    let vv = vx * vx + vy * vy
    let t = vv > 0 ? max(t0, min(1, max(0, ((p.x - a.x) * vx + (p.y - a.y) * vy) / vv))) : 0
    let ex = p.x - a.x - t * vx
    let ey = p.y - a.y - t * vy
    return (ex * ex + ey * ey, t)
  }
  let n = segments.count
  var cost = [[Float]](repeating: [Float](repeating: .infinity, count: n), count: points.count)
  var position = [[Float]](repeating: [Float](repeating: 0, count: n), count: points.count)
  for i in points.indices {
    for j in 0..<n {
      let s = segments[j]
      guard arcs[i] >= band.ratio.lowerBound * s.e0 - band.slack,
        arcs[i] <= band.ratio.upperBound * s.e1 + band.slack
      else { continue }
      if i == 0 && j == 0 {
        cost[0][0] = project(points[0], 0, from: 0).cost
        continue
      }
      // From the previous segment (same point or the previous point): anywhere on it.
      var best = Float.infinity
      var bestT: Float = 0
      if j > 0 {
        let previous = min(cost[i][j - 1], i > 0 ? cost[i - 1][j - 1] : .infinity)
        let fresh = project(points[i], j, from: 0)
        if previous + fresh.cost < best { (best, bestT) = (previous + fresh.cost, fresh.t) }
      }
      // From the previous point on the same segment: no moving back.
      if i > 0, cost[i - 1][j] < .infinity {
        let stay = project(points[i], j, from: position[i - 1][j])
        if cost[i - 1][j] + stay.cost < best { (best, bestT) = (cost[i - 1][j] + stay.cost, stay.t) }
      }
      cost[i][j] = best
      position[i][j] = bestT
    }
  }
  let total = cost[points.count - 1][n - 1]
  return total < .infinity ? total : nil
}

@Suite("Segment DTW and input reduction")
struct MatchingTests {
  let wide = SegmentDTW.Band(ratio: 0...1000, slack: 1000)

  @Test("hand-computed costs: one point per segment, and no moving back along a segment")
  func handComputed() {
    let centers: [(x: Float, y: Float)] = [(0, 0), (2, 0), (3, 0)]
    // Each point half a key width off: S0, the segment 0→1 and S1 get one point each.
    var dtw = SegmentDTW(points: [(0, 0.5), (1, 0.5), (2, 0.5)], centers: centers, band: wide)
    #expect(dtw.cost(keys: [0, 1], bound: .infinity) == 0.75)
    // Back and forth on the segment 0→2: the point at 1 after the one at 2 is held at 2.
    dtw = SegmentDTW(points: [(0, 0), (2, 0), (1, 0), (3, 0)], centers: [(0, 0), (3, 0)], band: wide)
    #expect(dtw.cost(keys: [0, 1], bound: .infinity) == 1)
    // A bound below the cost stops the match; one at the cost does not.
    #expect(dtw.cost(keys: [0, 1], bound: 0.99) == nil)
    #expect(dtw.cost(keys: [0, 1], bound: 1) == 1)
  }

  @Test(
    "the column-wise table with its prefix cache equals the plain point-by-point table", arguments: [UInt64(1), 2, 3])
  func prefixCacheIsExact(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let centers = (0..<12).map { _ in
      (x: Float.random(in: 0...10, using: &random), y: Float.random(in: 0...3, using: &random))
    }
    let bands = [wide, SegmentDTW.Band(ratio: 0.5...2, slack: 1.5), SegmentDTW.Band(ratio: 0.8...1.2, slack: 0.5)]
    for trial in 0..<20 {
      let points = (0..<Int.random(in: 1...30, using: &random)).map { _ in
        (x: Float.random(in: -1...11, using: &random), y: Float.random(in: -1...4, using: &random))
      }
      let band = bands[trial % bands.count]
      var dtw = SegmentDTW(points: points, centers: centers, band: band)
      let uncached = dtw
      var previous: [UInt8] = []
      for _ in 0..<40 {
        // Often a word sharing a prefix with the previous one, as in ID order.
        var keys = Array(previous.prefix(Int.random(in: 0...previous.count, using: &random)))
        for _ in 0..<Int.random(in: (keys.isEmpty ? 1 : 0)...5, using: &random) {
          var key = UInt8.random(in: 0..<12, using: &random)
          while key == keys.last { key = UInt8.random(in: 0..<12, using: &random) }
          keys.append(key)
        }
        let expected = referenceCost(points: points, keys: keys.map(Int.init), centers: centers, band: band)
        let cached = dtw.cost(keys: keys, bound: .infinity)
        // The same arithmetic in another order: equal up to rounding.
        #expect((cached == nil) == (expected == nil), "keys \(keys)")
        if let cached, let expected {
          #expect(abs(cached - expected) <= 1e-5 * max(1, expected), "keys \(keys): \(cached) vs \(expected)")
        }
        // The quick lower bound never exceeds the cost.
        if let expected { #expect(dtw.lowerBound(keys: keys) <= expected * (1 + 1e-5), "keys \(keys)") }
        // The cache itself is exact: bit for bit what a fresh table computes.
        var fresh = uncached
        #expect(cached == fresh.cost(keys: keys, bound: .infinity), "keys \(keys) after \(previous)")
        // Pruning never drops a word within its bound (the column bounds look ahead at the
        // keys still to come), and never returns one beyond it.
        if let expected {
          let bound = expected * Float.random(in: 0.5...1.5, using: &random)
          var pruned = dtw
          let result = pruned.cost(keys: keys, bound: bound)
          if expected <= bound * (1 - 1e-5) { #expect(result != nil, "keys \(keys): \(expected) within \(bound)") }
          if let result { #expect(result <= bound) }
        }
        previous = keys
      }
    }
  }

  @Test("abandoned words leave a usable cache")
  func abandoningKeepsTheCacheExact() {
    var random = SeededGenerator(seed: 7)
    let centers = (0..<8).map { _ in
      (x: Float.random(in: 0...10, using: &random), y: Float.random(in: 0...3, using: &random))
    }
    let points = (0..<20).map { i in (x: Float(i) / 2, y: Float.random(in: 0...3, using: &random)) }
    var dtw = SegmentDTW(points: points, centers: centers, band: wide)
    let fresh = dtw
    func plain(_ keys: [UInt8]) -> Float? {
      var table = fresh
      return table.cost(keys: keys, bound: .infinity)
    }
    let words: [[UInt8]] = [[0, 1, 2, 3], [0, 1, 2, 4, 5], [0, 1, 6], [0, 1, 6, 7, 2], [3, 4], [3, 4, 5]]
    var abandoned = 0
    for (keys, next) in zip(words, words.dropFirst()) {
      let full = plain(keys) ?? 0
      // A bound between the quick bound and the cost: the word is abandoned part way...
      let bound = (dtw.lowerBound(keys: keys) + full) / 2
      if dtw.cost(keys: keys, bound: bound) == nil { abandoned += 1 }
      // ...and the next word, sharing some of its columns, must not notice.
      var check = dtw
      #expect(check.cost(keys: next, bound: .infinity) == plain(next), "\(next) after \(keys)")
    }
    #expect(abandoned >= 3)
  }

  @Test("input reduction keeps the ends, the corners and a point every maxGap on straight runs")
  func reduction() {
    var options = SwipeDecoder.Options.Reduction()
    (options.maxGap, options.minArea, options.maxAngle) = (1, 0.05, .pi / 2)
    // An L: 0→(4, 0)→(4, 3) in steps of 0.1 key widths (key width 10 units).
    var reducer = PointReducer(options: options, keyWidth: 10)
    var raw: [(x: Float, y: Float)] = []
    for i in 0...40 { raw.append((Float(i), 0)) }
    for i in 1...30 { raw.append((40, Float(i))) }
    for p in raw { reducer.add(x: p.x, y: p.y) }
    let kept = reducer.points
    #expect(kept.first! == (0, 0) && kept.last! == (4, 3))
    #expect(kept.contains { $0 == (4, 0) }, "the corner is kept exactly: \(kept)")
    for (a, b) in zip(kept, kept.dropFirst()) {
      let gap = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
      #expect(gap <= 1.0001, "\(a) → \(b)")
    }
    #expect(kept.count < 12, "\(kept.count) of \(raw.count) kept")
    // A reversal: out and back along a line keeps the turning point.
    reducer.reset()
    for i in 0...20 { reducer.add(x: Float(i), y: 0) }
    for i in (12..<20).reversed() { reducer.add(x: Float(i), y: 0) }
    #expect(reducer.points.contains { $0 == (2, 0) }, "\(reducer.points)")
    // A finger resting in place: one point (and the last), however many samples.
    reducer.reset()
    for _ in 0..<500 { reducer.add(x: 7, y: 7) }
    #expect(reducer.points.count <= 10)
  }
}
