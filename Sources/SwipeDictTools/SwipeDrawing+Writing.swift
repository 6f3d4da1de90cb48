import SwipeDict
@_spi(SwipeDictInternals) import SwipeDictFormat

// The SVG text of each group of a drawing, from its scene and canvas.
extension SwipeDrawing {
  /// The document's head, background, title and subtitle.
  func writeTitle(_ title: (details: String, subtitle: String), _ canvas: Canvas, to out: inout SVGWriter) {
    let (width, height, margin) = (canvas.width, canvas.height, Self.margin)
    let (details, subtitle) = title
    out.line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
    out.line(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.n(width))\" height=\"\(Self.n(height))\" "
        + "viewBox=\"0 0 \(Self.n(width)) \(Self.n(height))\" "
        + "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">")
    out.line("<title>\(Self.escape("swipedict draw: \(word)"))</title>")
    out.line(
      "<rect width=\"\(Self.n(width))\" height=\"\(Self.n(height))\" fill=\"\(Color.background)\"/>"
    )
    out.line(
      "<text id=\"title\" x=\"\(Self.n(margin))\" y=\"\(Self.n(margin + Self.titleSize))\" fill=\"\(Color.text)\" "
        + "font-size=\"15.00\"><tspan font-size=\"\(Self.n(Self.titleSize))\" font-weight=\"bold\">"
        + "\(Self.escape(word))</tspan>\(Self.escape(details))</text>")
    out.line(
      "<text id=\"subtitle\" x=\"\(Self.n(margin))\" y=\"\(Self.n(margin + Self.titleSize + Self.subtitleSize + 8))\" "
        + "fill=\"\(Color.faint)\" font-size=\"\(Self.n(Self.subtitleSize))\">\(Self.escape(subtitle))</text>"
    )
  }

  /// The keys, each with its letter.
  func writeKeys(_ scene: Scene, _ canvas: Canvas, to out: inout SVGWriter) {
    let offset = canvas.offset
    out.line("<g id=\"keys\">")
    for shape in scene.keyShapes {
      let r = shape.rect
      let (fill, stroke, strokeWidth) =
        switch shape.role {
        case .first: (Color.startFill, Color.start, 2.5)
        case .last: (Color.endFill, Color.end, 2.5)
        case .onPath: (Color.pathKeyFill, Color.keyStroke, 1.0)
        case .other: (Color.keyFill, Color.keyStroke, 1.0)
        }
      let corner = min(r.width, r.height) * 0.12
      out.line(
        "<rect class=\"key\" x=\"\(Self.n(r.x + offset.x))\" y=\"\(Self.n(r.y + offset.y))\" "
          + "width=\"\(Self.n(r.width))\" height=\"\(Self.n(r.height))\" rx=\"\(Self.n(corner))\" "
          + "fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(Self.n(strokeWidth))\"/>")
      let p = canvas.at(shape.label)
      out.line(
        "<text class=\"key-label\" x=\"\(Self.n(p.x))\" y=\"\(Self.n(p.y))\" font-size=\"\(Self.n(shape.font))\" "
          + "fill=\"\(Color.keyLabel)\">\(Self.escape(shape.character))</text>")
    }
    out.line("</g>")
  }

  /// The rivals' perfect swipes, dashed, each shifted a little.
  func writeRivals(_ scene: Scene, _ canvas: Canvas, to out: inout SVGWriter) {
    let (kw, dot, at) = (scene.keyWidth, scene.dot, canvas.at)
    guard !scene.rivalPaths.isEmpty else { return }
    out.line("<g id=\"rivals\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\">")
    for (i, path) in scene.rivalPaths.enumerated() {
      let color = Self.rivalColors[i]
      // Each rival shifted a little, so that paths over the same keys stay apart.
      let shift = Point(x: Double(i + 1) * kw * 0.045, y: Double(i + 1) * kw * 0.045)
      out.line(
        "<polyline class=\"rival-path\" data-word=\"\(Self.escape(rivals[i].word))\" "
          + "points=\"\(Self.points(path.map { at($0) + shift }))\" stroke=\"\(color)\" "
          + "stroke-width=\"\(Self.n(max(2, kw * 0.045)))\" stroke-dasharray=\"8 5\" stroke-opacity=\"0.9\"/>")
      if let first = path.first {
        let p = at(first) + shift
        out.line(
          "<circle cx=\"\(Self.n(p.x))\" cy=\"\(Self.n(p.y))\" r=\"\(Self.n(dot))\" fill=\"\(color)\"/>")
      }
    }
    out.line("</g>")
  }

