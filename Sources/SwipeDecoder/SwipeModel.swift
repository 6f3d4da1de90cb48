#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the words the search kept are ranked: the log-likelihood of the swipe given each
/// word, from two channels and the swipe's length, plus the word's log frequency.
///
///     score = ln(count) + context
///           − locationWeight · ln(distance + noiseFloor)
///           − shapeWeight · ln(shapeDistance + noiseFloor)
///           + lengthWeight · lengthRatio
///
/// - **Location** (`distance`): the segment DTW's mean squared distance between the swipe and
///   the word's perfect swipe, in key widths² (each point's share capped,
///   ``SwipeDecoder/Options/maximumPointCost``).
/// - **Shape** (`shapeDistance`): SHARK2's shape channel. The swipe and the perfect swipe are
///   each resampled to ``shapePoints`` points evenly spaced along their length, moved so that
///   their centroids meet and scaled so that the larger side of their bounding boxes is 1
///   (at least one key width: a tap or a one-key word is not blown up); the mean distance
///   between corresponding points. A swipe drawn a little off or smaller than the keys it
///   meant keeps its shape.
/// - **Length** (`lengthRatio`): ln(swiped ÷ expected length), within −1…1.
///
/// The logarithms are the model, not a tuning trick: when a swipe's noise scale is unknown
/// and may differ from swipe to swipe, the likelihood of a residual `d` over `n` effectively
/// independent points is, after integrating the scale out, ∝ `(d + floor)^(−n/2)` (a
/// Student-t tail rather than a Gaussian one): a close fit is worth much more than a
/// slightly closer one only when the swipe is clean. The weights are the channels' effective
/// numbers of independent points (halved), fitted by maximum likelihood on people's swipes
/// (`bench/decoder_cv.py`, cross-validated; `docs/decoder.md`). The length weight is an
/// Occam factor: a longer perfect swipe can explain more of a swipe's detours and
/// overshoot, so it has to earn its length.
///
/// With the thesis's linear score instead (``SwipeDecoder/Options/ranking`` `nil`), the words
/// are ranked by the search's score, `frequencyWeight × ln(count) − distance`.
public struct SwipeRanking: Sendable, Hashable {
  /// How much one e-fold of the location distance (plus the floor) costs, in e-folds of
  /// count.
  public var locationWeight: Float = 6.43
  /// How much one e-fold of the shape distance (plus the floor) costs, in e-folds of count.
  public var shapeWeight: Float = 2.78
  /// How much one e-fold of swiped over expected length is worth, in e-folds of count.
  public var lengthWeight: Float = 1.48
  /// The noise floor added to both distances before the logarithm: below it, a closer fit
  /// says little more (key widths² for the location; a fraction of the swipe's size for the
  /// shape).
  public var noiseFloor: Float = 0.05

  /// The points each path is resampled to for the shape channel.
  public static let shapePoints = 32

  /// The defaults.
  public init() {}

  /// The ranking score of a word (higher is better).
  /// - Parameters:
  ///   - logCount: ln of the word's count, with its context's boost and language weight.
  ///   - distance: the location distance (key widths²).
  ///   - shapeDistance: the shape distance.
  ///   - lengthRatio: ln(swiped ÷ expected length), within −1…1.
  public func score(logCount: Float, distance: Float, shapeDistance: Float, lengthRatio: Float) -> Float {
    let floor = max(noiseFloor, 1e-6)
    return logCount - locationWeight * Self.ln(distance + floor) - shapeWeight * Self.ln(shapeDistance + floor)
      + lengthWeight * lengthRatio
  }

  /// The natural logarithm.
  static func ln(_ x: Float) -> Float { Float(log(Double(x))) }
}

/// A path resampled and normalized for the shape channel (``SwipeRanking``).
struct ShapeSample {
  /// x and y of ``SwipeRanking/shapePoints`` points, centered and scaled.
  private(set) var xs: [Float]
  private(set) var ys: [Float]
  /// The path's length (key widths).
  let length: Float

  /// The sample of a polyline (key widths; at least one point).
  init(_ points: [(x: Float, y: Float)]) {
    let n = SwipeRanking.shapePoints
    var xs = [Float](repeating: 0, count: n)
    var ys = [Float](repeating: 0, count: n)
    var total: Float = 0
    for i in points.indices.dropFirst() {
      total += Self.distance(points[i - 1], points[i])
    }
    length = total
    if let first = points.first {
      if total <= 0 || points.count < 2 {
        for k in 0..<n { (xs[k], ys[k]) = (first.x, first.y) }
      } else {
        // Walk the polyline, placing point k at length k × step.
        let step = total / Float(n - 1)
        var segment = 0
        var before: Float = 0  // the length up to the start of `segment`
        var here = Self.distance(points[0], points[1])
        for k in 0..<n {
          let target = k == n - 1 ? total : Float(k) * step
          while before + here < target, segment < points.count - 2 {
            before += here
            segment += 1
            here = Self.distance(points[segment], points[segment + 1])
          }
          let t = here > 0 ? min(1, max(0, (target - before) / here)) : 0
          let a = points[segment]
          let b = points[segment + 1]
          xs[k] = a.x + t * (b.x - a.x)
          ys[k] = a.y + t * (b.y - a.y)
        }
      }
    }
    // Centroid at the origin; the larger side of the bounding box 1 (at least a key width).
    let cx = xs.reduce(0, +) / Float(n)
    let cy = ys.reduce(0, +) / Float(n)
    let side = max((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0), 1)
    for k in 0..<n {
      xs[k] = (xs[k] - cx) / side
      ys[k] = (ys[k] - cy) / side
    }
    self.xs = xs
    self.ys = ys
  }

  /// The mean distance between corresponding points of two samples.
  func distance(to other: ShapeSample) -> Float {
    var sum: Float = 0
    for k in xs.indices {
      let dx = xs[k] - other.xs[k]
      let dy = ys[k] - other.ys[k]
      sum += (dx * dx + dy * dy).squareRoot()
    }
    return sum / Float(xs.count)
  }

  private static func distance(_ a: (x: Float, y: Float), _ b: (x: Float, y: Float)) -> Float {
    ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
  }
}
