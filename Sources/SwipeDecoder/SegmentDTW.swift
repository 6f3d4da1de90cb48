/// The swipe thesis's segment DTW between a swipe and words' perfect swipes, with a prefix
/// cache.
///
/// A word's *perfect swipe* over its key path k₁…kₙ is the sequence of 2n − 1 segments
/// (k₁→k₁), (k₁→k₂), (k₂→k₂), …, (kₙ→kₙ): each key centre to itself (a point: the finger
/// passes the key) and to the next. The swipe is a sequence of m points. The table
/// `D[i][j]` holds the least cost of matching points 0…i to segments 0…j in order, each
/// point to one or more consecutive segments and each segment to one or more consecutive
/// points:
///
///     D[i][j] = c(i, j) + min(D[i−1][j], D[i−1][j−1], D[i][j−1])
///
/// where `c(i, j)` is the squared distance from point i to segment j, in key widths². Two
/// refinements from the thesis:
/// - **Monotone position.** Consecutive points matched to the same segment may not move
///   back along it: a point coming from `D[i−1][j]` is projected onto the part of the
///   segment after where point i − 1 was, so swiping back and forth over a segment costs.
/// - **Locality.** A point may only match a segment when the swipe's length up to the point
///   fits the perfect swipe's length up to the segment: `A·e₀ − C ≤ ℓᵢ ≤ B·e₁ + C`, with
///   `e₀…e₁` the perfect swipe's length at the segment's ends (``Band``). Other cells are
///   infinite and cost nothing to compute.
///
/// The table is computed column by column: key by key. Each key of the path adds the column
/// of its incoming segment and of itself, from the previous key's last column only. So the
/// columns of a word's first keys are those of every word sharing those keys: words visited
/// in ID order share long prefixes, and the cache keeps the columns per depth and recomputes
/// from the first key that differs. The cache is exact: a word's cost is the same whatever
/// was computed before it.
///
/// Costs only grow along a path, and every path crosses every column, so the smallest value
/// of a column bounds the word's final cost from below: ``cost(keys:shared:bound:)`` stops as
/// soon as that exceeds the caller's bound.
struct SegmentDTW {
  /// The locality constraint: `A…B` (``ratio``) and `C` (``slack``, key widths).
  struct Band: Sendable, Hashable {
    var ratio: ClosedRange<Float>
    var slack: Float
  }

  /// The swipe's points, in key widths.
  private let xs: [Float]
  private let ys: [Float]
  /// The swipe's length up to each point, in key widths.
  private let arcs: [Float]
  /// The key centres, in key widths.
  private let centreX: [Float]
  private let centreY: [Float]
  private let band: Band
  /// The number of points (rows).
  let rows: Int

  /// Columns per depth, `depth × rows + i`: the incoming segment's cost and position on it,
  /// and the key's own cost. Depth 0 has only its own column.
  private var inCost: [Float] = []
  private var inPosition: [Float] = []
  private var ownCost: [Float] = []
  /// The perfect swipe's length up to each depth's key, in key widths.
  private var lengths: [Float] = []
  /// The key path whose first `valid` depths the columns hold.
  private var path: [UInt8] = []
  private var valid = 0

  /// Prepares the table for a swipe.
  /// - Parameters:
  ///   - points: the (reduced) swipe, in key widths; at least one point.
  ///   - centres: every key centre, in key widths.
  ///   - band: the locality constraint.
  init(points: [(x: Float, y: Float)], centres: [(x: Float, y: Float)], band: Band) {
    precondition(!points.isEmpty, "a swipe has at least one point")
    xs = points.map(\.x)
    ys = points.map(\.y)
    var arcs: [Float] = [0]
    for (a, b) in zip(points, points.dropFirst()) {
      let dx = b.x - a.x
      let dy = b.y - a.y
      arcs.append(arcs[arcs.count - 1] + (dx * dx + dy * dy).squareRoot())
    }
    self.arcs = arcs
    centreX = centres.map(\.x)
    centreY = centres.map(\.y)
    self.band = band
    rows = points.count
  }

