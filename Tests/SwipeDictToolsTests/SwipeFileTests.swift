import Foundation
import SwipeDecoder
import SwipeDictTestSupport
import Testing

@testable import SwipeDictTools

@Suite struct SwipeFileTests {
  /// Parses `text` as a file named `t.jsonl` and returns the error it must raise.
  private func error(_ text: String) throws -> SwipeFileError {
    do {
      let swipes = try SwipeFile.parse(contents: Array(text.utf8), file: "t.jsonl")
      Issue.record("expected an error, got \(swipes)")
      throw CancellationError()
    } catch let error as SwipeFileError {
      return error
    }
  }

  @Test func readsWordsPointsAndTimes() throws {
    let text = """
      {"word": "duck", "points": [[1, 2.5, 0], [3e1, -4, 16.7]]}
      {"points": [[5, 6], [7, 8]], "note": {"any": ["thing", null, true]}}
      {"word": null, "points": [[0, 0]]}
      {"word": "caf\\u00e9 \\ud83d\\ude00", "points": [[1, 1, 0]]}
      """
    let swipes = try SwipeFile.parse(contents: Array(text.utf8), file: "t.jsonl")
    #expect(swipes.count == 4)
    #expect(swipes[0].word == "duck")
    #expect(swipes[0].points == [.init(x: 1, y: 2.5, time: 0), .init(x: 30, y: -4, time: 16.7)])
    #expect(swipes[1].word == nil)
    #expect(swipes[1].points == [.init(x: 5, y: 6), .init(x: 7, y: 8)])
    #expect(swipes[2].word == nil)
    #expect(swipes[3].word == "café 😀")
  }

  @Test func readsAndWritesThePreviousWord() throws {
    let text = """
      {"word": "on", "previous": "depends", "points": [[1, 2]]}
      {"previous": null, "word": "in", "points": [[1, 2]]}
      """
    let swipes = try SwipeFile.parse(contents: Array(text.utf8), file: "t.jsonl")
    #expect(swipes.map(\.previous) == ["depends", nil])
    #expect(SwipeFile.line(for: swipes[0]) == #"{"word":"on","previous":"depends","points":[[1,2]]}"#)
    #expect(SwipeFile.line(for: swipes[1]) == #"{"word":"in","points":[[1,2]]}"#)
    #expect(try SwipeFile.parse(contents: Array(SwipeFile.text(for: swipes).utf8), file: "t.jsonl") == swipes)
  }

  @Test func skipsBlankAndCommentLinesAndCountsThem() throws {
    let text = "\u{FEFF}# swipes\r\n\r\n   \n\t# indented comment\n{\"points\": [[1, 2]]}\r\n\n"
    let swipes = try SwipeFile.parse(contents: Array(text.utf8), file: "t.jsonl")
    #expect(swipes == [Swipe(points: [.init(x: 1, y: 2)])])
    let bad = try error("# one\n\n{\"points\": [[1, 2]]}\n{\"points\": 3}\n")
    #expect(bad.line == 4)
  }