  /// The word's perfect swipe: its path and its key centers.
  func writePerfectSwipe(_ scene: Scene, _ canvas: Canvas, to out: inout SVGWriter) {
    let (kw, dot, pathPoints, at) = (scene.keyWidth, scene.dot, scene.pathPoints, canvas.at)
    out.line("<g id=\"perfect-swipe\">")
    out.line(
      "<polyline id=\"perfect-path\" points=\"\(Self.points(pathPoints.map(at)))\" fill=\"none\" "
        + "stroke=\"\(Color.path)\" stroke-width=\"\(Self.n(max(2, kw * 0.05)))\" "
        + "stroke-linejoin=\"round\" stroke-linecap=\"round\" stroke-opacity=\"0.85\"/>")
    for (i, p) in pathPoints.map(at).enumerated() {
      let isFirst = i == 0
      out.line(
        "<circle class=\"key-center\" cx=\"\(Self.n(p.x))\" cy=\"\(Self.n(p.y))\" "
          + "r=\"\(Self.n(isFirst ? dot * 1.6 : dot))\" fill=\"\(isFirst ? Color.start : Color.path)\" "
          + "stroke=\"#ffffff\" stroke-width=\"1.50\"/>")
    }
    out.line("</g>")
  }

  /// The swipe drawn over the perfect one, if any: its path, points and start.
  func writeSwipe(_ scene: Scene, _ canvas: Canvas, to out: inout SVGWriter) {
    let (kw, swipeDot, swipePoints, at) = (scene.keyWidth, scene.swipeDot, scene.swipePoints, canvas.at)
    guard !swipePoints.isEmpty else { return }
    out.line("<g id=\"swipe\">")
    out.line(
      "<polyline id=\"swipe-path\" points=\"\(Self.points(swipePoints.map(at)))\" fill=\"none\" "
        + "stroke=\"\(Color.swipe)\" stroke-width=\"\(Self.n(max(1.25, kw * 0.02)))\" "
        + "stroke-linejoin=\"round\"/>")
    for p in swipePoints.map(at) {
      out.line(
        "<circle class=\"swipe-point\" cx=\"\(Self.n(p.x))\" cy=\"\(Self.n(p.y))\" r=\"\(Self.n(swipeDot))\" "
          + "fill=\"\(Color.swipe)\"/>")
    }
    let start = at(swipePoints[0])
    out.line(
      "<circle id=\"swipe-start\" cx=\"\(Self.n(start.x))\" cy=\"\(Self.n(start.y))\" "
        + "r=\"\(Self.n(swipeDot * 3))\" fill=\"none\" stroke=\"\(Color.swipe)\" stroke-width=\"1.50\"/>"
    )
    out.line("</g>")
  }

  /// The start angle, if the word has one: the +x axis, the arc, the arrow and its label.
  func writeStartAngle(_ scene: Scene, _ canvas: Canvas, to out: inout SVGWriter) {
    guard let arrow = scene.arrow else { return }
    let (kw, at) = (scene.keyWidth, canvas.at)
    let from = at(arrow.from)
    let to = at(arrow.to)
    let ray = at(arrow.ray)
    let width = max(2.5, kw * 0.05)
    out.line("<g id=\"start-angle\" fill=\"none\" stroke=\"\(Color.start)\">")
    out.line(
      "<line id=\"x-axis\" x1=\"\(Self.n(from.x))\" y1=\"\(Self.n(from.y))\" x2=\"\(Self.n(ray.x))\" "
        + "y2=\"\(Self.n(ray.y))\" stroke=\"\(Color.faint)\" stroke-width=\"1.50\" stroke-dasharray=\"4 3\"/>"
    )
    if let arc = arrow.arc {
      let a = at(arc.from)
      let b = at(arc.to)
      out.line(
        "<path id=\"start-arc\" d=\"M \(Self.n(a.x)) \(Self.n(a.y)) A \(Self.n(arc.radius)) \(Self.n(arc.radius)) "
          + "0 0 \(arc.sweep) \(Self.n(b.x)) \(Self.n(b.y))\" stroke-width=\"1.50\"/>")
    }
    out.line(
      "<line id=\"start-arrow\" x1=\"\(Self.n(from.x))\" y1=\"\(Self.n(from.y))\" x2=\"\(Self.n(to.x))\" "
        + "y2=\"\(Self.n(to.y))\" stroke-width=\"\(Self.n(width))\" stroke-linecap=\"round\"/>")
    out.line(
      "<polygon id=\"start-arrow-head\" points=\"\(Self.points(arrow.head.map(at)))\" "
        + "fill=\"\(Color.start)\" stroke=\"none\"/>")
    let label = at(arrow.label)
    out.line(
      "<text id=\"start-angle-label\" x=\"\(Self.n(label.x))\" y=\"\(Self.n(label.y + arrow.font * 0.35))\" "
        + "text-anchor=\"middle\" font-size=\"\(Self.n(arrow.font))\" font-weight=\"bold\" "
        + "fill=\"\(Color.start)\" stroke=\"#ffffff\" stroke-width=\"3.00\" paint-order=\"stroke\">"
        + "\(Self.escape(arrow.text))</text>")
    out.line("</g>")
  }

