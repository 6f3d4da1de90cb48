import SwipeDecoder
import SwipeDict

/// The swipe along a word's key centers, sampled every `step` key widths.
func perfectSwipe(_ word: String, on d: SwipeDictionary, step: Float = 0.2) -> [SwipePoint] {
  let centers = (d.layout.keyPath(for: word) ?? []).map { d.keyCenters[$0] }
  guard let first = centers.first else { return [] }
  var points = [SwipePoint(x: first.x, y: first.y)]
  for (a, b) in zip(centers, centers.dropFirst()) {
    let pieces = max(1, Int((a.distance(to: b) / (step * d.keyWidth)).rounded(.up)))
    for k in 1...pieces {
      let t = Float(k) / Float(pieces)
      points.append(SwipePoint(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y)))
    }
  }
  return points
}
