import SwipeDict

/// The swipe thesis's segment DTW between a swipe and words' perfect swipes, with a prefix
/// cache.
///
/// A word's *perfect swipe* over its key path k₁…kₙ is the sequence of 2n − 1 segments
/// (k₁→k₁), (k₁→k₂), (k₂→k₂), …, (kₙ→kₙ): each key center to itself (a point: the finger
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
/// of a column bounds the word's final cost from below: ``cost(keys:bound:)`` stops as soon
/// as that exceeds the caller's bound. Before any column, ``lowerBound(keys:)`` checks a
/// bound that needs no table: the first and last points' distances to the first and last
/// keys and each middle key's distance to its nearest point.
struct SegmentDTW {
  /// The locality constraint: `A…B` (``ratio``) and `C` (``slack``, key widths).
  struct Band: Sendable, Hashable {
    var ratio: ClosedRange<Float>
    var slack: Float
  }

  /// The swipe, in key widths: x, y and the swipe's length up to the point, per point.
  private let points: [Float]
  /// The key centers, in key widths.
  private let centerX: [Float]
  private let centerY: [Float]
  private let band: Band
  /// The most one point–segment pair costs (key widths²): a point farther away is an
  /// outlier (a hook, an overshoot, a detour) whose distance says nothing more.
  private let cap: Float
  /// The number of points (rows).
  let rows: Int
  /// Per key: the squared distance to the first point, to the last point, and the least
  /// to any point (key widths²), for the lower bound of a word's cost.
  private let toFirst: [Float]
  private let toLast: [Float]
  private let nearest: [Float]

  /// The columns, `3 × rows` floats per depth: the incoming segment's costs, the positions
  /// on it, and the key's own costs. Depth 0 has only its own column (the others unused).
  private var table: [Float] = []
  /// The perfect swipe's length up to each depth's key, in key widths.
  private var lengths: [Float] = []
  /// The smallest value of each depth's own column.
  private var lowest: [Float] = []
  /// The first row of each depth's own column that may be finite (those above are
  /// infinite): where the next key's columns can start.
  private var firstRows: [Int] = []
  /// Per depth of the current word: a lower bound of what the keys after it add (each key
  /// needs a point of its own, the last key the last point), scratch for `cost`.
  private var after: [Float] = []
  /// Scratch for ``exceeds(_:keys:depth:)``: the segments after a depth, five floats each.
  private var segments = [Float](repeating: 0, count: 5 * (Self.remainingSegmentLimit + 1))
  /// The key path whose first `valid` depths the columns hold.
  private var path: [UInt8] = []
  private var valid = 0

  /// Prepares the table for a swipe.
  /// - Parameters:
  ///   - points: the (reduced) swipe, in key widths; at least one point.
  ///   - centers: every key center, in key widths.
  ///   - band: the locality constraint.
  init(points: [(x: Float, y: Float)], centers: [(x: Float, y: Float)], band: Band, cap: Float = .infinity) {
    precondition(!points.isEmpty, "a swipe has at least one point")
    var packed: [Float] = []
    packed.reserveCapacity(3 * points.count)
    var arc: Float = 0
    for (i, point) in points.enumerated() {
      if i > 0 {
        let dx = point.x - points[i - 1].x
        let dy = point.y - points[i - 1].y
        arc += (dx * dx + dy * dy).squareRoot()
      }
      packed += [point.x, point.y, arc]
    }
    self.points = packed
    centerX = centers.map(\.x)
    centerY = centers.map(\.y)
    self.band = band
    self.cap = cap
    rows = points.count
    func squared(_ p: (x: Float, y: Float), _ c: (x: Float, y: Float)) -> Float {
      min(cap, (p.x - c.x) * (p.x - c.x) + (p.y - c.y) * (p.y - c.y))
    }
    toFirst = centers.map { squared(points[0], $0) }
    toLast = centers.map { squared(points[points.count - 1], $0) }
    nearest = centers.map { c in points.reduce(Float.infinity) { min($0, squared($1, c)) } }
  }

  /// A lower bound of the cost of `keys` that takes O(keys) time: every match pairs the
  /// first point with the first key and the last point with the last key, and each key
  /// with at least one point, each pair in a cell of its own.
  func lowerBound(keys: [UInt8]) -> Float {
    guard let first = keys.first, let last = keys.last else { return .infinity }
    if keys.count == 1 {
      // One column: every point is matched to the key; the ends are two of them.
      return rows == 1 ? toFirst[Int(first)] : toFirst[Int(first)] + toLast[Int(first)]
    }
    var sum = toFirst[Int(first)] + toLast[Int(last)]
    for key in keys.dropFirst().dropLast() { sum += nearest[Int(key)] }
    return sum
  }

