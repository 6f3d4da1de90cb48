import Foundation
import SwipeDecoder
import SwipeDict
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Reads and writes swipes as JSON Lines (DESIGN, "Swipes"): one swipe per line,
///
/// ```json
/// {"word": "duck", "points": [[x, y, t_ms], …]}
/// ```
///
/// in the layout's units. `word` is the truth when known (a string; `null` or absent when
/// not); `previous`, when given, the word before it in the sentence (a string or `null`:
/// the context `swipedict decode --context` ranks by); each point is `[x, y]` or `[x, y, t_ms]` (milliseconds since the swipe began),
/// and a swipe gives a time for every point or for none. Times never decrease, but for
/// sensor jitter: a time at most ``timeJitterTolerance`` milliseconds before the time of
/// the point before it is read as that time (the times are made monotone, the point kept).
/// Other keys are ignored, so files can carry notes. Empty lines and lines starting with
/// `#` are skipped; a UTF-8 byte order mark and CRLF line ends are accepted.
///
/// ``read(path:)`` is strict: a bad line stops the read with a ``SwipeFileError`` that names
/// the file, the line and column, what is wrong and what to do.
/// ``read(path:skippingInvalidLines:)`` can instead skip each bad line and say which
/// (``Contents/skipped``), so that one broken swipe does not stop a run over thousands.
/// `NaN` and `Infinity` (which some JSON writers emit) are reported as non-finite numbers.
///
/// Writing is deterministic: keys in the order `word`, `previous`, `points`, no spaces, x and y rounded
/// to 2 decimals and times to 1, integers without a fraction:
///
/// ```json
/// {"word":"duck","points":[[120.5,80,0],[121.25,83.1,16.7]]}
/// ```
public enum SwipeFile {
  /// The largest coordinate or time a swipe file may hold, in magnitude.
  static let largestNumber = 1e9
  /// The most points a swipe may have: 20,000 (the dev swipes have at most 571; a keyboard
  /// hands at most 2,000 to its decoder, TouchTrace).
  public static let maximumPointCount = 20_000
  /// The longest line: 4 MiB (20,000 points with times take under 600 KB).
  public static let maximumLineBytes = 4 << 20
  /// The largest file read: 1 GiB.
  public static let maximumFileBytes = 1 << 30

  /// How far a point's time may go back (milliseconds) and still be read, as the time of
  /// the point before it: touch sensors and event queues deliver samples a few
  /// milliseconds out of order. A time further back is an error
  /// (``SwipeFileError/Reason/timeGoesBackwards``).
  public static let timeJitterTolerance: Float = 10

  /// What a read found: the valid swipes, where each came from, and the lines skipped.
  public struct Contents: Sendable, Hashable {
    /// The valid swipes, in file order.
    public var swipes: [Swipe]
    /// The 1-based line number of each swipe in ``swipes``.
    public var lines: [Int]
    /// The invalid lines that were skipped, in file order, each with what is wrong (empty
    /// for a strict read).
    public var skipped: [SwipeFileError]
    /// How many points' times went back by at most ``SwipeFile/timeJitterTolerance`` and
    /// were raised to the time of the point before.
    public var raisedTimes: Int
  }

  /// Reads every swipe in a JSON Lines file.
  /// - Parameter path: the file, or `-` for standard input.
  /// - Returns: the swipes in file order.
  /// - Throws: ``SwipeFileError`` when the file cannot be read or a line is invalid.
  public static func read(path: String) throws(SwipeFileError) -> [Swipe] {
    try read(path: path, skippingInvalidLines: false).swipes
  }

  /// Reads every swipe in a JSON Lines file, skipping invalid lines or stopping at the first.
  /// - Parameters:
  ///   - path: the file, or `-` for standard input.
  ///   - skippingInvalidLines: whether an invalid line is skipped (and listed in
  ///     ``Contents/skipped``) rather than thrown.
  /// - Returns: the swipes with their line numbers, the lines skipped and the times raised.
  /// - Throws: ``SwipeFileError`` when the file cannot be read, or, unless
  ///   `skippingInvalidLines`, for the first invalid line.
  public static func read(path: String, skippingInvalidLines: Bool) throws(SwipeFileError) -> Contents {
    let bytes: [UInt8]
    do {
      // A regular file, or a pipe or FIFO read to its end (`-`, process substitution);
      // never a device (/dev/zero has no end) or a directory.
      let file = path == "-" ? InputFile.standardInput : try InputFile(openingForReading: path)
      bytes = try file.readAll(limit: maximumFileBytes)
    } catch {
      throw SwipeFileError(
        file: path, line: 0, reason: .unreadable, message: "cannot read the swipe file: \(error.reason)",
        hint: "give a swipe JSON Lines file (a regular file, a pipe or `-` for standard input)")
    }
    return try parse(contents: bytes, file: path, skippingInvalidLines: skippingInvalidLines)
  }

