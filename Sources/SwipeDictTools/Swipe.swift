import SwipeDecoder

/// A swipe: the points a finger passed, the word it meant when that is known, and the word
/// before it in the sentence when there was one.
///
/// The JSON Lines form (DESIGN, "Swipes") is
/// `{"word": "duck", "previous": "a", "points": [[x, y, t_ms], …]}` ("previous" optional),
/// read and written by `SwipeFile` (SwipeDictTools).
public struct Swipe: Sendable, Hashable {
  /// The intended word (the truth), if known.
  public var word: String?
  /// The points, in order.
  public var points: [SwipePoint]
  /// The word typed or swiped before this one in the same sentence, if any: the context
  /// (`SwipeDictionary.context(after:pairWeight:)`).
  public var previous: String?

  /// Creates a swipe.
  public init(word: String? = nil, points: [SwipePoint], previous: String? = nil) {
    self.word = word
    self.points = points
    self.previous = previous
  }

  /// The length of the polyline through the points, in the layout's unit.
  public var length: Float {
    zip(points, points.dropFirst()).reduce(0) { sum, pair in
      let dx = pair.1.x - pair.0.x
      let dy = pair.1.y - pair.0.y
      return sum + (dx * dx + dy * dy).squareRoot()
    }
  }
}