  /// The same bound from a word's `FEAT` record alone (its first, second and last key), so a
  /// word can be passed over before its key path is read.
  func lowerBound(_ record: FeatureRecord) -> Float {
    guard record.firstKey < toFirst.count, record.lastKey < toLast.count else { return .infinity }
    if record.keyCount == 1 {
      return rows == 1 ? toFirst[record.firstKey] : toFirst[record.firstKey] + toLast[record.firstKey]
    }
    var sum = toFirst[record.firstKey] + toLast[record.lastKey]
    if record.keyCount > 2, let second = record.secondKey, second < nearest.count { sum += nearest[second] }
    return sum
  }

  /// The least cost of matching the swipe to the perfect swipe of `keys` (key widths²,
  /// summed over the matched pairs), or `nil` when no match satisfies the locality
  /// constraint or every match costs more than `bound`.
  ///
  /// The columns of the keys `keys` shares with the path of the previous call (as far as
  /// that call computed them) are reused.
  /// - Parameters:
  ///   - keys: the word's key path (indices into the centers; no key repeated in a row).
  ///   - bound: stop as soon as the cost must exceed this.
  mutating func cost(keys: [UInt8], bound: Float) -> Float? {
    guard !keys.isEmpty, keys.allSatisfy({ Int($0) < centerX.count }) else { return nil }
    guard lowerBound(keys: keys) <= bound else { return nil }
    if keys.count > lengths.count { grow(to: keys.count) }
    // What the keys after each depth add at least: every later key's own column takes a
    // point (at least its nearest point's cost), the last one the last point. With the
    // smallest value of a depth's own column this bounds the word's cost from below.
    let n = keys.count
    after[n - 1] = 0
    if n > 1 {
      after[n - 2] = toLast[Int(keys[n - 1])]
      var depth = n - 3
      while depth >= 0 {
        after[depth] = after[depth + 1] + nearest[Int(keys[depth + 1])]
        depth -= 1
      }
    }
    var depth = 0
    let common = min(valid, keys.count)
    while depth < common, path[depth] == keys[depth] { depth += 1 }
    valid = depth
    let firstNew = depth
    path.removeSubrange(depth...)
    // The columns reused from the previous word already bound this one.
    if depth > 0, !(lowest[depth - 1] + after[depth - 1] <= bound) { return nil }
    while depth < keys.count {
      // Before the first column this word does not share with the previous one: a bound of
      // the rest in one pass over the rows, which passes over most words before their columns.
      if depth == firstNew, depth > 0, bound < .infinity, keys.count - depth <= Self.remainingSegmentLimit,
        exceeds(bound, keys: keys, depth: depth)
      {
        return nil
      }
      path.append(keys[depth])
      let least = computeColumns(depth: depth)
      lowest[depth] = least
      valid = depth + 1
      if !(least + after[depth] <= bound) || least == .infinity { return nil }
      depth += 1
    }
    let total = table[(keys.count - 1) * 3 * rows + 3 * rows - 1]
    return total <= bound && total < .infinity ? total : nil
  }

