#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thins the points of a swipe as they arrive: the swipe thesis's input reduction.
///
/// A slow swipe reports many points along the same path as a fast one reports few; the
/// matching costs time per point and, summing a distance per point, would weigh the slow
/// parts (the ends, the corners) more. The reducer keeps a point only where it adds shape.
/// It looks at three points — the last kept point A, the newest point C, and the point B
/// between them that lies farthest from the line AC (on a straight run, the point before
/// C) — and keeps B when at least one of these holds:
///
/// 1. fewer than two points are kept so far, or the path from A to C is at least `maxGap`
///    long (long straight runs still get points);
/// 2. the triangle ABC has an area of at least `minArea` (a bend);
/// 3. the angle at B between BA and BC is at most `maxAngle` (a sharp turn, where the
///    triangle may be thin).
///
/// The thresholds are ``SwipeDecoder/Options/Reduction``'s.
///
/// Taking the farthest point rather than the previous one (the thesis leaves "a point in
/// between" open) keeps the apex of every bend: the decision waits until the swipe has
/// moved far enough past a corner to tell, then keeps the corner itself.
///
/// The first and the last point are always kept. Distances are in key widths, so the same
/// options fit any layout unit. Work per point is bounded: at most ``maxPending`` points wait
/// for a decision.
struct PointReducer: Sendable {
  /// The most raw points between two kept points (a finger resting in place).
  static let maxPending = 64

  private let options: SwipeDecoder.Options.Reduction
  private let unit: Float
  private let cosMaxAngle: Float
  /// The kept points, in key widths.
  private(set) var kept: [(x: Float, y: Float)] = []
  /// The raw points after the last kept one, and the path length from it to each.
  private var pending: [(x: Float, y: Float)] = []
  private var pendingArcs: [Float] = []

  /// A reducer for points in a layout unit of which one key width is `keyWidth`.
  init(options: SwipeDecoder.Options.Reduction, keyWidth: Float) {
    self.options = options
    self.unit = 1 / keyWidth
    self.cosMaxAngle = Float(cos(Double(options.maxAngle)))
  }

  /// Forgets every point (keeping the buffers), for the next swipe.
  mutating func reset() {
    kept.removeAll(keepingCapacity: true)
    pending.removeAll(keepingCapacity: true)
    pendingArcs.removeAll(keepingCapacity: true)
  }

  /// Offers the next raw point (in layout units).
  mutating func add(x: Float, y: Float) {
    let c = (x: x * unit, y: y * unit)
    guard let a = kept.last else {
      kept.append(c)
      return
    }
    let arc = (pendingArcs.last ?? 0) + distance(pending.last ?? a, c)
    pending.append(c)
    pendingArcs.append(arc)
    guard pending.count >= 2 else { return }
    // The candidate B: the waiting point farthest from the line AC (twice the triangle's
    // area); on a straight run, the point before C.
    let last = pending.count - 1
    var chosen = last - 1
    var twiceArea: Float = 0
    for i in 0..<last {
      let b = pending[i]
      let area = abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x))
      if area > twiceArea {
        twiceArea = area
        chosen = i
      }
    }
    if twiceArea < 1e-6 { chosen = last - 1 }
    let keep =
      kept.count < 2 || arc >= options.maxGap || pending.count > Self.maxPending
      || twiceArea / 2 >= options.minArea || sharpTurn(a, pending[chosen], c)
    guard keep else { return }
    kept.append(pending[chosen])
    let through = pendingArcs[chosen]
    pending.removeSubrange(...chosen)
    pendingArcs.removeSubrange(...chosen)
    for i in pendingArcs.indices { pendingArcs[i] -= through }
  }

  /// The kept points with the last raw point, which always ends the swipe.
  var points: [(x: Float, y: Float)] {
    guard let last = pending.last else { return kept }
    return kept + [last]
  }

  /// Whether the angle at `b` between the directions to `a` and to `c` is at most the
  /// threshold: the swipe turns back there.
  private func sharpTurn(_ a: (x: Float, y: Float), _ b: (x: Float, y: Float), _ c: (x: Float, y: Float)) -> Bool {
    let bax = a.x - b.x
    let bay = a.y - b.y
    let bcx = c.x - b.x
    let bcy = c.y - b.y
    let lengths = ((bax * bax + bay * bay) * (bcx * bcx + bcy * bcy)).squareRoot()
    guard lengths > 0 else { return false }
    return (bax * bcx + bay * bcy) / lengths >= cosMaxAngle
  }

  private func distance(_ p: (x: Float, y: Float), _ q: (x: Float, y: Float)) -> Float {
    let dx = q.x - p.x
    let dy = q.y - p.y
    return (dx * dx + dy * dy).squareRoot()
  }
}
