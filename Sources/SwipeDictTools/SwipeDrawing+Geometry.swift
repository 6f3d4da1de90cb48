// The geometry and text measures of a drawing: points, rectangles, the extent drawn, where
// a label covers least, and the numbers and text SVG writes.
extension SwipeDrawing {
  /// A point or vector in pixels.
  struct Point {
    /// Rightwards.
    var x: Double
    /// Downwards.
    var y: Double
    /// The sum.
    static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// The difference.
    static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// Scaled by `k`.
    static func * (a: Point, k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
  }

  /// A rectangle in pixels.
  struct Rect {
    /// The left edge.
    var x: Double
    /// The top edge.
    var y: Double
    /// The width (not negative).
    var width: Double
    /// The height (not negative).
    var height: Double

    /// A rectangle from its top-left corner and size.
    init(x: Double, y: Double, width: Double, height: Double) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }

    /// The square of side `2 × radius` around `center`.
    init(around center: Point, radius: Double) {
      self.init(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
    }

    /// Whether the two rectangles share more than an edge.
    func overlaps(_ o: Rect) -> Bool {
      x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
    }

    /// Whether the segment from `a` to `b` passes through the rectangle (Liang–Barsky).
    func meets(_ a: Point, _ b: Point) -> Bool {
      var t0 = 0.0
      var t1 = 1.0
      let d = b - a
      for (p, q) in [
        (-d.x, a.x - x), (d.x, x + width - a.x), (-d.y, a.y - y), (d.y, y + height - a.y),
      ] {
        if p == 0 {
          if q < 0 { return false }
        } else {
          let t = q / p
          if p < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
          if t0 > t1 { return false }
        }
      }
      return true
    }
  }

  /// The extent of what is drawn.
  struct Box {
    /// The left edge.
    var minX = Double.infinity
    /// The top edge.
    var minY = Double.infinity
    /// The right edge.
    var maxX = -Double.infinity
    /// The bottom edge.
    var maxY = -Double.infinity
    /// Whether nothing was added.
    var isEmpty: Bool { minX > maxX }
    /// Grows the box to hold `r`.
    mutating func add(_ r: Rect) {
      minX = min(minX, r.x)
      minY = min(minY, r.y)
      maxX = max(maxX, r.x + r.width)
      maxY = max(maxY, r.y + r.height)
    }
    /// Grows the box to hold a disc.
    mutating func add(_ p: Point, radius: Double) { add(Rect(around: p, radius: radius)) }
  }

  /// What a label should not cover, with a weight for each thing covered.
  struct Obstacles {
    /// Lines (from, to, weight).
    var segments: [(Point, Point, Int)] = []
    /// Areas (box, weight).
    var areas: [(Rect, Int)] = []

    /// The weight of what a label box covers.
    func cost(_ r: Rect) -> Int {
      var cost = 0
      for (a, b, weight) in segments where r.meets(a, b) { cost += weight }
      for (area, weight) in areas where r.overlaps(area) { cost += weight }
      return cost
    }

    /// The center of the candidate label box that covers least (ties: the earlier). Each
    /// candidate is a point, a unit direction and a gap: the box is set `gap` pixels beyond
    /// the point in that direction, so that it just clears it.
    func bestPlace(for size: Point, candidates: [(Point, Point, Double)]) -> Point {
      var best: (center: Point, cost: Int)?
      for (point, direction, gap) in candidates {
        let reach = abs(direction.x) * size.x / 2 + abs(direction.y) * size.y / 2
        let center = point + direction * (gap + reach)
        let c = cost(SwipeDrawing.labelRect(center, size))
        if best == nil || c < best!.cost { best = (center, c) }
      }
      return best?.center ?? Point(x: 0, y: 0)
    }
  }

  /// The box of a label centerd on `center`.
  static func labelRect(_ center: Point, _ size: Point) -> Rect {
    Rect(x: center.x - size.x / 2, y: center.y - size.y / 2, width: size.x, height: size.y)
  }

  /// An estimate of a text's width in pixels (for layout only: SVG has no text metrics).
  static func textWidth(_ text: String, _ size: Double, bold: Bool) -> Double {
    Double(text.count) * size * (bold ? 0.64 : 0.58)
  }

  /// Coordinates beyond this are drawn at it: keeps damaged or absurd geometry finite.
  static func clamp(_ v: Double) -> Double {
    v.isFinite ? min(max(v, -1e6), 1e6) : 0
  }

  /// A number with exactly two decimals (`-0.5` → `-0.50`, never `-0.00`).
  static func n(_ v: Double) -> String { fixedDecimal(v, places: 2) }

  /// `x,y x,y …` for a `points` attribute.
  static func points(_ list: [Point]) -> String {
    list.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
  }

  /// Text safe inside an element or a quoted attribute.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default:
        // XML 1.0 forbids most control characters even as references: show U+FFFD.
        let v = scalar.value
        if v < 0x20 && v != 0x09 && v != 0x0A && v != 0x0D || v == 0xFFFE || v == 0xFFFF {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