  /// Parses the text of a whole JSON Lines file.
  /// - Parameters:
  ///   - contents: the file's bytes (UTF-8).
  ///   - file: the name to use in errors.
  /// - Returns: the swipes in order.
  /// - Throws: ``SwipeFileError`` for the first invalid line.
  public static func parse(contents: [UInt8], file: String) throws(SwipeFileError) -> [Swipe] {
    try parse(contents: contents, file: file, skippingInvalidLines: false).swipes
  }

  /// Parses the text of a whole JSON Lines file, skipping invalid lines or stopping at the
  /// first.
  /// - Parameters:
  ///   - contents: the file's bytes (UTF-8).
  ///   - file: the name to use in errors.
  ///   - skippingInvalidLines: whether an invalid line is skipped (and listed in
  ///     ``Contents/skipped``) rather than thrown.
  /// - Returns: the swipes with their line numbers, the lines skipped and the times raised.
  /// - Throws: ``SwipeFileError`` for the first invalid line, unless `skippingInvalidLines`.
  public static func parse(
    contents: [UInt8], file: String, skippingInvalidLines: Bool
  ) throws(SwipeFileError) -> Contents {
    var result = Contents(swipes: [], lines: [], skipped: [], raisedTimes: 0)
    var start = 0
    if contents.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    var lineNumber = 0
    while start < contents.count {
      lineNumber += 1
      let end = contents[start...].firstIndex(of: 0x0A) ?? contents.count
      var bytes = contents[start..<end]
      if bytes.last == 0x0D { bytes = bytes.dropLast() }
      start = end + 1
      do throws(SwipeFileError) {
        guard bytes.count <= maximumLineBytes else {
          throw SwipeFileError(
            file: file, line: lineNumber, reason: .lineTooLong,
            message: "the line is \(bytes.count) bytes long, more than a swipe takes (\(maximumLineBytes))",
            hint: hint(for: .lineTooLong))
        }
        guard let text = String(validatingUTF8: bytes) else {
          throw SwipeFileError(
            file: file, line: lineNumber, reason: .invalidUTF8, message: "the line is not UTF-8",
            hint: "save the file as UTF-8")
        }
        let (swipe, raised) = try parseCounting(line: text, lineNumber: lineNumber, file: file)
        if let swipe {
          result.swipes.append(swipe)
          result.lines.append(lineNumber)
          result.raisedTimes += raised
        }
      } catch {
        guard skippingInvalidLines else { throw error }
        result.skipped.append(error)
      }
    }
    return result
  }

  /// Parses one line.
  /// - Parameters:
  ///   - line: the line, without its line end.
  ///   - lineNumber: its 1-based number, for errors.
  ///   - file: the file name, for errors.
  /// - Returns: the swipe, or `nil` for an empty line or a `#` comment.
  /// - Throws: ``SwipeFileError`` when the line is not a valid swipe.
  public static func parse(line: String, lineNumber: Int, file: String) throws(SwipeFileError)
    -> Swipe?
  {
    try parseCounting(line: line, lineNumber: lineNumber, file: file).swipe
  }

