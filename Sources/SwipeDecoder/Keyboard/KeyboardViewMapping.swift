import SwipeDict

/// A point in a keyboard view's own coordinates: UIKit points, Android pixels, whatever the
/// view measures in.
public struct ViewPoint: Sendable, Hashable {
  /// The x coordinate (growing rightwards).
  public var x: Double
  /// The y coordinate (growing downwards).
  public var y: Double

  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A rectangle in a keyboard view's coordinates.
public struct ViewRect: Sendable, Hashable {
  /// The left edge.
  public var x: Double
  /// The top edge.
  public var y: Double
  /// The width.
  public var width: Double
  /// The height.
  public var height: Double

  /// Creates a rectangle.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

/// Maps a keyboard view's coordinates to a layout's units, for a view that draws the layout's
/// keys stretched over a rectangle of any size: a phone in portrait or landscape, an iPad, in
/// points or pixels, anywhere in the view.
///
/// The decoder measures swipes in the layout's units (`qwerty-en`: the 375 × 162 pt of an
/// iPhone's three letter rows). A view that shows those keys in its `keyArea` (from the left
/// edge of the leftmost key to the right edge of the rightmost, the top of the top row to the
/// bottom of the bottom row; without a space bar row the layout does not have) maps a touch
/// by scaling x and y separately, as the view stretched the keys:
///
/// ```swift
/// let mapping = KeyboardViewMapping(layout: dictionary.layout,
///                                   keyArea: ViewRect(x: 0, y: 8, width: 1194, height: 243))!
/// mapping.layoutPoint(for: ViewPoint(x: 640, y: 120))   // in the layout's units
/// ```
///
/// Points off the keys are mapped as they are (a swipe that overshoots the last key keeps its
/// direction); ``clamped(_:)`` brings one onto the keys' rectangle.
public struct KeyboardViewMapping: Sendable, Hashable {
  /// Where the view draws the layout's keys.
  public let keyArea: ViewRect
  /// The keys' bounding rectangle in the layout's units: left, top, right and bottom edges.
  public let layoutBounds: (minX: Float, minY: Float, maxX: Float, maxY: Float)
  /// The layout's key width (the decoder's unit of length).
  public let keyWidth: Float

  /// A mapping of `keyArea` onto the layout's keys, or `nil` when the area is not a finite
  /// rectangle of positive size or the layout has no keys.
  public init?(layout: KeyboardLayout, keyArea: ViewRect) {
    guard let bounds = Self.bounds(of: layout) else { return nil }
    guard [keyArea.x, keyArea.y, keyArea.width, keyArea.height].allSatisfy(\.isFinite),
      keyArea.width > 0, keyArea.height > 0, keyArea.width < .greatestFiniteMagnitude / 2,
      keyArea.height < .greatestFiniteMagnitude / 2
    else { return nil }
    self.keyArea = keyArea
    self.layoutBounds = bounds
    self.keyWidth = layout.keyWidth
  }

  /// The mapping for a view measured in the layout's own units, its keys where the layout puts
  /// them (`layoutPoint(for:)` is then the identity).
  public init?(layout: KeyboardLayout) {
    guard let bounds = Self.bounds(of: layout) else { return nil }
    self.init(
      layout: layout,
      keyArea: ViewRect(
        x: Double(bounds.minX), y: Double(bounds.minY), width: Double(bounds.maxX - bounds.minX),
        height: Double(bounds.maxY - bounds.minY)))
  }

  private static func bounds(of layout: KeyboardLayout) -> (minX: Float, minY: Float, maxX: Float, maxY: Float)? {
    guard !layout.keys.isEmpty else { return nil }
    var bounds = (minX: Float.infinity, minY: Float.infinity, maxX: -Float.infinity, maxY: -Float.infinity)
    for key in layout.keys {
      bounds.minX = min(bounds.minX, key.x - key.width / 2)
      bounds.maxX = max(bounds.maxX, key.x + key.width / 2)
      bounds.minY = min(bounds.minY, key.y - key.height / 2)
      bounds.maxY = max(bounds.maxY, key.y + key.height / 2)
    }
    guard bounds.maxX > bounds.minX, bounds.maxY > bounds.minY, bounds.minX.isFinite, bounds.maxY.isFinite else {
      return nil
    }
    return bounds
  }

