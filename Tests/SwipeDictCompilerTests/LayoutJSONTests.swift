import Foundation
@_spi(SwipeDictInternals) import SwipeDictFormat
import Testing

@testable import SwipeDictCompiler

/// The committed layouts read to the same `KeyboardLayout` whatever JSON reader the compiler
/// uses: the size and CRC-32C of each layout's stored form (`LYOT`), recorded with the
/// `JSONDecoder`-based reader before `JSONReader` replaced it. The three layouts of the
/// default dictionaries and benchmarks are pinned; `LayoutCatalogTests` checks every layout.
@Suite("Committed layouts")
struct LayoutCorpusTests {
  static let expected: [String: (bytes: Int, crc32c: UInt32)] = [
    "azerty-fr.json": (1_367, 0xdd0e_a1f3),
    "qwerty-en.json": (1_367, 0x00d4_562a),
    "qwertz-de.json": (1_403, 0x8534_f1cd),
  ]

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "corpora/layouts")

  @Test(arguments: expected.keys.sorted())
  func storesTheSameBytesAsBefore(file: String) throws {
    let layout = try LayoutFile.load(Self.directory.appendingPathComponent(file).path)
    let stored = layout.encoded()
    let expected = try #require(Self.expected[file])
    #expect(stored.count == expected.bytes)
    #expect(CRC32C.checksum(stored) == expected.crc32c)
  }
}

/// What the layout reader refuses that JSONDecoder let through or reported without a place,
/// and the bounds that keep a hostile layout from exhausting the stack or memory.
@Suite("Layout JSON")
struct LayoutJSONTests {
  static let keys = #""keys": [{"char": "a", "x": 0, "y": 0}, {"char": "b", "x": 20, "y": 0}]"#

  func error(_ json: String) -> String? {
    error(bytes: Array(json.utf8))
  }

  func error(bytes: [UInt8]) -> String? {
    do {
      _ = try LayoutFile.parse(Data(bytes), file: "l.json")
      return nil
    } catch {
      return "\(error)"
    }
  }

  @Test(arguments: [
    // NaN and Infinity are not JSON (Python writes them): refused where they stand.
    (#"{"name": "x", "keyWidth": NaN, \#(keys)}"#, "l.json:1:27: not valid JSON"),
    (
      #"{"name": "x", "keyWidth": 10, "keys": [{"char": "a", "x": -Infinity, "y": 0}]}"#,
      "l.json:1:59: not valid JSON"
    ),
    (#"{"name": "x", "keyWidth": Infinity, \#(keys)}"#, "l.json:1:27: not valid JSON"),
    // A literal beyond a Double's range is a number, but not a finite one.
    (
      #"{"name": "x", "keyWidth": 1e400, \#(keys)}"#,
      "l.json: keyWidth: expected a number, found 1e400, beyond a 64-bit float's range"
    ),
    (
      #"{"name": "x", "keyWidth": 10, "keys": [{"char": "a", "x": -2E+999, "y": 0}]}"#,
      "l.json: keys[0].x: expected a number, found -2E+999, beyond a 64-bit float's range"
    ),
    // Finite as a Double, not as the blob's 32-bit float: said so, not "keyWidth inf".
    (
      #"{"name": "x", "keyWidth": 1e308, \#(keys)}"#,
      "l.json: keyWidth: 1e+308 is too large: a blob stores a layout's numbers as 32-bit floats (at most 3.4e38)"
    ),
  ])
  func numbersMustBeFinite(json: String, message: String) {
    #expect(error(json) == message)
  }

  /// JSONDecoder kept the first of two equal keys (`"keyWidth": 10, "keyWidth": 12` built a
  /// layout of width 10); the reader keeps both and the layout refuses the second at its
  /// value, in every object it reads (root, keys, aliases).
  @Test(arguments: [
    (
      #"{"name": "x", "keyWidth": 10, "keyWidth": 12, \#(keys)}"#,
      "l.json:1:43: keyWidth: given twice: keep one (JSON readers differ on which one counts)"
    ),
    (
      "{\"name\": \"x\", \"keyWidth\": 10,\n \"keys\": [{\"char\": \"a\", \"x\": 0, \"x\": 5, \"y\": 0}]}",
      "l.json:2:38: keys[0].x: given twice: keep one (JSON readers differ on which one counts)"
    ),
    (
      #"{"name": "x", "keyWidth": 10, \#(keys), "aliases": {"é": "a", "é": "b"}}"#,
      "l.json:1:133: aliases.é: given twice: keep one (JSON readers differ on which one counts)"
    ),
  ])
  func aKeyGivenTwiceIsRefused(json: String, message: String) {
    #expect(error(json) == message)
  }

  @Test func unknownFieldsMayRepeatKeysAndNestAFewLevels() throws {
    let notes = #"{"a": 1, "a": [[{"b": null}]], "c": "\u00e9"}"#
    let json = #"{"name": "x", "keyWidth": 10, \#(Self.keys), "notes": \#(notes)}"#
    #expect(error(json) == nil)
  }

  /// Nesting beyond 32 levels is refused at the bracket that goes too deep, long before the
  /// stack is at risk (100,000 levels: JSONDecoder stopped at 512).
  @Test(.timeLimit(.minutes(1)), arguments: [33, 100_000])
  func deepNestingIsRefusedWithAPlace(levels: Int) {
    let json =
      #"{"name": "x", "keyWidth": 10, \#(Self.keys), "notes": "#
      + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}"
    // The root object and 31 arrays make the 32 levels allowed: the 32nd "[" is too deep.
    let column = #"{"name": "x", "keyWidth": 10, \#(Self.keys), "notes": "#.utf8.count + 32
    #expect(error(json) == "l.json:1:\(column): not valid JSON")
  }

  @Test func thirtyTwoLevelsAreRead() {
    let json =
      #"{"name": "x", "keyWidth": 10, \#(Self.keys), "notes": "#
      + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "}"
    #expect(error(json) == nil)
  }

  @Test(.timeLimit(.minutes(1))) func aFileOverOneMebibyteIsRefusedUnread() throws {
    let padding = String(repeating: " ", count: LayoutFile.maxBytes)
    let json = #"{"name": "x", "keyWidth": 10, \#(Self.keys)}"# + padding
    #expect(
      error(json)
        == "l.json: the file is over 1048576 bytes, the limit for a layout (they are about 4 kB)")
    // From disk, reading stops just past the limit.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "layout-json-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("big.json").path
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: CompileError.self) { _ = try LayoutFile.load(path) }
  }

  @Test func aByteOrderMarkIsAcceptedAndColumnsStayByteColumns() {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    #expect(error(bytes: bom + Array(#"{"name": "x", "keyWidth": 10, \#(Self.keys)}"#.utf8)) == nil)
    #expect(
      error(bytes: bom + Array(#"{"name": "x", "keyWidth": }"#.utf8))
        == "l.json:1:30: not valid JSON")
  }

  @Test func aStringThatIsNotUTF8IsNotJSON() {
    let bytes =
      Array(#"{"name": "x"#.utf8) + [0xFF] + Array(#"", "keyWidth": 10, \#(Self.keys)}"#.utf8)
    #expect(error(bytes: bytes) == "l.json:1:10: not valid JSON")
  }

  @Test func aMissingFileIsAnIOError() {
    #expect(throws: CompileError.self) { _ = try LayoutFile.load("/nonexistent/layout.json") }
    do {
      _ = try LayoutFile.load("/nonexistent/layout.json")
    } catch {
      #expect(
        "\(error)"
          == "/nonexistent/layout.json: cannot read the layout file (No such file or directory)")
    }
  }
}
