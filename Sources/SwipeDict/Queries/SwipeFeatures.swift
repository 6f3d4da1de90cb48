@_spi(SwipeDictInternals) import SwipeDictFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A point on the keyboard, in the layout's unit (y grows downwards).
public struct LayoutPoint: Sendable, Hashable {
  /// The x coordinate.
  public var x: Float
  /// The y coordinate.
  public var y: Float

  /// Creates a point.
  public init(x: Float, y: Float) {
    self.x = x
    self.y = y
  }

  /// The distance to `other`.
  public func distance(to other: LayoutPoint) -> Float {
    let dx = other.x - x
    let dy = other.y - y
    return (dx * dx + dy * dy).squareRoot()
  }

  /// The direction from this point to `other`, in radians counterclockwise from the +x axis
  /// as seen on screen (`atan2(−dy, dx)`: right is 0, up is π/2).
  public func direction(to other: LayoutPoint) -> Float {
    atan2f(-(other.y - y), other.x - x)
  }
}

/// A word's swipe features (the swipe thesis's dictionary entry), in the layout's units.
///
/// The keys come from the blob's `FEAT` record; the start angle, the distance to the second
/// letter and the last point follow from the key centers exactly. Only ``expectedLength`` is
/// quantized (steps of 1/8 key width up to 32 key widths, 1/4 up to 95.75; see
/// `FeatureLayout`).
public struct SwipeFeatures: Sendable, Hashable {
  /// The first key of the word's key path (an index into the layout's keys).
  public var firstKey: Int
  /// The second distinct key, or `nil` when the key path has one key ("a", "I", "ll").
  public var secondKey: Int?
  /// The last key.
  public var lastKey: Int
  /// The number of keys in the key path (repeats collapsed), saturating at 31.
  public var keyCount: Int
  /// The length of the perfect swipe: the sum of the center-to-center distances along the
  /// key path, in the layout's unit.
  public var expectedLength: Float
  /// The direction from the first key center to the second, in radians counterclockwise
  /// from +x as seen on screen; `nil` for a one-key path.
  public var startAngle: Float?
  /// The distance from the first key center to the second; `nil` for a one-key path.
  public var secondLetterDistance: Float?
  /// The last key's center: where a swipe of the word should end.
  public var lastPoint: LayoutPoint
  /// The word's quantized frequency (0…255, log scale).
  public var frequency: UInt8
}

/// The key centers of the blob's layout, decoded at open (a few hundred bytes).
struct KeyGeometry: Sendable {
  /// Each key's center.
  let centers: [LayoutPoint]
  /// The layout's key width: the unit of stored distances.
  let keyWidth: Float

  /// Reads the centers from a validated `LYOT` section.
  init(layoutSection view: UnsafeByteView) {
    let count = Int(view.uint32(at: 0) ?? 0)
    var centers: [LayoutPoint] = []
    centers.reserveCapacity(count)
    for i in 0..<count {
      let at = 24 + 20 * i
      centers.append(LayoutPoint(x: view.float32(at: at + 4) ?? 0, y: view.float32(at: at + 8) ?? 0))
    }
    self.centers = centers
    self.keyWidth = view.float32(at: 20) ?? 1
  }
}

extension SwipeDictionary {
  /// The swipe features of the word with `id`, or `nil` if there is no such word (or the blob
  /// has no `FEAT` section, or its record is damaged).
  /// - Complexity: O(1): one record read and one `atan2`; on a blob with narrow records
  ///   (format 1.5), which do not store the key count, also the word's spelling, to count
  ///   its keys.
  public func features(of id: Int) -> SwipeFeatures? {
    guard let view = featureView, let record = view.record(id), let frequency = frequency(of: id) else { return nil }
    var keyCount = record.keyCount
    if view.isNarrow {
      guard let path = word(for: id).flatMap(layout.keyPath(for:)) else { return nil }
      keyCount = min(path.count, FeatureLayout.maxKeyCount)
    }
    let centers = keyGeometry.centers
    let first = centers[record.firstKey]
    let second = record.secondKey.map { centers[$0] }
    return SwipeFeatures(
      firstKey: record.firstKey, secondKey: record.secondKey, lastKey: record.lastKey,
      keyCount: keyCount,
      expectedLength: record.lengthInKeyWidths * keyGeometry.keyWidth,
      startAngle: second.map { first.direction(to: $0) },
      secondLetterDistance: second.map { first.distance(to: $0) },
      lastPoint: centers[record.lastKey], frequency: frequency)
  }

  /// The word's `FEAT` record as stored: first, second and last key, key count and the
  /// expected length's code — what ``features(of:)-(Int)`` derives the rest from, without
  /// its trigonometry. For scans over many words. `nil` as for ``features(of:)-(Int)``.
  /// On a blob with narrow records (format 1.5) the key count is a lower bound
  /// (``FeatureRecord/keyCount``).
  /// - Complexity: O(1): one 32-bit read.
  package func featureRecord(of id: Int) -> FeatureRecord? {
    featureView?.record(id)
  }

  /// The swipe features of `word` (exact spelling), or `nil` if it is not in the dictionary.
  public func features(of word: String) -> SwipeFeatures? {
    id(of: word).flatMap { features(of: $0) }
  }

  /// The center of every key of the blob's layout, by key index (without decoding the whole
  /// layout: see ``layout`` for names, sizes and aliases).
  public var keyCenters: [LayoutPoint] { keyGeometry.centers }

  /// The layout's key width: the unit of the swipe filters' radii and slack.
  public var keyWidth: Float { keyGeometry.keyWidth }
}