  /// The layout point a view point maps to (not clamped: it may lie off the keys).
  public func layoutPoint(for point: ViewPoint) -> LayoutPoint {
    // In Double until the end: pixels of a large view keep their precision.
    let u = (point.x - keyArea.x) / keyArea.width
    let v = (point.y - keyArea.y) / keyArea.height
    let x = Double(layoutBounds.minX) + u * Double(layoutBounds.maxX - layoutBounds.minX)
    let y = Double(layoutBounds.minY) + v * Double(layoutBounds.maxY - layoutBounds.minY)
    return LayoutPoint(x: Float(x), y: Float(y))
  }

  /// The view point a layout point maps to: the inverse of ``layoutPoint(for:)``.
  public func viewPoint(for point: LayoutPoint) -> ViewPoint {
    let u = (Double(point.x) - Double(layoutBounds.minX)) / Double(layoutBounds.maxX - layoutBounds.minX)
    let v = (Double(point.y) - Double(layoutBounds.minY)) / Double(layoutBounds.maxY - layoutBounds.minY)
    return ViewPoint(x: keyArea.x + u * keyArea.width, y: keyArea.y + v * keyArea.height)
  }

  /// `point` moved onto the keys' rectangle: a coordinate past an edge becomes the edge.
  public func clamped(_ point: LayoutPoint) -> LayoutPoint {
    LayoutPoint(
      x: min(max(point.x, layoutBounds.minX), layoutBounds.maxX),
      y: min(max(point.y, layoutBounds.minY), layoutBounds.maxY))
  }

  public static func == (a: KeyboardViewMapping, b: KeyboardViewMapping) -> Bool {
    a.keyArea == b.keyArea && a.keyWidth == b.keyWidth && a.layoutBounds == b.layoutBounds
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(keyArea)
    hasher.combine(keyWidth)
    hasher.combine(layoutBounds.minX)
    hasher.combine(layoutBounds.minY)
    hasher.combine(layoutBounds.maxX)
    hasher.combine(layoutBounds.maxY)
  }
}

/// The touches of one swipe on their way from a view to the decoder: mapped to the layout's
/// units, isolated stray points dropped, the rest clamped onto the keys, times made monotone,
/// the count bounded. ``KeyboardEngine`` runs one per swipe; a keyboard with its own event loop
/// can feed a ``SwipeSession`` through one.
///
/// ```swift
/// var trace = TouchTrace(mapping: mapping)
/// for point in trace.add(ViewPoint(x: 640, y: 120), time: touch.timestamp) { session.add(point) }
/// …
/// for point in trace.finish() { session.add(point) }      // at the lift
/// ```
///
/// **Stray points.** A point farther than ``maximumStep`` key widths from both the point before
/// it and the point after it is dropped: a touch that lands away from the finger (a palm, a
/// second finger, a digitizer glitch). On the 721 real swipes of the How-We-Swipe dev set, no
/// two consecutive samples are more than 2.9 key widths apart (99.9 % within 1.35), so a
/// jump of 4 is never a finger's move; a point that jumps and is followed by points near it
/// is kept, as the path really moved. To know the point after it, each point reaches the
/// decoder one touch event late; ``finish()`` hands over the last one (or drops it, when it
/// jumped away from the rest at the lift).
///
/// **Off the keys.** Points past the keys' edges are clamped onto them (``KeyboardViewMapping/clamped(_:)``):
/// a finger that ends above the top row ends on it.
///
/// **Bounds.** At most ``maximumPointCount`` points reach the decoder; later ones are ignored
/// (``isTruncated``), so a stuck touch cannot grow a session without limit. Points with a
/// non-finite coordinate are ignored. Times (seconds, as UIKit's `UITouch.timestamp`) become
/// milliseconds since the first point; one earlier than the point before it (sensor jitter)
/// takes that point's time.
public struct TouchTrace: Sendable {
  /// The most points a swipe hands to the decoder: 2,000, 16 seconds at 120 Hz. The 721 real
  /// dev swipes have at most 571 (median 57).
  public static let maximumPointCount = 2_000
  /// How far, in key widths, a point may jump from its neighbours before it counts as stray.
  public static let maximumStep: Float = 4

