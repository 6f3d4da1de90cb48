import SwipeDict
@_spi(SwipeDictInternals) import SwipeDictFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A standalone SVG picture of a word's perfect swipe on a keyboard layout (`swipedict draw`).
///
/// It shows every key of the layout as a rounded rectangle with its character, the perfect
/// swipe (the polyline through the centers of the word's key path, a dot on each center, the
/// first and last keys highlighted), the start angle (an arrow from the first key center, an
/// arc from the +x direction and the angle in degrees), the last-letter point (a ring,
/// labeled), and optionally a recorded or synthetic swipe as a thin line with small dots.
/// A title states the word, its frequency byte, key count and expected length; a legend
/// explains the marks.
///
/// Layout coordinates map to pixels by `scale` plus an offset that leaves a margin around
/// everything drawn (y grows downwards in both). Building the text is pure: the same inputs
/// give the same bytes (every number has two decimals, angles one), and every text is
/// escaped, so the result is well-formed XML.
///
/// ```swift
/// let drawing = SwipeDrawing(
///   layout: layout, word: "hello", frequency: 213, keyPath: [15, 2, 18, 8],
///   startAngle: f.startAngle, lastPoint: f.lastPoint, expectedLength: 12, overlay: nil,
///   scale: SwipeDrawing.defaultScale(for: layout))
/// let svg = drawing.svg()
/// ```
package struct SwipeDrawing {
  /// A swipe drawn over the perfect one.
  package struct Overlay {
    /// The swipe's points, in the layout's unit.
    package var points: [LayoutPoint]
    /// Where it comes from, for the legend (e.g. `swipe 1 of s.jsonl`).
    package var source: String
    /// The word the swipe meant, when the file says.
    package var word: String?

    /// An overlay of `points` from `source`, meant as `word`.
    package init(points: [LayoutPoint], source: String, word: String?) {
      self.points = points
      self.source = source
      self.word = word
    }
  }

  /// Another word's perfect swipe, drawn dashed under the word's: a decoder's rival.
  package struct Rival {
    /// The word.
    package var word: String
    /// Its key path: indices into `layout.keys`.
    package var keyPath: [Int]
    /// The legend's text for it (e.g. `1. worth: distance 0.054, score 0.184`).
    package var label: String

    /// A rival `word` with `keyPath`, described by `label`.
    package init(word: String, keyPath: [Int], label: String) {
      self.word = word
      self.keyPath = keyPath
      self.label = label
    }
  }

  /// The layout to draw.
  package var layout: KeyboardLayout
  /// The word, as stored in the dictionary.
  package var word: String
  /// The word's frequency byte (0…255, log scale).
  package var frequency: UInt8
  /// The word's key path: indices into `layout.keys`, not empty.
  package var keyPath: [Int]
  /// The start angle in radians, counterclockwise from +x as seen on screen (`atan2(−dy, dx)`);
  /// `nil` for a one-key word.
  package var startAngle: Float?
  /// The last-letter point, in the layout's unit.
  package var lastPoint: LayoutPoint
  /// The expected swipe length, in key widths.
  package var expectedLength: Float
  /// A swipe to draw over the perfect one.
  package var overlay: Overlay?
  /// Other words' perfect swipes, dashed, each in its color (at most ``rivalColors``).
  package var rivals: [Rival] = []
  /// Pixels per layout unit.
  package var scale: Double

  /// A drawing of `word` on `layout` (see the properties).
  package init(
    layout: KeyboardLayout, word: String, frequency: UInt8, keyPath: [Int], startAngle: Float?,
    lastPoint: LayoutPoint, expectedLength: Float, overlay: Overlay?, scale: Double
  ) {
    self.layout = layout
    self.word = word
    self.frequency = frequency
    self.keyPath = keyPath
    self.startAngle = startAngle
    self.lastPoint = lastPoint
    self.expectedLength = expectedLength
    self.overlay = overlay
    self.scale = scale
  }

  /// The width, in pixels, that ``defaultScale(for:)`` gives the keyboard.
  package static let defaultWidth = 800.0

  /// The scale that draws the layout's keys about ``defaultWidth`` pixels wide (1 for a
  /// layout without width).
  package static func defaultScale(for layout: KeyboardLayout) -> Double {
    let left = layout.keys.map { Double($0.x) - Double($0.width) / 2 }.min() ?? 0
    let right = layout.keys.map { Double($0.x) + Double($0.width) / 2 }.max() ?? 0
    let width = right - left
    guard width.isFinite, width > 0 else { return 1 }
    let scale = defaultWidth / width
    return scale.isFinite && scale > 0 ? scale : 1
  }

  // MARK: - Style

  /// Colors (Okabe–Ito hues, darkened where they carry text): start is green, end is red.
  enum Color {
    static let background = "#ffffff"
    static let text = "#222222"
    static let faint = "#666666"
    static let keyFill = "#f3f3f3"
    static let keyStroke = "#bdbdbd"
    static let keyLabel = "#555555"
    static let pathKeyFill = "#e3eef8"
    static let path = "#0072b2"
    static let start = "#007a55"
    static let startFill = "#d3efe3"
    static let end = "#d55e00"
    static let endFill = "#fbe3d2"
    static let swipe = "#7b3294"
  }

  /// The rivals' colors, in order (Okabe–Ito hues not used above).
  package static let rivalColors = ["#e69f00", "#56b4e9", "#cc79a7", "#009e73", "#8c8c8c", "#b8860b"]

  static let margin = 20.0
  static let titleSize = 20.0
  static let subtitleSize = 13.0
  static let legendSize = 13.0
  static let legendRow = 22.0

  // MARK: - Building

  /// The SVG document (UTF-8 text ending in a newline).
  package func svg() -> String {
    let scene = scene()
    let title = titleTexts(scene)
    let legend = legendEntries(scene)
    let canvas = canvas(scene, title: title, legend: legend)
    var out = SVGWriter()
    writeTitle(title, canvas, to: &out)
    writeKeys(scene, canvas, to: &out)
    writeRivals(scene, canvas, to: &out)
    writePerfectSwipe(scene, canvas, to: &out)
    writeSwipe(scene, canvas, to: &out)
    writeStartAngle(scene, canvas, to: &out)
    writeLastLetter(scene, canvas, to: &out)
    writeLegend(canvas, to: &out)
    out.line("</svg>")
    return out.text
  }

  /// How a key is drawn: the word's first key, its last key, another key of its path, or
  /// any other key.
  enum KeyRole { case first, last, onPath, other }

  /// What a legend entry shows before its text.
  enum LegendMark {
    case path, arrow, ring, swipe
    case rival(String)
  }

  // MARK: - Stages

  /// A key as drawn: its rectangle, where its letter goes, and its role.
  struct KeyShape {
    var rect: Rect
    var label: Point
    var font: Double
    var character: String
    var role: KeyRole
  }

  /// The start angle as drawn: an arrow from the first key center, an arc from +x, the
  /// degrees as a label.
  struct StartAngleArrow {
    var from: Point
    var to: Point
    var head: [Point]
    var arc: (from: Point, to: Point, radius: Double, sweep: Int)?
    var ray: Point
    var label: Point
    var text: String
    var font: Double
  }

  /// Everything the picture draws, in pixels before the canvas's offset, with its labels
  /// placed where they cover least.
  struct Scene {
    /// Pixels per layout unit, and one key width in pixels.
    var scale: Double
    var keyWidth: Double
    var keyShapes: [KeyShape]
    /// The word's keys that are on the layout, and their centers.
    var path: [Int]
    var pathPoints: [Point]
    var rivalPaths: [[Point]]
    var swipePoints: [Point]
    /// The radii of a key center's dot and of a swipe point's.
    var dot: Double
    var swipeDot: Double
    var arrow: StartAngleArrow?
    /// The last-letter point's ring and its label.
    var ringCenter: Point
    var ring: Double
    var lastLabel: Point
    var lastFont: Double
    /// The extent of everything drawn.
    var box: Box
  }

  static let lastText = "last letter"

  /// The picture's geometry: keys, paths and points, then the start angle's arrow and the
  /// last-letter ring, each label placed away from what is drawn before it.
  func scene() -> Scene {
    let s = scale.isFinite && scale > 0 ? scale : 1
    let unit = Double(layout.keyWidth) * s
    let kw = unit.isFinite && unit > 0 ? unit : 40  // one key width, in pixels
    func raw(_ p: LayoutPoint) -> Point {
      Point(x: Self.clamp(Double(p.x)) * s, y: Self.clamp(Double(p.y)) * s)
    }
    let centers = layout.keys.map { raw(LayoutPoint(x: $0.x, y: $0.y)) }
    let path = keyPath.filter { centers.indices.contains($0) }

    // `box` collects the extent of everything drawn.
    var box = Box()
    let keyShapes = keyShapes(centers: centers, path: path, scale: s)
    for shape in keyShapes { box.add(shape.rect) }
    let pathPoints = path.map { centers[$0] }
    let dot = max(2.5, kw * 0.07)
    for p in pathPoints { box.add(p, radius: dot * 1.6) }
    let rivalPaths = rivals.prefix(Self.rivalColors.count).map { rival in
      rival.keyPath.filter { centers.indices.contains($0) }.map { centers[$0] }
    }
    for path in rivalPaths { for p in path { box.add(p, radius: dot) } }
    let swipePoints = overlay.map { $0.points.map(raw) } ?? []
    let swipeDot = max(1.5, kw * 0.028)
    for p in swipePoints { box.add(p, radius: swipeDot * 3) }

    // What labels should not cover: lines (weighted), key letters, rings.
    var obstacles = Obstacles()
    for (a, b) in zip(pathPoints, pathPoints.dropFirst()) { obstacles.segments.append((a, b, 3)) }
    for (a, b) in zip(swipePoints, swipePoints.dropFirst()) { obstacles.segments.append((a, b, 1)) }
    for path in rivalPaths { for (a, b) in zip(path, path.dropFirst()) { obstacles.segments.append((a, b, 1)) } }
    for p in pathPoints { obstacles.areas.append((Rect(around: p, radius: dot * 1.6), 3)) }
    for shape in keyShapes {
      let width = Self.textWidth(shape.character, shape.font, bold: false)
      obstacles.areas.append(
        (
          Rect(
            x: shape.label.x, y: shape.label.y - shape.font * 0.8, width: width, height: shape.font),
          2
        ))
    }
    let ringCenter = raw(lastPoint)
    let ring = max(8, kw * 0.3)
    obstacles.areas.append((Rect(around: ringCenter, radius: ring + 1.5), 3))

    var arrow: StartAngleArrow?
    if let angle = startAngle, angle.isFinite, let p0 = pathPoints.first {
      arrow = Self.startAngleArrow(
        Double(angle), from: p0, keyWidth: kw, dot: dot, obstacles: &obstacles, box: &box)
    }
    let lastFont = min(max(kw * 0.17, 11), 16)
    let lastLabel = Self.lastLetterLabel(
      ringCenter: ringCenter, ring: ring, font: lastFont, pathPoints: pathPoints, obstacles: obstacles,
      box: &box)
    return Scene(
      scale: s, keyWidth: kw, keyShapes: keyShapes, path: path, pathPoints: pathPoints,
      rivalPaths: rivalPaths, swipePoints: swipePoints, dot: dot, swipeDot: swipeDot, arrow: arrow,
      ringCenter: ringCenter, ring: ring, lastLabel: lastLabel, lastFont: lastFont, box: box)
  }

  /// Every key of the layout: its rectangle (a small gap inside its cell), its letter's
  /// place and size, and its role on the word's path.
  func keyShapes(centers: [Point], path: [Int], scale s: Double) -> [KeyShape] {
    let first = path.first
    let last = path.last
    let onPath = Set(path)
    return layout.keys.enumerated().map { index, key in
      let w = max(0, Self.clamp(Double(key.width)) * s)
      let h = max(0, Self.clamp(Double(key.height)) * s)
      let gap = min(w, h) * 0.04
      let c = centers[index]
      let rect = Rect(
        x: c.x - w / 2 + gap, y: c.y - h / 2 + gap, width: max(0, w - 2 * gap),
        height: max(0, h - 2 * gap))
      let font = min(max(min(w, h) * 0.26, 8), 40)
      let label = Point(x: rect.x + min(w, h) * 0.1, y: rect.y + font * 0.95 + min(w, h) * 0.04)
      let role: KeyRole =
        index == first ? .first : index == last ? .last : onPath.contains(index) ? .onPath : .other
      return KeyShape(rect: rect, label: label, font: font, character: String(key.character), role: role)
    }
  }

  /// The start angle `a` (radians) at the first key center `p0`: the arrow, the arc from +x
  /// and the label, placed beyond the tip, beside the arrow (either side), in the arc's
  /// opening or behind the start, where it covers least; what it draws is added to
  /// `obstacles` and `box`.
  static func startAngleArrow(
    _ a: Double, from p0: Point, keyWidth kw: Double, dot: Double, obstacles: inout Obstacles, box: inout Box
  ) -> StartAngleArrow {
    let dir = Point(x: cos(a), y: -sin(a))
    let normal = Point(x: -dir.y, y: dir.x)
    let length = kw * 1.3
    let tip = p0 + dir * length
    let headLength = max(9, kw * 0.2)
    let head = [
      tip, tip - dir * headLength + normal * (headLength * 0.5),
      tip - dir * headLength - normal * (headLength * 0.5),
    ]
    let radius = kw * 0.45
    // From +x to the arrow; counterclockwise on screen (y down) is SVG's sweep flag 0.
    let arc =
      abs(a) >= 0.01
      ? (
        from: p0 + Point(x: radius, y: 0), to: p0 + dir * radius, radius: radius,
        sweep: a > 0 ? 0 : 1
      )
      : nil
    let ray = p0 + Point(x: kw * 0.8, y: 0)
    obstacles.segments.append((p0, tip, 3))
    obstacles.segments.append((p0, ray, 1))
    let text = "\(fixedDecimal(a * 180 / .pi, places: 1))°"
    let font = min(max(kw * 0.2, 12), 20)
    let size = Point(x: textWidth(text, font, bold: true), y: font)
    let middle = p0 + dir * (length * 0.55)
    let bisector = Point(x: cos(a / 2), y: -sin(a / 2))
    let label = obstacles.bestPlace(
      for: size,
      candidates: [
        (tip, dir, 6), (middle, normal, 8), (middle, normal * -1, 8),
        (p0 + bisector * radius, bisector, 6), (p0, dir * -1, dot * 1.6 + 6),
      ])
    obstacles.areas.append((labelRect(label, size), 3))
    box.add(tip, radius: 2)
    box.add(ray, radius: 2)
    box.add(labelRect(label, size))
    return StartAngleArrow(
      from: p0, to: tip - dir * (headLength * 0.6), head: head, arc: arc, ray: ray, label: label, text: text,
      font: font)
  }

  /// Where the last-letter ring's label goes: where it covers least, first choice on from
  /// the path's last segment, where the path does not go. The ring and the label are added
  /// to `box`.
  static func lastLetterLabel(
    ringCenter: Point, ring: Double, font: Double, pathPoints: [Point], obstacles: Obstacles, box: inout Box
  ) -> Point {
    var incoming = Point(x: 0, y: 1)
    if pathPoints.count > 1 {
      let d = pathPoints[pathPoints.count - 1] - pathPoints[pathPoints.count - 2]
      let length = (d.x * d.x + d.y * d.y).squareRoot()
      if length > 0 { incoming = d * (1 / length) }
    }
    let size = Point(x: textWidth(lastText, font, bold: true), y: font)
    var candidates: [(Point, Point, Double)] = [(ringCenter, incoming, ring + 4)]
    for (x, y) in [(0.0, 1.0), (0, -1), (1, 0), (-1, 0)] {
      candidates.append((ringCenter, Point(x: x, y: y), ring + 4))
    }
    let label = obstacles.bestPlace(for: size, candidates: candidates)
    box.add(ringCenter, radius: ring + 2)
    box.add(labelRect(label, size))
    return label
  }

  /// The title's details (after the word) and the subtitle.
  func titleTexts(_ scene: Scene) -> (details: String, subtitle: String) {
    let keyWidthUnit = "\(Self.n(Double(layout.keyWidth))) \(layout.unit)"
    let pathLetters = scene.path.map { String(layout.keys[$0].character) }.joined(separator: " ")
    let keyCount = scene.path.count == 1 ? "1 key" : "\(scene.path.count) keys"
    let details =
      "  frequency \(frequency)/255 · \(keyCount) (\(pathLetters)) · expected length "
      + "\(Self.n(Double(expectedLength))) key widths"
    let subtitle =
      "layout \(layout.name) · key width \(keyWidthUnit) · \(Self.n(scene.scale)) px per \(layout.unit)"
      + " · swipedict draw"
    return (details, subtitle)
  }

  /// The legend: the perfect swipe, the start angle, the last letter, the swipe drawn over
  /// it and the rivals, each with its mark.
  func legendEntries(_ scene: Scene) -> [(mark: LegendMark, text: String)] {
    var legend: [(mark: LegendMark, text: String)] = [
      (.path, "perfect swipe through the key centers")
    ]
    if let arrow = scene.arrow {
      legend.append((.arrow, "start angle \(arrow.text), counterclockwise from +x"))
    } else {
      legend.append((.arrow, "no start angle (one key)"))
    }
    let lastCharacter = scene.path.last.map { String(layout.keys[$0].character) } ?? "?"
    legend.append(
      (
        .ring,
        "last letter \(lastCharacter) at (\(Self.n(Double(lastPoint.x))), \(Self.n(Double(lastPoint.y)))) \(layout.unit)"
      ))
    if let overlay {
      var length = 0.0
      for (a, b) in zip(overlay.points, overlay.points.dropFirst()) {
        length += Double(a.distance(to: b))
      }
      let widths = layout.keyWidth > 0 ? length / Double(layout.keyWidth) : 0
      let meant = overlay.word.map { ", meant “\($0)”" } ?? ""
      let count = overlay.points.count == 1 ? "1 point" : "\(overlay.points.count) points"
      legend.append(
        (
          .swipe,
          "\(overlay.source)\(meant): \(count) from the open dot, \(Self.n(widths)) key widths"
        ))
    }
    for (i, rival) in rivals.prefix(Self.rivalColors.count).enumerated() {
      legend.append((.rival(Self.rivalColors[i]), rival.label))
    }
    return legend
  }

  /// The page: its size, the scene's offset on it (centered below the title), and the
  /// legend's entries laid out in rows below the scene.
  struct Canvas {
    var width: Double
    var height: Double
    var offset: Point
    var legendTop: Double
    var legendPlaces: [(Point, LegendMark, String)]

    func at(_ p: Point) -> Point { p + offset }
  }

  func canvas(
    _ scene: Scene, title: (details: String, subtitle: String), legend: [(mark: LegendMark, text: String)]
  ) -> Canvas {
    let box = scene.box
    let margin = Self.margin
    let titleHeight = Self.titleSize + Self.subtitleSize + 22
    let titleWidth = Self.textWidth(word, Self.titleSize, bold: true) + Self.textWidth(title.details, 15, bold: false)
    let minX = box.isEmpty ? 0 : box.minX
    let minY = box.isEmpty ? 0 : box.minY
    let contentWidth = box.isEmpty ? 0 : box.maxX - box.minX
    let contentHeight = box.isEmpty ? 0 : box.maxY - box.minY
    let width =
      (max(contentWidth, titleWidth, Self.textWidth(title.subtitle, Self.subtitleSize, bold: false)) + 2
      * margin).rounded(.up)
    var legendPlaces: [(Point, LegendMark, String)] = []
    var cursor = Point(x: margin, y: 0)
    for item in legend {
      let itemWidth = 34 + Self.textWidth(item.text, Self.legendSize, bold: false)
      if cursor.x > margin, cursor.x + itemWidth > width - margin {
        cursor = Point(x: margin, y: cursor.y + Self.legendRow)
      }
      legendPlaces.append((cursor, item.mark, item.text))
      cursor.x += itemWidth + 22
    }
    let legendTop = margin + titleHeight + contentHeight + 18
    let height = (legendTop + cursor.y + Self.legendRow + margin).rounded(.up)
    let offset = Point(
      x: margin - minX + (width - 2 * margin - contentWidth) / 2, y: margin + titleHeight - minY)
    return Canvas(width: width, height: height, offset: offset, legendTop: legendTop, legendPlaces: legendPlaces)
  }
}