  /// ``parse(line:lineNumber:file:)``, and how many of the swipe's times were raised to the
  /// time before them (jitter within ``timeJitterTolerance``).
  private static func parseCounting(line: String, lineNumber: Int, file: String) throws(SwipeFileError)
    -> (swipe: Swipe?, raised: Int)
  {
    let bytes = Array(line.utf8)
    let first = bytes.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != 0x0D }
    guard let first, first != UInt8(ascii: "#") else { return (nil, 0) }
    let reader = LineReader(bytes: bytes, lineNumber: lineNumber, file: file)
    let fields = try reader.fields()
    let (points, raised) = try reader.points(fields.points)
    return (Swipe(word: fields.word, points: points, previous: fields.previous), raised)
  }

  /// One line of a swipe file as ``parse(line:lineNumber:file:)`` reads it, with errors at
  /// its columns.
  private struct LineReader {
    let bytes: [UInt8]
    let lineNumber: Int
    let file: String

    // One line, so an offset's line is 1 and its column is the one the error reports.
    func fail(_ reason: SwipeFileError.Reason, _ offset: Int, _ message: String) -> SwipeFileError {
      SwipeFileError(
        file: file, line: lineNumber, column: JSONReader.position(of: offset, in: bytes).column,
        reason: reason, message: message, hint: SwipeFile.hint(for: reason))
    }

    /// The line's object's members: the word and the previous word (either may be null),
    /// and the points' items, checked to be an array of 1 to ``maximumPointCount``. Other
    /// members are ignored; one given twice is an error.
    func fields() throws(SwipeFileError) -> (word: String?, previous: String?, points: [JSONReader.Value]) {
      let root: JSONReader.Value
      do {
        root = try JSONReader.parse(bytes, options: lineOptions)
      } catch {
        throw fail(.notJSON, error.offset, "not JSON: \(error.message)")
      }
      guard case .object(let members) = root.kind else {
        throw fail(.notAnObject, root.offset, "the line is \(root.summary), not a JSON object")
      }
      var word: String?
      var wordSeen = false
      var previous: String?
      var previousSeen = false
      var pointsValue: JSONReader.Value?
      for (key, value) in members {
        switch key {
        case "word":
          guard !wordSeen else { throw fail(.duplicateKey, value.offset, "\"word\" is given twice") }
          wordSeen = true
          switch value.kind {
          case .string(let text): word = text
          case .null: word = nil
          default:
            throw fail(.wordNotAString, value.offset, "\"word\" is \(value.summary), not a string")
          }
        case "previous":
          guard !previousSeen else { throw fail(.duplicateKey, value.offset, "\"previous\" is given twice") }
          previousSeen = true
          switch value.kind {
          case .string(let text): previous = text
          case .null: previous = nil
          default:
            throw fail(.previousNotAString, value.offset, "\"previous\" is \(value.summary), not a string")
          }
        case "points":
          guard pointsValue == nil else {
            throw fail(.duplicateKey, value.offset, "\"points\" is given twice")
          }
          pointsValue = value
        default:
          continue
        }
      }
      guard let pointsValue else {
        throw fail(.missingPoints, root.offset, "the object has no \"points\"")
      }
      guard case .array(let items) = pointsValue.kind else {
        throw fail(
          .pointsNotAnArray, pointsValue.offset, "\"points\" is \(pointsValue.summary), not an array")
      }
      guard !items.isEmpty else { throw fail(.noPoints, pointsValue.offset, "\"points\" is empty") }
      guard items.count <= maximumPointCount else {
        throw fail(
          .tooManyPoints, pointsValue.offset,
          "the swipe has \(items.count) points, more than the \(maximumPointCount) a swipe may have")
      }
      return (word, previous, items)
    }

    /// The points: `[x, y]` or `[x, y, t_ms]` each, finite and within ±1e9, all with times or
    /// none; a time up to ``timeJitterTolerance`` before the one before it is raised to it.
    /// - Returns: the points and how many times were raised.
    func points(_ items: [JSONReader.Value]) throws(SwipeFileError) -> (points: [SwipePoint], raised: Int) {
      var points: [SwipePoint] = []
      points.reserveCapacity(items.count)
      var raised = 0
      for (i, item) in items.enumerated() {
        let n = i + 1
        guard case .array(let values) = item.kind else {
          throw fail(.badPoint, item.offset, "point \(n) is \(item.summary), not an array")
        }
        guard values.count == 2 || values.count == 3 else {
          throw fail(.badPoint, item.offset, "point \(n) has \(values.count) values, not 2 or 3")
        }
        let numbers = try coordinates(values, point: n)
        var time = numbers.count == 3 ? numbers[2] : nil
        if let previous = points.last {
          guard (previous.time == nil) == (time == nil) else {
            throw fail(
              .mixedTimes, item.offset,
              "point \(n) \(time == nil ? "has no" : "has a") time but point \(i) "
                + "\(time == nil ? "has one" : "has none")")
          }
          if let stamp = time, let before = previous.time, stamp < before {
            // Jitter: raised to the time before, so that times never decrease.
            guard before - stamp <= SwipeFile.timeJitterTolerance else {
              throw fail(
                .timeGoesBackwards, values[2].offset,
                "point \(n)'s time \(stamp) ms is \(before - stamp) ms before point \(i)'s \(before) ms "
                  + "(more than the \(Int(SwipeFile.timeJitterTolerance)) ms of sensor jitter)")
            }
            time = before
            raised += 1
          }
        }
        points.append(SwipePoint(x: numbers[0], y: numbers[1], time: time))
      }
      return (points, raised)
    }

    /// The numbers of point `n` (x, y and the time, if given) as Floats.
    private func coordinates(_ values: [JSONReader.Value], point n: Int) throws(SwipeFileError) -> [Float] {
      var numbers: [Float] = []
      for (value, name) in zip(values, ["x", "y", "t_ms"]) {
        guard case .number(let number) = value.kind else {
          throw fail(
            .badPoint, value.offset, "point \(n)'s \(name) is \(value.summary), not a number")
        }
        let single = Float(number)
        guard number.isFinite, single.isFinite else {
          let shown = number.isNaN ? "NaN" : number.isFinite ? "\(number)" : "infinite"
          throw fail(.nonFiniteNumber, value.offset, "point \(n)'s \(name) is \(shown)")
        }
        // Squared distances of larger values overflow a Float: no layout is this large.
        guard number.magnitude <= SwipeFile.largestNumber else {
          throw fail(
            .nonFiniteNumber, value.offset, "point \(n)'s \(name) is \(number), beyond ±1,000,000,000")
        }
        numbers.append(single)
      }
      return numbers
    }
  }

  /// How a line is read: `NaN` and `Infinity` are read as numbers so that they are reported
  /// as non-finite coordinates, not as broken JSON; nesting as the reader's default (32).
  private static let lineOptions: JSONReader.Options = {
    var options = JSONReader.Options()
    options.allowsNonFiniteTokens = true
    options.endOfInput = "the end of the line"
    return options
  }()

  /// The JSON Lines form of a swipe (no line end): deterministic, x and y rounded to 2
  /// decimals, times to 1. The word is left out when it is `nil`; a non-finite coordinate
  /// is written as `null` (which ``read(path:)`` rejects).
  /// - Parameter swipe: the swipe.
  /// - Returns: one line of JSON.
  public static func line(for swipe: Swipe) -> String {
    var members: [(String, JSONValue)] = []
    if let word = swipe.word { members.append(("word", .string(word))) }
    if let previous = swipe.previous { members.append(("previous", .string(previous))) }
    let points = swipe.points.map { point -> JSONValue in
      var values: [JSONValue] = [rounded(point.x, places: 2), rounded(point.y, places: 2)]
      if let time = point.time { values.append(rounded(time, places: 1)) }
      return .array(values)
    }
    members.append(("points", .array(points)))
    return JSONValue.object(members).text
  }

  /// The JSON Lines text of several swipes: one line each, every line ending in `\n`.
  /// - Parameter swipes: the swipes.
  /// - Returns: the file's text.
  public static func text(for swipes: [Swipe]) -> String {
    var out = ""
    for swipe in swipes {
      out += line(for: swipe)
      out += "\n"
    }
    return out
  }

  /// `value` rounded to `places` decimals, as a JSON number (never `-0`).
  private static func rounded(_ value: Float, places: Int) -> JSONValue {
    .double(SwipeDictTools.rounded(Double(value), places: places))
  }

  private static func hint(for reason: SwipeFileError.Reason) -> String {
    let shape = #"{"word": "duck", "points": [[x, y, t_ms], …]}"#
    switch reason {
    case .unreadable: return "check the path and the file's permissions"
    case .invalidUTF8: return "save the file as UTF-8"
    case .notJSON, .notAnObject: return "write one JSON object per line: \(shape)"
    case .duplicateKey: return "give each key once"
    case .wordNotAString:
      return #"write the intended word as a JSON string, or leave "word" out when it is unknown"#
    case .previousNotAString:
      return #"write the word before the swipe as a JSON string, or leave "previous" out"#
    case .missingPoints, .pointsNotAnArray:
      return #"add "points": [[x, y, t_ms], …] in the layout's units"#
    case .noPoints: return "a swipe needs at least one point: add points or drop the line"
    case .badPoint:
      return "write each point as [x, y] or [x, y, t_ms], numbers in the layout's units"
    case .nonFiniteNumber:
      return "coordinates and times must be finite numbers within ±1,000,000,000: fix or drop the point"
    case .mixedTimes: return "give t_ms for every point of a swipe or for none"
    case .timeGoesBackwards:
      return "t_ms counts milliseconds since the swipe began and never decreases "
        + "(by more than \(Int(timeJitterTolerance)) ms of jitter)"
    case .lineTooLong, .tooManyPoints:
      return "a swipe has at most \(maximumPointCount) points on one line: split or drop it"
    }
  }
}