  /// Whether a lower bound of the cost of `keys`, whose columns up to `depth − 1` are in the
  /// table, exceeds `bound`. A match leaves the own column of key `depth − 1` at some row i,
  /// and every later point is matched to one of the segments after it (or a key, which ends
  /// one), the last point to the last key. So the cost is at least the least, over i, of that
  /// column's value at i plus the later points' (capped) squared distances to the nearest of
  /// those segments. That drops the order of the segments, the band and the monotone
  /// position: no recurrence, and the rows are walked up from the last only until the answer
  /// is known — a term within the bound (no), or the column's smallest value plus the later
  /// points already beyond it (yes: every row above adds only more).
  private mutating func exceeds(_ bound: Float, keys: [UInt8], depth: Int) -> Bool {
    let rows = self.rows
    let start = (depth - 1) * 3 * rows + 2 * rows
    precondition(start + rows <= table.count && points.count == 3 * rows)
    var later = toLast[Int(keys[keys.count - 1])]
    // The match that stays in the column to the last row, then goes to the last key.
    if table[start + rows - 1] + later <= bound { return false }
    // The segments from key depth − 1 on: start, direction and 1 / length², five floats each.
    let count = keys.count - depth
    precondition(5 * count <= segments.count)
    segments.withUnsafeMutableBufferPointer { segments in
      for k in 0..<count {
        let a = Int(keys[depth - 1 + k])
        let b = Int(keys[depth + k])
        let vx = centerX[b] - centerX[a]
        let vy = centerY[b] - centerY[a]
        let vv = vx * vx + vy * vy
        (segments[5 * k], segments[5 * k + 1], segments[5 * k + 2]) = (centerX[a], centerY[a], vx)
        (segments[5 * k + 3], segments[5 * k + 4]) = (vy, vv > 0 ? 1 / vv : 0)
      }
    }
    let cap = self.cap
    let floor = lowest[depth - 1]
    let first = firstRows[depth - 1]
    let end = 5 * count
    return table.withUnsafeBufferPointer { table in
      points.withUnsafeBufferPointer { points in
        segments.withUnsafeBufferPointer { segments in
          var i = rows - 2
          while i >= first {
            // Row i + 1 is a later point of a match that leaves the column at row i.
            if i + 1 < rows - 1 {
              let x = points[3 * (i + 1)]
              let y = points[3 * (i + 1) + 1]
              var nearest = cap
              var k = 0
              while k < end {
                let px = x - segments[k]
                let py = y - segments[k + 1]
                let vx = segments[k + 2]
                let vy = segments[k + 3]
                let t = min(1, max(0, (px * vx + py * vy) * segments[k + 4]))
                let ex = px - t * vx
                let ey = py - t * vy
                nearest = min(nearest, ex * ex + ey * ey)
                k += 5
              }
              later += nearest
            }
            if !(floor + later <= bound) { return true }
            if table[start + i] + later <= bound { return false }
            i -= 1
          }
          return true
        }
      }
    }
  }

  /// The most segments ``exceeds(_:keys:depth:)`` looks at: beyond, it costs about what the
  /// columns it would spare cost.
  static let remainingSegmentLimit = 8

  private mutating func grow(to depth: Int) {
    let extra = depth - lengths.count
    lengths.append(contentsOf: repeatElement(0, count: extra))
    lowest.append(contentsOf: repeatElement(0, count: extra))
    firstRows.append(contentsOf: repeatElement(0, count: extra))
    after.append(contentsOf: repeatElement(0, count: extra))
    table.append(contentsOf: repeatElement(.infinity, count: extra * 3 * rows))
  }

  /// Computes the columns of `depth` from the own column of `depth − 1`; returns the
  /// smallest value of the key's own column.
  private mutating func computeColumns(depth: Int) -> Float {
    let key = Int(path[depth])
    let b = (x: centerX[key], y: centerY[key])
    let rows = self.rows
    let low = band.ratio.lowerBound
    let high = band.ratio.upperBound
    let slack = band.slack
    let points = self.points
    // The kernels index `rows` floats from these starts; check the table holds them once.
    let base = depth * 3 * rows
    precondition(base + 3 * rows <= table.count && points.count == 3 * rows)

    if depth == 0 {
      lengths[0] = 0
      firstRows[0] = 0
      return table.withUnsafeMutableBufferPointer { table in
        points.withUnsafeBufferPointer { points in
          Self.firstColumn(
            own: UnsafeMutableBufferPointer(rebasing: table[(2 * rows)..<(3 * rows)]), points: points,
            key: b, reach: high * 0 + slack, cap: cap)
        }
      }
    }

    let from = Int(path[depth - 1])
    let a = (x: centerX[from], y: centerY[from])
    let start = lengths[depth - 1]
    let end = start + ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
    lengths[depth] = end
    // The band's rows: the incoming segment spans lengths start…end, the key only end.
    let limits = (inLow: low * start - slack, ownLow: low * end - slack, upper: high * end + slack)
    // Only the rows inside the band, from the first the previous key's column reaches, can be
    // finite: the swipe's length grows with the row, so they are one run of rows.
    let rowRange = rowsWithin(limits.inLow...limits.upper, from: firstRows[depth - 1])
    var first = rows
    let least = table.withUnsafeMutableBufferPointer { table in
      points.withUnsafeBufferPointer { points in
        Self.nextColumns(
          previousOwn: UnsafeBufferPointer(rebasing: table[(base - rows)..<base]),
          incoming: UnsafeMutableBufferPointer(rebasing: table[base..<(base + rows)]),
          positions: UnsafeMutableBufferPointer(rebasing: table[(base + rows)..<(base + 2 * rows)]),
          own: UnsafeMutableBufferPointer(rebasing: table[(base + 2 * rows)..<(base + 3 * rows)]),
          points: points, rows: rowRange, from: a, to: b, limits: limits, cap: cap, firstFinite: &first)
      }
    }
    firstRows[depth] = first
    return least
  }

