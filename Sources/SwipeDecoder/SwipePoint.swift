import SwipeDict

/// One sample of a swipe: where the finger was, in the layout's units, and when.
public struct SwipePoint: Sendable, Hashable {
  /// The x coordinate, in the layout's unit (growing rightwards).
  public var x: Float
  /// The y coordinate, in the layout's unit (growing downwards).
  public var y: Float
  /// Milliseconds since the swipe began, when the source records time.
  public var time: Float?

  /// Creates a point.
  public init(x: Float, y: Float, time: Float? = nil) {
    self.x = x
    self.y = y
    self.time = time
  }
}