  /// The last-letter point: its ring, its dot and its label.
  func writeLastLetter(_ scene: Scene, _ canvas: Canvas, to out: inout SVGWriter) {
    let (ring, dot, lastFont, lastText) = (scene.ring, scene.dot, scene.lastFont, Self.lastText)
    let ringAt = canvas.at(scene.ringCenter)
    let lastAt = canvas.at(scene.lastLabel)
    out.line("<g id=\"last-letter\">")
    out.line(
      "<circle id=\"last-letter-point\" cx=\"\(Self.n(ringAt.x))\" cy=\"\(Self.n(ringAt.y))\" r=\"\(Self.n(ring))\" "
        + "fill=\"none\" stroke=\"\(Color.end)\" stroke-width=\"3.00\"/>")
    out.line(
      "<circle cx=\"\(Self.n(ringAt.x))\" cy=\"\(Self.n(ringAt.y))\" r=\"\(Self.n(dot))\" fill=\"\(Color.end)\" "
        + "stroke=\"#ffffff\" stroke-width=\"1.50\"/>")
    out.line(
      "<text id=\"last-letter-label\" x=\"\(Self.n(lastAt.x))\" y=\"\(Self.n(lastAt.y + lastFont * 0.35))\" "
        + "text-anchor=\"middle\" font-size=\"\(Self.n(lastFont))\" font-weight=\"bold\" fill=\"\(Color.end)\" "
        + "stroke=\"#ffffff\" stroke-width=\"3.00\" paint-order=\"stroke\">\(lastText)</text>")
    out.line("</g>")
  }

  /// The legend, in the rows the canvas laid out.
  func writeLegend(_ canvas: Canvas, to out: inout SVGWriter) {
    let legendTop = canvas.legendTop
    out.line("<g id=\"legend\" font-size=\"\(Self.n(Self.legendSize))\" fill=\"\(Color.text)\">")
    for (place, mark, text) in canvas.legendPlaces {
      let x = place.x
      let y = legendTop + place.y
      let mid = y - Self.legendSize * 0.35
      switch mark {
      case .path:
        out.line(
          "<line x1=\"\(Self.n(x))\" y1=\"\(Self.n(mid))\" x2=\"\(Self.n(x + 26))\" y2=\"\(Self.n(mid))\" "
            + "stroke=\"\(Color.path)\" stroke-width=\"4.00\" stroke-linecap=\"round\"/>")
      case .arrow:
        out.line(
          "<line x1=\"\(Self.n(x))\" y1=\"\(Self.n(mid))\" x2=\"\(Self.n(x + 18))\" y2=\"\(Self.n(mid))\" "
            + "stroke=\"\(Color.start)\" stroke-width=\"3.00\"/>")
        out.line(
          "<polygon points=\"\(Self.points([Point(x: x + 26, y: mid), Point(x: x + 17, y: mid - 5), Point(x: x + 17, y: mid + 5)]))\" "
            + "fill=\"\(Color.start)\"/>")
      case .ring:
        out.line(
          "<circle cx=\"\(Self.n(x + 13))\" cy=\"\(Self.n(mid))\" r=\"7.00\" fill=\"none\" stroke=\"\(Color.end)\" "
            + "stroke-width=\"2.50\"/>")
      case .rival(let color):
        out.line(
          "<line x1=\"\(Self.n(x))\" y1=\"\(Self.n(mid))\" x2=\"\(Self.n(x + 26))\" y2=\"\(Self.n(mid))\" "
            + "stroke=\"\(color)\" stroke-width=\"3.00\" stroke-dasharray=\"8 5\"/>")
      case .swipe:
        out.line(
          "<line x1=\"\(Self.n(x))\" y1=\"\(Self.n(mid))\" x2=\"\(Self.n(x + 26))\" y2=\"\(Self.n(mid))\" "
            + "stroke=\"\(Color.swipe)\" stroke-width=\"1.50\"/>")
        for dx in [3.0, 13, 23] {
          out.line(
            "<circle cx=\"\(Self.n(x + dx))\" cy=\"\(Self.n(mid))\" r=\"2.00\" fill=\"\(Color.swipe)\"/>"
          )
        }
        out.line(
          "<circle cx=\"\(Self.n(x + 3))\" cy=\"\(Self.n(mid))\" r=\"5.00\" fill=\"none\" "
            + "stroke=\"\(Color.swipe)\" stroke-width=\"1.50\"/>")
      }
      out.line("<text x=\"\(Self.n(x + 34))\" y=\"\(Self.n(y))\">\(Self.escape(text))</text>")
    }
    out.line("</g>")
  }
}

/// Lines of SVG text.
struct SVGWriter {
  /// What was written.
  private(set) var text = ""
  /// Appends `s` and a newline.
  mutating func line(_ s: String) {
    text += s
    text += "\n"
  }
}
