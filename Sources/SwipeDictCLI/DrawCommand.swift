import ArgumentParser
import SwipeDecoder
import SwipeDict
import SwipeDictCommandLine
import SwipeDictCompiler
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTools

/// `swipedict draw BLOB WORD`: a word's perfect swipe on the blob's keyboard, as SVG.
///
/// Parses the arguments, looks the word up, gathers its key path and swipe features and an
/// optional swipe from a JSON Lines file, and hands them to ``SwipeDrawing``, which builds the
/// picture. Writes the SVG atomically to `-o FILE`, or to standard output.
struct DrawCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "draw",
    abstract: "Draw a word's perfect swipe on the blob's keyboard layout, as an SVG picture.",
    discussion: """
      The picture shows every key of the blob's layout, the word's perfect swipe (the line \
      through the centers of its keys, first key green, last key red), the start angle (an \
      arrow from the first key, in degrees counterclockwise from +x as seen on screen), the \
      last-letter point (a ring), and a title with the word's frequency byte, key count and \
      expected length in key widths. --swipe draws a recorded or synthetic swipe over it \
      (a swipe JSON Lines file, as `swipedict synth` writes), so a decoder's input can be \
      seen against the word's perfect path. --candidates N decodes that swipe with the \
      reference decoder and draws the perfect swipes of its top N words dashed, each in its \
      color, with their place, distance and score in the legend (the word's own place is \
      in the legend too): why the decoder preferred another word, at a glance. The same \
      inputs give the same bytes.

      Examples:
        swipedict draw build/en.swipedict hello -o hello.svg
        swipedict synth build/en.swipedict --words hello world --seed 1 -o s.jsonl
        swipedict draw build/en.swipedict hello --swipe s.jsonl -o hello.svg
        swipedict draw build/en.swipedict world --swipe s.jsonl --line 2 > world.svg
        swipedict draw build/en.swipedict we --swipe ../shared/swipes/hws-dev.jsonl --line 2 --candidates 4 -o we.svg
        swipedict draw build/de.swipedict über --scale 4 -o uber.svg
      """)

  @OptionGroup var blob: BlobArgument

  @Argument(help: "The word to draw (exact spelling: case and accents as stored).")
  var word: String

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Draw a swipe from this JSON Lines file over the perfect one ('-': standard input).",
      valueName: "file.jsonl"))
  var swipe: String?

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "Which swipe of --swipe to draw, from 1 (blank lines and # comments do not count).",
      valueName: "N"))
  var line: Int?

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "With --swipe: decode it and draw the top N words' perfect swipes (1…6).", valueName: "N"))
  var candidates: Int?

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "Pixels per layout unit (default: the keyboard about 800 pixels wide).", valueName: "px"))
  var scale: Double?

  @OptionGroup var output: OutputOption

  func validate() throws {
    if let line {
      if swipe == nil { throw ValidationError("--line applies to --swipe only") }
      if line < 1 { throw ValidationError("--line counts from 1") }
    }
    if let candidates {
      if swipe == nil { throw ValidationError("--candidates applies to --swipe only") }
      try checkRange("--candidates", candidates, in: 1...SwipeDrawing.rivalColors.count)
    }
    if let scale, !(scale.isFinite && scale > 0 && scale <= 1000) {
      throw ValidationError("--scale must be more than 0 and at most 1000 pixels per unit")
    }
  }

  func run() throws {
    let inputs = [blob.blob] + (swipe.map { [$0] } ?? [])
    try output.refuseOverwriting(inputs)
    let dictionary = try blob.open()
    let layout = dictionary.layout
    if layout.keyPath(for: word)?.isEmpty == true {
      throw failure(
        "\"\(word)\" has no character with a key on layout \(layout.name): there is no swipe to draw"
      )
    }
    guard let id = dictionary.id(of: word), let stored = dictionary.word(for: id) else {
      throw failure(missing(in: dictionary, layout: layout))
    }
    guard let path = layout.keyPath(for: stored), !path.isEmpty else {
      throw failure(
        "\"\(stored)\" cannot be typed on layout \(layout.name): there is no swipe to draw")
    }

    let frequency: UInt8
    let startAngle: Float?
    let lastPoint: LayoutPoint
    let expectedLength: Float
    if let features = dictionary.features(of: id) {
      frequency = features.frequency
      startAngle = features.startAngle
      lastPoint = features.lastPoint
      expectedLength = features.expectedLength / dictionary.keyWidth
    } else {
      // A format 1.0 blob has no FEAT section: the same values, from the layout.
      printError(
        "note: \(blob.blob) has no swipe features (format \(dictionary.formatVersion)); "
          + "drawing them from its layout")
      let centers = layout.keys.map { (x: $0.x, y: $0.y) }
      let record = FeatureLayout.Record(path: path, centers: centers, keyWidth: layout.keyWidth)
      frequency = dictionary.frequency(of: id) ?? 0
      let first = LayoutPoint(x: centers[path[0]].x, y: centers[path[0]].y)
      startAngle =
        path.count > 1
        ? first.direction(to: LayoutPoint(x: centers[path[1]].x, y: centers[path[1]].y)) : nil
      lastPoint = LayoutPoint(
        x: centers[path[path.count - 1]].x, y: centers[path[path.count - 1]].y)
      expectedLength = record.lengthInKeyWidths
    }

    let overlay = try overlay()
    var drawing = SwipeDrawing(
      layout: layout, word: stored, frequency: frequency, keyPath: path, startAngle: startAngle,
      lastPoint: lastPoint, expectedLength: expectedLength, overlay: overlay,
      scale: scale ?? SwipeDrawing.defaultScale(for: layout))
    if let candidates, let overlay {
      drawing.rivals = rivals(decoding: overlay, top: candidates, word: stored, id: id, in: dictionary)
    }
    try output.write(drawing.svg(), protecting: inputs)
  }

  /// The top `top` words the reference decoder finds for the swipe, as rivals (the drawn
  /// word's own place goes into the first legend text).
  private func rivals(
    decoding overlay: SwipeDrawing.Overlay, top: Int, word: String, id: Int, in dictionary: SwipeDictionary
  ) -> [SwipeDrawing.Rival] {
    guard dictionary.contents.section(.features) != nil else {
      printError("note: \(blob.blob) has no swipe features: --candidates needs a blob with them")
      return []
    }
    var options = SwipeDecoder.Options()
    options.resultCount = top
    let decoder = SwipeDecoder(dictionary: dictionary, options: options)
    let explanation = decoder.explain(overlay.points.map { SwipePoint(x: $0.x, y: $0.y) }, word: word)
    let result = explanation.decoding
    let own = explanation.forms.first { $0.id == id }
    var rivals: [SwipeDrawing.Rival] = []
    for (place, candidate) in result.words.enumerated() {
      let label =
        "\(place + 1). \(candidate.word): distance \(fixedDecimal(Double(candidate.distance), places: 3)), "
        + "score \(fixedDecimal(Double(candidate.score), places: 3))"
      guard candidate.id != id else { continue }
      rivals.append(
        SwipeDrawing.Rival(
          word: candidate.word, keyPath: dictionary.layout.keyPath(for: candidate.word) ?? [], label: label))
    }
    if let own, !rivals.isEmpty {
      let place: String
      switch own.verdict {
      case .shown(let n): place = "shown \(n)"
      case .merged(let into): place = "shown as \(into)"
      case .outranked, .displaced: place = "rank \(own.rank.map(grouped) ?? "?")"
      case .filtered(let stage): place = "dropped by the \(stage.rawValue) filter"
      case .outsideBand: place = "outside the DTW band"
      case .blocked: place = "never suggested"
      }
      let distance = own.distance.map { fixedDecimal(Double($0), places: 3) } ?? "none"
      let score = own.score.map { fixedDecimal(Double($0), places: 3) } ?? "none"
      rivals[0].label = "\(word) \(place), distance \(distance), score \(score) · " + rivals[0].label
    }
    return rivals
  }

  /// The swipe to draw over the perfect one, read from `--swipe`.
  private func overlay() throws -> SwipeDrawing.Overlay? {
    guard let swipe else { return nil }
    let swipes: [Swipe]
    do {
      swipes = try SwipeFile.read(path: swipe)
    } catch {
      throw failure(error)
    }
    let n = line ?? 1
    guard n <= swipes.count else {
      let has = swipes.count == 1 ? "1 swipe" : "\(swipes.count) swipes"
      throw failure("\(swipe) has \(has); --line \(n) is past the end")
    }
    let chosen = swipes[n - 1]
    let name =
      swipe == "-" ? "standard input" : swipe.split(separator: "/").last.map(String.init) ?? swipe
    return SwipeDrawing.Overlay(
      points: chosen.points.map { LayoutPoint(x: $0.x, y: $0.y) }, source: "swipe \(n) of \(name)",
      word: chosen.word)
  }

  /// Why the word cannot be drawn, with what the blob has and a command that suggests words.
  private func missing(in dictionary: SwipeDictionary, layout: KeyboardLayout) -> String {
    var reason = ""
    if layout.keyPath(for: word) == nil,
      let bad = word.unicodeScalars.first(where: { layout.classify($0) == .untypeable })
    {
      reason = ": '\(bad)' has no key on layout \(layout.name)"
    } else {
      let similar = dictionary.ids(matchingFolded: word, limit: 3).compactMap {
        dictionary.word(for: $0).map { "\"\($0)\"" }
      }
      if !similar.isEmpty { reason = " (it has \(similar.joined(separator: ", ")))" }
    }
    return "\"\(word)\" is not in \(blob.blob)\(reason); for similar words try: "
      + "swipedict query \(Self.shellQuoted(blob.blob)) --correct \(Self.shellQuoted(word))"
  }

  /// `text` as one shell word: unchanged when it is plainly safe, else in single quotes.
  static func shellQuoted(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.unicodeScalars.allSatisfy { s in
        s.properties.isAlphabetic || ("0"..."9").contains(s)
          || "-_./,:+=@%".unicodeScalars.contains(s)
      }
    if plain { return text }
    return "'"
      + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
      + "'"
  }
}
