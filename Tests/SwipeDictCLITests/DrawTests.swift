import Foundation
import SwipeDictTestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// An SVG file parsed as XML: its elements in document order, with their attributes and text.
final class SVGDocument: NSObject, XMLParserDelegate {
  struct Element {
    var name: String
    var attributes: [String: String]
    /// The text inside the element and its descendants.
    var text: String

    func number(_ attribute: String) -> Double? { attributes[attribute].flatMap(Double.init) }

    /// The `points` attribute of a polyline or polygon.
    var points: [(x: Double, y: Double)] {
      (attributes["points"] ?? "").split(separator: " ").map { pair in
        let xy = pair.split(separator: ",").map { Double($0) ?? .nan }
        return (xy.first ?? .nan, xy.count > 1 ? xy[1] : .nan)
      }
    }
  }

  private(set) var elements: [Element] = []
  private var open: [Int] = []

  /// Parses `text`; throws when it is not well-formed XML.
  static func parse(_ text: String) throws -> SVGDocument {
    let document = SVGDocument()
    let parser = XMLParser(data: Data(text.utf8))
    parser.delegate = document
    guard parser.parse() else {
      throw parser.parserError ?? CocoaError(.coderReadCorrupt)
    }
    return document
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    open.append(elements.count)
    elements.append(Element(name: elementName, attributes: attributeDict, text: ""))
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    open.removeLast()
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    for index in open { elements[index].text += string }
  }

  /// The elements named `name` with `class` equal to `cls` (any class when `nil`).
  func all(_ name: String, class cls: String? = nil) -> [Element] {
    elements.filter { $0.name == name && (cls == nil || $0.attributes["class"] == cls) }
  }

  /// The element with this `id`.
  func element(id: String) -> Element? { elements.first { $0.attributes["id"] == id } }
}