  /// The mapping from the view.
  public let mapping: KeyboardViewMapping
  /// A point waiting for the next one to say whether it is stray, unclamped, with its time.
  private var held: (point: LayoutPoint, time: Float?)?
  /// The last point handed over (unclamped).
  private var last: LayoutPoint?
  /// The time of the first point and of the last one handed over, in seconds.
  private var startTime: Double?
  private var lastTime: Float?
  /// How many points were handed over.
  public private(set) var count = 0
  /// How many points were dropped as stray or for a non-finite coordinate.
  public private(set) var droppedCount = 0
  /// Whether points were ignored past ``maximumPointCount``.
  public private(set) var isTruncated = false

  /// An empty trace.
  public init(mapping: KeyboardViewMapping) {
    self.mapping = mapping
  }

  /// Adds the next touch of the swipe.
  /// - Parameters:
  ///   - point: where the finger is, in the view's coordinates.
  ///   - time: when, in seconds (any origin; `UITouch.timestamp`), or `nil`.
  /// - Returns: the points the decoder gets now, in order, in the layout's units: none (the
  ///   first point, a stray one, one past the bound) or the point before this one.
  public mutating func add(_ point: ViewPoint, time: Double? = nil) -> [SwipePoint] {
    guard point.x.isFinite, point.y.isFinite else {
      droppedCount += 1
      return []
    }
    let mapped = mapping.layoutPoint(for: point)
    guard mapped.x.isFinite, mapped.y.isFinite else {
      droppedCount += 1
      return []
    }
    let stamp = milliseconds(time)
    defer { held = (mapped, stamp) }
    guard let held else { return [] }
    // The held point is kept when it is near the point before it or near this one.
    let reach = Self.maximumStep * mapping.keyWidth
    if let last, last.distance(to: held.point) <= reach {
      return handOver(held)
    }
    if held.point.distance(to: mapped) <= reach {
      return handOver(held)
    }
    droppedCount += 1
    return []
  }

  /// Ends the swipe: the last point, unless it jumped away from the one before it. The counts
  /// stay for the caller to read; ``reset()`` clears them for the next swipe.
  /// - Returns: the points the decoder still gets (none or one).
  public mutating func finish() -> [SwipePoint] {
    guard let held else { return [] }
    self.held = nil
    if let last, last.distance(to: held.point) > Self.maximumStep * mapping.keyWidth {
      droppedCount += 1
      return []
    }
    return handOver(held)
  }

  /// Forgets the swipe (the counts too).
  public mutating func reset() {
    held = nil
    last = nil
    startTime = nil
    lastTime = nil
    count = 0
    droppedCount = 0
    isTruncated = false
  }

  private mutating func handOver(_ point: (point: LayoutPoint, time: Float?)) -> [SwipePoint] {
    guard count < Self.maximumPointCount else {
      isTruncated = true
      return []
    }
    count += 1
    last = point.point
    let clamped = mapping.clamped(point.point)
    return [SwipePoint(x: clamped.x, y: clamped.y, time: point.time)]
  }

  /// `time` in milliseconds since the first timed point, never below the previous one; `nil`
  /// for no time or a non-finite one.
  private mutating func milliseconds(_ time: Double?) -> Float? {
    guard let time, time.isFinite else { return nil }
    let start = startTime ?? time
    startTime = start
    let ms = Float((time - start) * 1000)
    guard ms.isFinite else { return nil }
    let monotone = max(ms, lastTime ?? ms)
    lastTime = monotone
    return monotone
  }
}
