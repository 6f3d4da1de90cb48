import SwipeDictFiles
import Testing

/// The one JSON reader (swipe files, layouts): values with byte offsets, positions as line
/// and byte column, the non-finite tokens as an option, and bounded nesting and size; and the
/// writer beside it.
@Suite("JSON reader and writer")
struct JSONReaderTests {
  @Test func writerIsDeterministic() throws {
    let value = JSONValue.object([
      ("b", 1), ("a", "x\"\n\u{1}"), ("c", [true, .null, .double(1.5), .double(2)]),
    ])
    #expect(value.text == #"{"b":1,"a":"x\"\n\u0001","c":[true,null,1.5,2]}"#)
    // What the writer writes, the reader reads back.
    guard case .object(let members) = try parse(value.text).kind else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.key) == ["b", "a", "c"])
  }

  func parse(_ text: String, _ options: JSONReader.Options = .init()) throws(JSONReader.Failure)
    -> JSONReader.Value
  {
    try JSONReader.parse(Array(text.utf8), options: options)
  }

  func failure(_ text: String, _ options: JSONReader.Options = .init()) -> JSONReader.Failure? {
    do {
      _ = try parse(text, options)
      return nil
    } catch {
      return error
    }
  }

  @Test func valuesCarryTheirByteOffsets() throws {
    let value = try parse("{\"é\": [1, true],\n \"b\": null}")
    guard case .object(let members) = value.kind else {
      Issue.record("not an object: \(value.summary)")
      return
    }
    #expect(members.map(\.key) == ["é", "b"])
    #expect(members.map(\.value.offset) == [7, 24])
    guard case .array(let items) = members[0].value.kind else {
      Issue.record("not an array: \(members[0].value.summary)")
      return
    }
    #expect(items.map(\.offset) == [8, 11])
  }

  @Test func membersKeepTheirOrderAndDuplicates() throws {
    guard case .object(let members) = try parse(#"{"a": 1, "b": 2, "a": 3}"#).kind else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.key) == ["a", "b", "a"])
  }

  @Test(arguments: [
    (0, 1, 1), (3, 1, 4), (4, 2, 1), (5, 2, 2), (9, 3, 2), (99, 3, 3), (-1, 1, 1),
  ])
  func positionsAreLinesAndByteColumns(offset: Int, line: Int, column: Int) {
    let bytes = Array("abc\néf\nxy".utf8)  // é is two bytes
    let position = JSONReader.position(of: offset, in: bytes)
    #expect(position.line == line && position.column == column)
  }

  @Test func nonFiniteTokensAreAnOption() throws {
    #expect(failure("[NaN]")?.message == "NaN is not JSON: numbers must be finite")
    #expect(failure("[1, -Infinity]")?.offset == 4)
    var options = JSONReader.Options()
    options.allowsNonFiniteTokens = true
    let parsed = try parse("[NaN, Infinity, -Infinity, 1e999]", options)
    guard case .array(let items) = parsed.kind else {
      Issue.record("not an array: \(parsed.summary)")
      return
    }
    let numbers = items.compactMap { if case .number(let n) = $0.kind { n } else { nil } }
    #expect(numbers.count == 4 && numbers[0].isNaN)
    #expect(numbers.dropFirst() == [.infinity, -.infinity, .infinity])
  }

  @Test func nestingIsBounded() {
    var options = JSONReader.Options()
    options.maxDepth = 3
    #expect(failure("[[[]]]", options) == nil)
    #expect(failure("[[[[]]]]", options)?.offset == 3)
    let deep = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
    #expect(failure(deep)?.message == "arrays and objects nest too deeply (more than 32 levels)")
  }

  @Test func sizeIsBounded() {
    var options = JSONReader.Options()
    options.maxBytes = 4
    #expect(failure("[12]", options) == nil)
    #expect(failure("[123]", options)?.message == "the input is 5 bytes, over the limit of 4")
  }

  @Test func theEndOfTheInputIsNamedAsTheCallerSays() {
    #expect(failure("[1,")?.message == "expected a value, found the end of the input")
    var options = JSONReader.Options()
    options.endOfInput = "the end of the line"
    #expect(
      failure("\"ab", options)?.message == "a string is not closed before the end of the line")
  }

  @Test(arguments: [
    ("", 0), ("[1 2]", 3), ("{\"a\" 1}", 5), ("[01]", 2), ("[1.]", 3), ("\"\\x\"", 1),
    ("\"\u{01}\"", 1), ("\"\\ud800\"", 7), ("[1] x", 4), ("[\n\ttru]", 6),
  ])
  func syntaxErrorsStopAtTheOffendingByte(text: String, offset: Int) {
    #expect(failure(text)?.offset == offset, "\(failure(text)?.message ?? "accepted")")
  }

  @Test func escapesAndSurrogatePairsDecode() throws {
    guard case .string(let s) = try parse(#""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#).kind else {
      Issue.record("not a string")
      return
    }
    #expect(s == "a\"\\/\u{08}\u{0C}\n\r\té😀")
  }
}