  /// The rows from `first` on whose swipe length lies within `lengths` (a run, since the
  /// length grows with the row).
  private func rowsWithin(_ lengths: ClosedRange<Float>, from first: Int) -> Range<Int> {
    // The first row at or after `first` not below the band, then the first above it.
    var lo = first
    var hi = rows
    while lo < hi {
      let mid = (lo + hi) / 2
      if points[3 * mid + 2] < lengths.lowerBound { lo = mid + 1 } else { hi = mid }
    }
    var end = lo
    hi = rows
    while end < hi {
      let mid = (end + hi) / 2
      if points[3 * mid + 2] <= lengths.upperBound { end = mid + 1 } else { hi = mid }
    }
    return lo..<end
  }

  /// The first key's own column: every point so far matched to the key.
  private static func firstColumn(
    own: UnsafeMutableBufferPointer<Float>, points: UnsafeBufferPointer<Float>,
    key b: (x: Float, y: Float), reach: Float, cap: Float
  ) -> Float {
    var lowest = Float.infinity
    var previous: Float = 0
    for i in 0..<own.count {
      var value = Float.infinity
      if points[3 * i + 2] <= reach {
        let dx = points[3 * i] - b.x
        let dy = points[3 * i + 1] - b.y
        value = previous + min(cap, dx * dx + dy * dy)
      }
      own[i] = value
      previous = value
      lowest = min(lowest, value)
    }
    return lowest
  }

  /// The columns of the segment `a → b` and of the key `b`, from the previous key's own
  /// column (all `rows` long). Only the rows of `band` are computed: the others, outside the
  /// locality band or above the previous column's first finite row, are infinite.
  /// `firstFinite` receives the first row whose own value is finite (or the row count).
  private static func nextColumns(
    previousOwn: UnsafeBufferPointer<Float>, incoming: UnsafeMutableBufferPointer<Float>,
    positions: UnsafeMutableBufferPointer<Float>, own: UnsafeMutableBufferPointer<Float>,
    points: UnsafeBufferPointer<Float>, rows band: Range<Int>, from a: (x: Float, y: Float),
    to b: (x: Float, y: Float), limits: (inLow: Float, ownLow: Float, upper: Float), cap: Float,
    firstFinite: inout Int
  ) -> Float {
    let rows = own.count
    // Outside the band: infinite.
    for i in 0..<band.lowerBound {
      incoming[i] = .infinity
      positions[i] = 0
      own[i] = .infinity
    }
    for i in band.upperBound..<rows {
      incoming[i] = .infinity
      positions[i] = 0
      own[i] = .infinity
    }
    firstFinite = rows
    let vx = b.x - a.x
    let vy = b.y - a.y
    let vv = vx * vx + vy * vy
    let inverse = vv > 0 ? 1 / vv : 0
    var lowest = Float.infinity
    var upIn = Float.infinity  // D[i−1][incoming]: infinite above the band
    var upPosition: Float = 0
    var upOwn = Float.infinity  // D[i−1][own]
    // D[i−1][previous key's own]
    var upPrevious = band.lowerBound > 0 ? previousOwn[band.lowerBound - 1] : Float.infinity
    for i in band {
      let x = points[3 * i]
      let y = points[3 * i + 1]
      let arc = points[3 * i + 2]
      let side = previousOwn[i]  // D[i][previous key's own]
      // Within the band, the incoming segment's limits hold (rows of `band`).
      let px = x - a.x
      let py = y - a.y
      let t = min(1, max(0, (px * vx + py * vy) * inverse))
      let ex = px - t * vx
      let ey = py - t * vy
      var inValue = min(side, upPrevious) + min(cap, ex * ex + ey * ey)
      var position = t
      if upIn < .infinity {
        // Staying on the segment: no moving back before the previous point's position.
        let tUp = max(t, upPosition)
        let fx = px - tUp * vx
        let fy = py - tUp * vy
        let stay = upIn + min(cap, fx * fx + fy * fy)
        if stay < inValue {
          inValue = stay
          position = tUp
        }
      }
      var ownValue = Float.infinity
      if arc >= limits.ownLow {
        let dx = x - b.x
        let dy = y - b.y
        ownValue = min(inValue, min(upIn, upOwn)) + min(cap, dx * dx + dy * dy)
      }
      incoming[i] = inValue
      positions[i] = position
      own[i] = ownValue
      if ownValue < lowest { lowest = ownValue }
      if ownValue < .infinity, firstFinite == rows { firstFinite = i }
      upIn = inValue
      upPosition = position
      upOwn = ownValue
      upPrevious = side
    }
    return lowest
  }
}