/// `swipedict draw` on the CLI test layout: keys 10 pt apart, rows 15 pt apart, key `c` of
/// row `r` at x = 10c + 5 + 5r, y = 15r + 8; 10 × 14.4 pt keys.
@Suite("swipedict draw", .serialized)
struct DrawTests {
  let workspace: Workspace
  let blob: String
  /// The test layout's key centers, in layout order.
  let centers: [Character: (x: Double, y: Double)]
  let order: [Character]

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
    var centers: [Character: (x: Double, y: Double)] = [:]
    var order: [Character] = []
    for (row, letters) in ["qwertyuiop", "asdfghjkl", "zxcvbnm"].enumerated() {
      for (column, letter) in letters.enumerated() {
        centers[letter] = (Double(column * 10 + 5 + row * 5), Double(row * 15 + 8))
        order.append(letter)
      }
    }
    self.centers = centers
    self.order = order
  }

  /// Draws `word` at 4 px per pt and parses the SVG.
  func draw(_ arguments: [String]) throws -> (SVGDocument, String) {
    let result = try CLI.run(["draw", blob] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    return (try SVGDocument.parse(result.stdout), result.stdout)
  }

  /// The pixel offset of layout (0, 0), from the first key's rectangle (its center is q's).
  func offset(_ svg: SVGDocument, scale: Double) throws -> (x: Double, y: Double) {
    let q = try #require(svg.all("rect", class: "key").first)
    let x = try #require(q.number("x")) + (try #require(q.number("width"))) / 2
    let y = try #require(q.number("y")) + (try #require(q.number("height"))) / 2
    return (x - 5 * scale, y - 8 * scale)
  }

  @Test func keysAndThePerfectSwipeAreWhereTheLayoutSays() throws {
    let (svg, _) = try draw(["hello", "--scale", "4"])
    let origin = try offset(svg, scale: 4)
    func pixel(_ c: Character) -> (x: Double, y: Double) {
      (centers[c]!.x * 4 + origin.x, centers[c]!.y * 4 + origin.y)
    }
    // One key rectangle per layout key, centerd on the key center, with its character.
    let keys = svg.all("rect", class: "key")
    #expect(keys.count == 26)
    for (rect, letter) in zip(keys, order) {
      let x = (rect.number("x") ?? 0) + (rect.number("width") ?? 0) / 2
      let y = (rect.number("y") ?? 0) + (rect.number("height") ?? 0) / 2
      #expect(abs(x - pixel(letter).x) < 0.011 && abs(y - pixel(letter).y) < 0.011, "\(letter)")
      // 10 × 14.4 pt at 4 px/pt, less a small gap between keys.
      #expect(
        (36...40).contains(rect.number("width") ?? 0)
          && (54...57.6).contains(rect.number("height") ?? 0))
    }
    #expect(svg.all("text", class: "key-label").map(\.text) == order.map(String.init))

    // The perfect swipe: h e l o (the double l collapses), through the key centers.
    let path = try #require(svg.element(id: "perfect-path"))
    let expected = "helo".map(pixel)
    #expect(path.points.count == 4)
    for (point, want) in zip(path.points, expected) {
      #expect(abs(point.x - want.x) < 0.011 && abs(point.y - want.y) < 0.011)
    }
    let dots = svg.all("circle", class: "key-center")
    #expect(dots.count == 4)
    #expect(
      zip(dots, expected).allSatisfy {
        abs(($0.number("cx") ?? 0) - $1.x) < 0.011 && abs(($0.number("cy") ?? 0) - $1.y) < 0.011
      })

    // The last-letter point is o's center, labelled.
    let last = try #require(svg.element(id: "last-letter-point"))
    #expect(abs((last.number("cx") ?? 0) - pixel("o").x) < 0.011)
    #expect(abs((last.number("cy") ?? 0) - pixel("o").y) < 0.011)
    #expect(svg.element(id: "last-letter-label")?.text == "last letter")

    // Title: word, frequency byte, key count, expected length (12.0 key widths, see CLITests).
    let title = try #require(svg.element(id: "title")).text
    #expect(title.hasPrefix("hello"))
    #expect(title.contains("frequency 255/255"))
    #expect(title.contains("4 keys (h e l o)"))
    #expect(title.contains("expected length 12.00 key widths"))
    #expect(svg.element(id: "subtitle")?.text.contains("layout cli") == true)
  }

  @Test func theStartArrowPointsFromTheFirstKeyTowardsTheSecond() throws {
    // hello: h (60, 23) → e (25, 8): up and to the left, atan2(15, −35) = 156.80°.
    let (hello, _) = try draw(["hello", "--scale", "4"])
    let origin = try offset(hello, scale: 4)
    let arrow = try #require(hello.element(id: "start-arrow"))
    let x1 = try #require(arrow.number("x1"))
    let y1 = try #require(arrow.number("y1"))
    let x2 = try #require(arrow.number("x2"))
    let y2 = try #require(arrow.number("y2"))
    #expect(abs(x1 - (60 * 4 + origin.x)) < 0.011 && abs(y1 - (23 * 4 + origin.y)) < 0.011)
    #expect(x2 < x1 && y2 < y1)  // left and up on screen
    #expect(abs(atan2(-(y2 - y1), x2 - x1) * 180 / .pi - 156.80) < 0.05)
    #expect(hypot(x2 - x1, y2 - y1) > 40)  // longer than a key width (40 px) less the head
    #expect(hello.element(id: "start-angle-label")?.text == "156.8°")
    #expect(hello.element(id: "start-arc") != nil)

    // über: u (65, 8) → b (55, 38): down and a little left, atan2(−30, −10) = −108.43°.
    let (uber, _) = try draw(["über", "--scale", "4"])
    let down = try #require(uber.element(id: "start-arrow"))
    let dx = (down.number("x2") ?? 0) - (down.number("x1") ?? 0)
    let dy = (down.number("y2") ?? 0) - (down.number("y1") ?? 0)
    #expect(dx < 0 && dy > 0)
    #expect(abs(atan2(-dy, dx) * 180 / .pi + 108.43) < 0.05)
    #expect(uber.element(id: "start-angle-label")?.text == "-108.4°")
    #expect(uber.element(id: "title")?.text.hasPrefix("über") == true)
  }

  @Test func theSameInputsGiveTheSameBytes() throws {
    let (_, first) = try draw(["world"])
    let (_, second) = try draw(["world"])
    #expect(first == second)
    #expect(first.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
    // Every number attribute has two decimals.
    let attribute = try NSRegularExpression(pattern: #" (?!version)[a-z0-9-]+="(-?[0-9.]+)""#)
    let values = attribute.matches(in: first, range: NSRange(first.startIndex..., in: first)).map {
      String(first[Range($0.range(at: 1), in: first)!])
    }
    #expect(values.count > 100)
    #expect(values.allSatisfy { $0.split(separator: ".").last?.count == 2 })
    // -o writes the same bytes, atomically (no temporary file left beside it).
    let file = workspace.file("world.svg")
    let written = try CLI.run(["draw", blob, "world", "-o", file])
    #expect(written.status == 0 && written.stdout.isEmpty)
    #expect(FileManager.default.contents(atPath: file) == Data(first.utf8))
    let dashed = try CLI.run(["draw", blob, "world", "-o", "-"])
    #expect(dashed.stdout == first)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.path)
      .filter { $0.contains(".tmp-") }
    #expect(leftovers.isEmpty)
    // The default scale draws the 100 pt wide keyboard 800 px wide.
    let svg = try SVGDocument.parse(first)
    let keys = svg.all("rect", class: "key")
    let left = keys.map { $0.number("x") ?? 0 }.min() ?? 0
    let right = keys.map { ($0.number("x") ?? 0) + ($0.number("width") ?? 0) }.max() ?? 0
    #expect(abs((right - left) - 800) < 8)
    #expect(svg.element(id: "subtitle")?.text.contains("8.00 px per pt") == true)
  }

  @Test func aSwipeIsDrawnOverThePerfectOne() throws {
    let swipes = workspace.file("swipes.jsonl")
    let synth = try CLI.run([
      "synth", blob, "--words", "hello", "world", "--seed", "5", "-o", swipes,
    ])
    #expect(synth.status == 0, "\(synth.stderr)")
    let lines = try String(contentsOfFile: swipes, encoding: .utf8).split(separator: "\n")
    let world = try #require(
      try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
    let points = try #require(world["points"] as? [[Double]])

    let (svg, _) = try draw(["world", "--swipe", swipes, "--line", "2", "--scale", "4"])
    let origin = try offset(svg, scale: 4)
    let line = try #require(svg.element(id: "swipe-path"))
    #expect(line.points.count == points.count)
    #expect(svg.all("circle", class: "swipe-point").count == points.count)
    for (drawn, point) in zip(line.points, points) {
      #expect(abs(drawn.x - (point[0] * 4 + origin.x)) < 0.011)
      #expect(abs(drawn.y - (point[1] * 4 + origin.y)) < 0.011)
    }
    let start = try #require(svg.element(id: "swipe-start"))
    #expect(abs((start.number("cx") ?? 0) - (points[0][0] * 4 + origin.x)) < 0.011)
    #expect(abs((start.number("cy") ?? 0) - (points[0][1] * 4 + origin.y)) < 0.011)
    let legend = try #require(svg.element(id: "legend")).text
    #expect(legend.contains("swipe 2 of swipes.jsonl, meant “world”: \(points.count) points"))

    // --line defaults to the first swipe; without --swipe there is no overlay.
    let (first, _) = try draw(["hello", "--swipe", swipes])
    #expect(
      first.all("circle", class: "swipe-point").count
        == (try #require(
          try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])["points"]
        as? [Any])?.count)
    let (none, _) = try draw(["hello"])
    #expect(none.element(id: "swipe-path") == nil)
  }

  @Test func theDecodersRivalsAreDrawnDashedWithTheirScores() throws {
    let swipes = workspace.file("rivals.jsonl")
    let synth = try CLI.run(["synth", blob, "--words", "help", "--seed", "3", "-o", swipes])
    #expect(synth.status == 0, "\(synth.stderr)")
    // The workspace's words: hello, help, Hello, world, über, Über. Drawn as "hello", the
    // decoder's other words are rivals; the legend names each with its place and scores.
    let (svg, _) = try draw(["hello", "--swipe", swipes, "--candidates", "3", "--scale", "4"])
    let rivals = svg.all("polyline", class: "rival-path")
    #expect(!rivals.isEmpty && rivals.count <= 3)
    #expect(!rivals.contains { $0.attributes["data-word"] == "hello" }, "the drawn word is not its own rival")
    let origin = try offset(svg, scale: 4)
    let help = try #require(rivals.first { $0.attributes["data-word"] == "help" })
    // h e l p, each point shifted by a few hundredths of a key width.
    #expect(help.points.count == 4)
    for (point, letter) in zip(help.points, "help") {
      let center = try #require(centers[letter])
      #expect(abs(point.x - (center.x * 4 + origin.x)) < 4)
      #expect(abs(point.y - (center.y * 4 + origin.y)) < 4)
    }
    let legend = try #require(svg.element(id: "legend")).text
    #expect(legend.contains("1. help: distance"), "\(legend)")
    #expect(
      legend.contains("hello shown") || legend.contains("hello rank") || legend.contains("hello dropped"), "\(legend)")
    // --candidates needs a swipe and a count in 1…6.
    for bad in [
      ["--candidates", "2"], ["--swipe", swipes, "--candidates", "0"], ["--swipe", swipes, "--candidates", "7"],
    ] {
      let result = try CLI.run(["draw", blob, "hello"] + bad)
      #expect(result.status == 64, "\(bad): \(result.stderr)")
    }
  }

  @Test func textIsEscaped() throws {
    // A layout whose keys are XML's special characters, and words made of them.
    let keys = ["a", "b", "&", "<", ">", "\\\"", "'"].enumerated().map { i, c in
      #"{"char": "\#(c)", "x": \#(i * 10 + 5), "y": 8}"#
    }
    try workspace.write(
      "marks.json",
      #"{"name": "<marks & \"quotes\">", "unit": "pt", "keyWidth": 10, "keys": [\#(keys.joined(separator: ","))]}"#
    )
    try workspace.write("marks.tsv", "a&b\t9\n<ab>\t8\na\"b'\t7\n")
    let marks = workspace.file("marks.swipedict")
    let build = try CLI.run([
      "build", workspace.file("marks.tsv"), "--layout", workspace.file("marks.json"), "-o", marks,
    ])
    #expect(build.status == 0, "\(build.stderr)")
    for word in ["a&b", "<ab>", "a\"b'"] {
      let result = try CLI.run(["draw", marks, word])
      #expect(result.status == 0, "\(result.stderr)")
      let svg = try SVGDocument.parse(result.stdout)
      #expect(svg.element(id: "title")?.text.hasPrefix(word) == true, "\(word)")
      #expect(svg.element(id: "subtitle")?.text.contains("layout <marks & \"quotes\">") == true)
      #expect(
        svg.all("text", class: "key-label").map(\.text) == ["a", "b", "&", "<", ">", "\"", "'"])
      #expect(svg.all("title").first?.text == "swipedict draw: \(word)")
    }
  }

  @Test func errorsAndExitCodes() throws {
    let missing = try CLI.run(["draw", blob, "nope"])
    #expect(missing.status == 1 && missing.stdout.isEmpty)
    #expect(missing.stderr.hasPrefix("error: \"nope\" is not in \(blob)"))
    #expect(missing.stderr.contains("swipedict query \(blob) --correct nope"))
    let cased = try CLI.run(["draw", blob, "HELP"])
    #expect(cased.status == 1)
    #expect(cased.stderr.contains(#""HELP" is not in \#(blob) (it has "help")"#))
    let spaced = try CLI.run(["draw", blob, "it's here"])
    #expect(spaced.status == 1)
    #expect(spaced.stderr.contains("' ' has no key on layout cli"))
    #expect(spaced.stderr.contains(#"--correct 'it'\''s here'"#))
    let untypeable = try CLI.run(["draw", blob, "h3llo"])
    #expect(untypeable.status == 1 && untypeable.stderr.contains("'3' has no key on layout cli"))
    let keyless = try CLI.run(["draw", blob, "'-'"])
    #expect(keyless.status == 1)
    #expect(
      keyless.stderr.contains(
        #"error: "'-'" has no character with a key on layout cli: there is no swipe to draw"#))

    let noBlob = try CLI.run(["draw", workspace.file("absent.swipedict"), "hello"])
    #expect(noBlob.status == 1 && noBlob.stderr.contains("absent.swipedict"))
    let file = workspace.file("one.jsonl")
    try workspace.write("one.jsonl", #"{"word": "hello", "points": [[60, 23], [25, 8]]}"# + "\n")
    let pastTheEnd = try CLI.run(["draw", blob, "hello", "--swipe", file, "--line", "2"])
    #expect(
      pastTheEnd.status == 1 && pastTheEnd.stderr.contains("has 1 swipe; --line 2 is past the end"))
    try workspace.write("bad.jsonl", "{\"points\": [[1, 2], [3]]}\n")
    let bad = try CLI.run(["draw", blob, "hello", "--swipe", workspace.file("bad.jsonl")])
    #expect(bad.status == 1 && bad.stderr.contains("bad.jsonl:1:"))
    let unwritable = try CLI.run(["draw", blob, "hello", "-o", workspace.file("no/such/dir.svg")])
    #expect(unwritable.status == 1 && unwritable.stderr.hasPrefix("error: "))

    for usage in [
      ["hello", "--line", "2"], ["hello", "--swipe", file, "--line", "0"],
      ["hello", "--scale", "0"],
      ["hello", "--scale", "nan"], ["hello", "--scale", "-2"], [],
    ] {
      let result = try CLI.run(["draw", blob] + usage)
      #expect(result.status == 64, "\(usage)")
    }
    let help = try CLI.run(["draw", "--help"])
    #expect(help.status == 0 && help.stdout.contains("Examples:"))
    let top = try CLI.run(["--help"])
    #expect(top.stdout.contains("draw"))
  }
}