  @Test func writesCompactRoundedDeterministicLines() {
    let swipe = Swipe(
      word: "d\"uck",
      points: [.init(x: 1.005, y: -0.001, time: 0), .init(x: 12.3456, y: 80, time: 16.666)])
    #expect(SwipeFile.line(for: swipe) == #"{"word":"d\"uck","points":[[1,0,0],[12.35,80,16.7]]}"#)
    let untimed = Swipe(points: [.init(x: 0.5, y: 2)])
    #expect(SwipeFile.line(for: untimed) == #"{"points":[[0.5,2]]}"#)
    #expect(
      SwipeFile.text(for: [untimed, untimed]) == "{\"points\":[[0.5,2]]}\n{\"points\":[[0.5,2]]}\n")
  }

  @Test func roundTripsThroughAFile() throws {
    var random = SeededGenerator(seed: 3)
    var swipes: [Swipe] = []
    for i in 0..<50 {
      var time: Float = 0
      let points = (0..<random.integer(in: 1...40)).map { _ -> SwipePoint in
        time += Float(random.uniform(0...20))
        return SwipePoint(
          x: Float(random.uniform(-50...400)), y: Float(random.uniform(-50...200)),
          time: i % 3 == 0 ? nil : time)
      }
      swipes.append(Swipe(word: i % 5 == 0 ? nil : "wörd\(i)", points: points))
    }
    let path = NSTemporaryDirectory() + "swipes-\(UUID().uuidString).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(SwipeFile.text(for: swipes).utf8).write(to: URL(fileURLWithPath: path))
    let read = try SwipeFile.read(path: path)
    #expect(read.count == swipes.count)
    for (original, copy) in zip(swipes, read) {
      #expect(copy.word == original.word)
      #expect(copy.points.count == original.points.count)
      for (a, b) in zip(original.points, copy.points) {
        #expect(abs(a.x - b.x) <= 0.0051 && abs(a.y - b.y) <= 0.0051)
        #expect((a.time == nil) == (b.time == nil))
        if let ta = a.time, let tb = b.time { #expect(abs(ta - tb) <= 0.051) }
      }
      // Writing what was read gives the same line: the rounding is stable.
      #expect(SwipeFile.line(for: copy) == SwipeFile.line(for: original))
    }
  }

  @Test func unreadableFileNamesThePath() throws {
    #expect(throws: SwipeFileError.self) { try SwipeFile.read(path: "/nonexistent/s.jsonl") }
    do {
      _ = try SwipeFile.read(path: "/nonexistent/s.jsonl")
    } catch {
      #expect(error.reason == .unreadable)
      #expect(error.line == 0)
      #expect(error.description.hasPrefix("/nonexistent/s.jsonl: error: cannot read"))
    }
  }

  /// Every bad-line case: the reason, the line number, the column, and a hint in the text.
  @Test(arguments: [
    (#"{"points": [[1, 2]]"#, SwipeFileError.Reason.notJSON, 20),
    (#"{"points": [[1, 2]]} x"#, .notJSON, 22),
    (#"{points: [[1, 2]]}"#, .notJSON, 2),
    (#"{"points": [[1, 2,]]}"#, .notJSON, 19),
    (#"{"points": [[01, 2]]}"#, .notJSON, 15),
    (#"{"points": [[1., 2]]}"#, .notJSON, 16),
    (#"{"word": "a\qb", "points": [[1, 2]]}"#, .notJSON, 12),
    (#"{"word": "\ud800", "points": [[1, 2]]}"#, .notJSON, 17),
    ("{\"word\": \"a\tb\", \"points\": [[1, 2]]}", .notJSON, 12),
    (#"[[1, 2]]"#, .notAnObject, 1),
    (#""duck""#, .notAnObject, 1),
    (#"{"word": "duck"}"#, .missingPoints, 1),
    (#"{"word": "duck", "points": {"x": 1}}"#, .pointsNotAnArray, 28),
    (#"{"points": []}"#, .noPoints, 12),
    (#"{"points": [[1, 2], 3]}"#, .badPoint, 21),
    (#"{"points": [[1]]}"#, .badPoint, 13),
    (#"{"points": [[1, 2, 3, 4]]}"#, .badPoint, 13),
    (#"{"points": [[1, "2"]]}"#, .badPoint, 17),
    (#"{"points": [[1, 2, null]]}"#, .badPoint, 20),
    (#"{"points": [[NaN, 2]]}"#, .nonFiniteNumber, 14),
    (#"{"points": [[1, Infinity]]}"#, .nonFiniteNumber, 17),
    (#"{"points": [[1, 2, -Infinity]]}"#, .nonFiniteNumber, 20),
    (#"{"points": [[1e999, 2]]}"#, .nonFiniteNumber, 14),
    (#"{"points": [[1e39, 2]]}"#, .nonFiniteNumber, 14),
    (#"{"points": [[1e30, 2]]}"#, .nonFiniteNumber, 14),
    (#"{"points": [[1, -2e9]]}"#, .nonFiniteNumber, 17),
    (#"{"word": 42, "points": [[1, 2]]}"#, .wordNotAString, 10),
    (#"{"word": ["a"], "points": [[1, 2]]}"#, .wordNotAString, 10),
    (#"{"word": "a", "word": "b", "points": [[1, 2]]}"#, .duplicateKey, 23),
    (#"{"previous": 3, "points": [[1, 2]]}"#, .previousNotAString, 14),
    (#"{"previous": "a", "previous": null, "points": [[1, 2]]}"#, .duplicateKey, 31),
    (#"{"points": [[1, 2]], "points": [[1, 2]]}"#, .duplicateKey, 32),
    (#"{"points": [[1, 2, 0], [3, 4]]}"#, .mixedTimes, 24),
    (#"{"points": [[1, 2, 50], [3, 4, 39.9]]}"#, .timeGoesBackwards, 32),
  ])
  func badLines(line: String, reason: SwipeFileError.Reason, column: Int) throws {
    // The bad line is line 3, after a comment and a good line.
    let error = try error("# header\n{\"points\": [[0, 0]]}\n\(line)\n{\"points\": [[0, 0]]}\n")
    #expect(error.reason == reason, "\(error)")
    #expect(error.file == "t.jsonl")
    #expect(error.line == 3)
    #expect(error.column == column, "\(error)")
    #expect(error.description.hasPrefix("t.jsonl:3:\(column): error: "))
    #expect(error.description.contains("\n  hint: "))
  }

  @Test("a swipe of more than 20,000 points, or a line over 4 MiB, is refused before it is decoded")
  func swipesAreBounded() throws {
    let point = "[1,2],"
    let many = #"{"points": ["# + String(repeating: point, count: SwipeFile.maximumPointCount) + "[1,2]]}"
    let tooMany = try error("\(many)\n")
    #expect(tooMany.reason == .tooManyPoints && tooMany.line == 1, "\(tooMany)")
    #expect(tooMany.message == "the swipe has 20001 points, more than the 20000 a swipe may have")
    let exactly = #"{"points": ["# + String(repeating: point, count: SwipeFile.maximumPointCount - 1) + "[1,2]]}"
    #expect(try SwipeFile.parse(contents: Array(exactly.utf8), file: "t.jsonl").first?.points.count == 20_000)
    let huge = #"{"word": ""# + String(repeating: "a", count: SwipeFile.maximumLineBytes) + #"", "points": [[1,2]]}"#
    let long = try error("{\"points\": [[0, 0]]}\n\(huge)\n")
    #expect(long.reason == .lineTooLong && long.line == 2, "\(long)")
  }

  @Test func invalidUTF8NamesTheLine() throws {
    var bytes = Array("{\"points\": [[0, 0]]}\n{\"word\": \"".utf8)
    bytes += [0xC3, 0x28]
    bytes += Array("\", \"points\": [[0, 0]]}\n".utf8)
    do {
      _ = try SwipeFile.parse(contents: bytes, file: "t.jsonl")
      Issue.record("expected an error")
    } catch {
      #expect(error.reason == .invalidUTF8)
      #expect(error.line == 2)
    }
  }

  @Test func messagesSayWhatIsWrong() throws {
    #expect(try error(#"{"points": [[1, 2, 3, 4]]}"#).message == "point 1 has 4 values, not 2 or 3")
    #expect(
      try error(#"{"points": [[1, "2"]]}"#).message
        == #"point 1's y is the string "2", not a number"#)
    #expect(try error(#"{"points": [[0, 0], [NaN, 2]]}"#).message == "point 2's x is NaN")
    #expect(
      try error(#"{"word": 42, "points": [[1, 2]]}"#).message
        == #""word" is the number 42.0, not a string"#)
    let open = try error(#"{"points": [[1, 2]]"#)
    #expect(open.message == "not JSON: expected ',' or '}' in an object, found the end of the line")
  }

  @Test func nestingIsBounded() throws {
    let deep = String(repeating: "[", count: 10_000)
    let error = try error(#"{"points": [[1, 2]], "x": \#(deep)}"#)
    #expect(error.reason == .notJSON)
    #expect(error.message.contains("nest too deeply"))
  }

  @Test func jitterInTimesIsMadeMonotone() throws {
    // Back by 4 ms and by exactly the tolerance: raised to the time before, points kept.
    let text = #"{"points": [[0, 0, 0], [1, 0, 20], [2, 0, 16], [3, 0, 30], [4, 0, 20]]}"# + "\n"
    let contents = try SwipeFile.parse(contents: Array(text.utf8), file: "t.jsonl", skippingInvalidLines: false)
    #expect(contents.swipes.count == 1 && contents.raisedTimes == 2)
    #expect(contents.swipes[0].points.map(\.time) == [0, 20, 20, 30, 30])
    #expect(contents.swipes[0].points.map(\.x) == [0, 1, 2, 3, 4])
    // Further back than the tolerance: an error that says by how much.
    let far = try error(#"{"points": [[0, 0, 100], [1, 0, 89]]}"#)
    #expect(far.reason == .timeGoesBackwards)
    #expect(
      far.message
        == "point 2's time 89.0 ms is 11.0 ms before point 1's 100.0 ms (more than the 10 ms of sensor jitter)")
  }

  @Test func invalidLinesAreSkippedAndNamedWhenAsked() throws {
    let text =
      [
        #"{"word": "a", "points": [[0, 0, 0], [1, 1, 10]]}"#,
        #"{"word": "b", "points": [[0, 0, 50], [1, 1, 10]]}"#,  // time runs backwards
        "# a comment",
        #"{"word": "c", "points": [[NaN, 0]]}"#,
        #"{"word": "d", "points": []}"#,
        #"{"word": "e", "points": [[2, 2, 5], [3, 3, 1]]}"#,  // jitter: kept
        "not json",
      ].joined(separator: "\n") + "\n"
    var bytes = Array(text.utf8)
    bytes += [0xFF, 0x0A]  // line 8: not UTF-8
    bytes += Array(#"{"word": "f", "points": [[1, 2]]}"#.utf8)  // no final line end
    let contents = try SwipeFile.parse(contents: bytes, file: "t.jsonl", skippingInvalidLines: true)
    #expect(contents.swipes.map(\.word) == ["a", "e", "f"])
    #expect(contents.lines == [1, 6, 9])
    #expect(contents.raisedTimes == 1)
    #expect(contents.skipped.map(\.line) == [2, 4, 5, 7, 8])
    #expect(
      contents.skipped.map(\.reason) == [.timeGoesBackwards, .nonFiniteNumber, .noPoints, .notJSON, .invalidUTF8])
    // The strict read stops at the first, line 2.
    #expect(throws: SwipeFileError.self) {
      try SwipeFile.parse(contents: bytes, file: "t.jsonl", skippingInvalidLines: false)
    }
    do {
      _ = try SwipeFile.parse(contents: bytes, file: "t.jsonl")
    } catch {
      #expect(error.line == 2 && error.reason == .timeGoesBackwards)
    }
  }
}