  /// The least cost of matching the swipe to the perfect swipe of `keys` (key widths²,
  /// summed over the matched pairs), or `nil` when no match satisfies the locality
  /// constraint or every match costs more than `bound`.
  /// - Parameters:
  ///   - keys: the word's key path (indices into the centres; no key repeated in a row).
  ///   - shared: how many leading keys the path shares with the previous call's path.
  ///   - bound: stop as soon as the cost must exceed this.
  mutating func cost(keys: [UInt8], shared: Int, bound: Float) -> Float? {
    guard !keys.isEmpty, keys.allSatisfy({ Int($0) < centreX.count }) else { return nil }
    if keys.count > lengths.count { grow(to: keys.count) }
    var depth = min(shared, valid, keys.count)
    path.removeSubrange(depth...)
    while depth < keys.count {
      path.append(keys[depth])
      let lowest = computeColumns(depth: depth)
      valid = depth + 1
      if !(lowest <= bound) || lowest == .infinity { return nil }
      depth += 1
    }
    let total = ownCost[(keys.count - 1) * rows + rows - 1]
    return total <= bound && total < .infinity ? total : nil
  }

  private mutating func grow(to depth: Int) {
    let extra = depth - lengths.count
    lengths.append(contentsOf: repeatElement(0, count: extra))
    inCost.append(contentsOf: repeatElement(.infinity, count: extra * rows))
    inPosition.append(contentsOf: repeatElement(0, count: extra * rows))
    ownCost.append(contentsOf: repeatElement(.infinity, count: extra * rows))
  }

  /// Computes the columns of `depth` from those of `depth − 1`; returns the smallest value
  /// of the key's own column.
  private mutating func computeColumns(depth: Int) -> Float {
    let key = Int(path[depth])
    let bx = centreX[key]
    let by = centreY[key]
    let base = depth * rows
    let low = band.ratio.lowerBound
    let high = band.ratio.upperBound
    let slack = band.slack
    var lowest = Float.infinity

    if depth == 0 {
      lengths[0] = 0
      var previous = Float(0)
      for i in 0..<rows {
        var value = Float.infinity
        if arcs[i] <= slack {  // the locality band at length 0
          let dx = xs[i] - bx
          let dy = ys[i] - by
          value = previous + dx * dx + dy * dy
        }
        ownCost[i] = value
        previous = value
        lowest = min(lowest, value)
      }
      return lowest
    }

    let from = Int(path[depth - 1])
    let ax = centreX[from]
    let ay = centreY[from]
    let vx = bx - ax
    let vy = by - ay
    let vv = vx * vx + vy * vy
    let inverse = vv > 0 ? 1 / vv : 0
    let start = lengths[depth - 1]
    let end = start + vv.squareRoot()
    lengths[depth] = end
    // The band's rows: the incoming segment spans lengths start…end, the key only end.
    let inLow = low * start - slack
    let ownLow = low * end - slack
    let upper = high * end + slack
    let previousBase = base - rows

    var upIn = Float.infinity  // D[i−1][in]
    var upPosition = Float(0)
    var upOwn = Float.infinity  // D[i−1][own]
    var upPrevious = Float.infinity  // D[i−1][previous key's own]
    for i in 0..<rows {
      let arc = arcs[i]
      let side = ownCost[previousBase + i]  // D[i][previous key's own]
      var inValue = Float.infinity
      var position = Float(0)
      if arc >= inLow, arc <= upper {
        let px = xs[i] - ax
        let py = ys[i] - ay
        let t = min(1, max(0, (px * vx + py * vy) * inverse))
        let ex = px - t * vx
        let ey = py - t * vy
        inValue = min(side, upPrevious) + (ex * ex + ey * ey)
        position = t
        if upIn < .infinity {
          // Staying on the segment: no moving back before the previous point's position.
          let tUp = max(t, upPosition)
          let fx = px - tUp * vx
          let fy = py - tUp * vy
          let stay = upIn + (fx * fx + fy * fy)
          if stay < inValue {
            inValue = stay
            position = tUp
          }
        }
      }
      var ownValue = Float.infinity
      if arc >= ownLow, arc <= upper {
        let dx = xs[i] - bx
        let dy = ys[i] - by
        ownValue = min(inValue, min(upIn, upOwn)) + (dx * dx + dy * dy)
      }
      inCost[base + i] = inValue
      inPosition[base + i] = position
      ownCost[base + i] = ownValue
      lowest = min(lowest, ownValue)
      upIn = inValue
      upPosition = position
      upOwn = ownValue
      upPrevious = side
    }
    return lowest
  }
}
