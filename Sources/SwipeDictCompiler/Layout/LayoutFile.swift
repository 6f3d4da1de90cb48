import Foundation
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Reads keyboard layouts from JSON files (schema in `corpora/README.md` and DESIGN):
///
/// ```json
/// {"name": "qwerty-en", "unit": "pt", "keyWidth": 37.5,
///  "keys": [{"char": "q", "x": 18.75, "y": 27, "w": 37.5, "h": 54}, …],
///  "aliases": {"é": "e", "ß": "s"}, "skip": ["'", "-"]}
/// ```
///
/// `x`/`y` are key centres; `w`/`h` default to `keyWidth` and to the row height of 1.44 key
/// widths when absent. Fields the reader does not know are ignored, so layouts can carry
/// notes. Errors name the file and the JSON path of the bad value.
public enum LayoutFile {
  /// Reads and validates a layout file.
  /// - Parameter path: the JSON file.
  /// - Returns: the layout.
  /// - Throws: `CompileError.layout` or `.io`.
  public static func load(_ path: String) throws(CompileError) -> KeyboardLayout {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .io(path: path, message: "cannot read the layout file (\(error.localizedDescription))")
    }
    return try parse(data, file: path)
  }

  /// Parses and validates layout JSON.
  /// - Parameters:
  ///   - data: the JSON bytes.
  ///   - file: the name to use in errors.
  public static func parse(_ data: Data, file: String) throws(CompileError) -> KeyboardLayout {
    func fail(_ path: String, _ message: String) -> CompileError {
      .layout(file: file, path: path, message: message)
    }
    let root: [String: JSONTree]
    do {
      guard case .object(let object) = try JSONDecoder().decode(JSONTree.self, from: data) else {
        throw fail("", "expected a JSON object at the top level")
      }
      root = object
    } catch let error as CompileError {
      throw error
    } catch {
      throw .layout(file: jsonErrorPlace(in: data, file: file), path: "", message: "not valid JSON")
    }
    func number(_ object: [String: JSONTree], _ key: String, _ path: String) throws(CompileError)
      -> Float?
    {
      guard let value = object[key] else { return nil }
      guard case .number(let n) = value, n.isFinite else {
        throw fail("\(path.isEmpty ? "" : "\(path).")\(key)", "expected a number, found \(value)")
      }
      return Float(n)
    }
    func character(_ value: JSONTree, _ path: String) throws(CompileError) -> Unicode.Scalar {
      guard case .string(let text) = value else { throw fail(path, "expected a string") }
      let scalars = Collation.nfc(text).unicodeScalars
      guard scalars.count == 1, let s = scalars.first else {
        throw fail(path, "expected one character, found \"\(text)\"")
      }
      return s
    }
    guard case .string(let name)? = root["name"], !name.isEmpty else {
      throw fail("name", "missing: give the layout a name such as \"qwerty-en\"")
    }
    var unit = "pt"
    if case .string(let text)? = root["unit"] { unit = text }
    guard let keyWidth = try number(root, "keyWidth", "") else {
      throw fail("keyWidth", "missing: the width of a letter key, the unit of all distances")
    }
    guard keyWidth > 0 else { throw fail("keyWidth", "must be positive, found \(keyWidth)") }
    guard case .array(let rawKeys)? = root["keys"], !rawKeys.isEmpty else {
      throw fail("keys", "missing or empty: list the keys as {\"char\", \"x\", \"y\", \"w\", \"h\"}")
    }
    guard rawKeys.count <= FeatureLayout.maxKeys else {
      throw fail(
        "keys", "\(rawKeys.count) keys; a blob holds at most \(FeatureLayout.maxKeys): list the "
          + "letter keys only and map rare characters to them with \"aliases\"")
    }
    var keys: [KeyboardLayout.Key] = []
    var seen: [Unicode.Scalar: Int] = [:]
    for (i, raw) in rawKeys.enumerated() {
      let path = "keys[\(i)]"
      guard case .object(let key) = raw else { throw fail(path, "expected an object") }
      guard let char = key["char"] else { throw fail("\(path).char", "missing") }
      let c = KeyboardLayout.lowercase(try character(char, "\(path).char"))
      if let other = seen[c] {
        throw fail("\(path).char", "\"\(c)\" is already the key keys[\(other)]")
      }
      seen[c] = i
      guard let x = try number(key, "x", path), let y = try number(key, "y", path) else {
        throw fail(path, "needs \"x\" and \"y\", the key centre")
      }
      let w = try number(key, "w", path) ?? keyWidth
      let h = try number(key, "h", path) ?? keyWidth * 1.44
      guard w > 0, h > 0 else { throw fail(path, "w and h must be positive") }
      keys.append(.init(character: c, x: x, y: y, width: w, height: h))
    }
    var aliases: [Unicode.Scalar: Unicode.Scalar] = [:]
    if let rawAliases = root["aliases"] {
      guard case .object(let map) = rawAliases else {
        throw fail("aliases", "expected an object mapping characters to key characters")
      }
      for (from, to) in map.sorted(by: { $0.key < $1.key }) {
        let path = "aliases.\(from)"
        let f = KeyboardLayout.lowercase(try character(.string(from), path))
        let t = KeyboardLayout.lowercase(try character(to, path))
        guard seen[t] != nil else { throw fail(path, "\"\(t)\" is not a key of this layout") }
        guard seen[f] == nil else { throw fail(path, "\"\(f)\" already has its own key") }
        aliases[f] = t
      }
    }
    // A character with a key is typed with it: the default skipped set leaves such ones out.
    var skipped = KeyboardLayout.defaultSkipped.filter { seen[$0] == nil }
    if let rawSkip = root["skip"] {
      guard case .array(let list) = rawSkip else { throw fail("skip", "expected an array") }
      skipped = []
      for (i, value) in list.enumerated() {
        let s = try character(value, "skip[\(i)]")
        guard seen[s] == nil else { throw fail("skip[\(i)]", "\"\(s)\" has a key") }
        skipped.insert(s)
      }
    }
    let layout = KeyboardLayout(
      name: name, unit: unit, keyWidth: keyWidth, keys: keys, aliases: aliases, skipped: skipped)
    try checkAsStored(layout, file: file)
    return layout
  }

  /// Runs the loader's own check of a blob's `LYOT` section (`KeyboardLayout.validate`) on
  /// the bytes `layout` will be stored as, so a layout the loader would reject (a coordinate
  /// beyond a 32-bit float's range, say) fails the build by name instead of producing a blob
  /// no command can open. One rule set for both sides: the loader's check includes the
  /// layout file's rules (distinct keys, positive sizes, no overlaps, aliases and skipped
  /// characters); the checks above only name the JSON field first. Overlapping keys are
  /// found here only.
  static func checkAsStored(_ layout: KeyboardLayout, file: String) throws(CompileError) {
    let bytes = layout.encoded()
    let checked: Result<Void, FormatError> = bytes.withUnsafeBytes { raw in
      Result { () throws(FormatError) in try KeyboardLayout.validate(UnsafeByteView(raw)) }
    }
    guard case .failure(let error) = checked else { return }
    var what = "\(error)"
    if case .malformed(let detail) = error.reason { what = detail }
    // Name the field at the error's offset: the header's keyWidth or one key's number.
    let fields = ["char", "x", "y", "w", "h"]
    var path = ""
    if error.offset == 20 {
      path = "keyWidth"
    } else if error.offset >= 24, error.offset < 24 + 20 * layout.keys.count {
      path = "keys[\((error.offset - 24) / 20)].\(fields[(error.offset - 24) % 20 / 4])"
    }
    let stored =
      what.contains("not finite")
      ? " when stored as a 32-bit float (the blob's number type, at most 3.4e38)" : ""
    throw .layout(
      file: file, path: path, message: "\(what)\(stored); the loader would reject the blob")
  }

  /// `file:line:column` of a JSON syntax error in `data` (1-based, the column counting
  /// bytes as word-list errors do), or `file` when the parser does not say where.
  ///
  /// `JSONDecoder` on Linux reports no position; `JSONSerialization` reports a byte offset
  /// ("around character 27") or a line and column, so the data is parsed once more with it
  /// on this error path only.
  static func jsonErrorPlace(in data: Data, file: String) -> String {
    let error: NSError
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return file
    } catch let caught as NSError {
      error = caught
    }
    let text = error.userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
    func number(after marker: String) -> Int? {
      guard let range = text.range(of: marker) else { return nil }
      return Int(text[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }
    if let line = number(after: "line "), let column = number(after: "column ") {
      return "\(file):\(line):\(column)"
    }
    let bytes = [UInt8](data)
    var offset: Int
    if let index = error.userInfo["NSJSONSerializationErrorIndex"] as? Int {
      offset = index
    } else if let index = number(after: "character ") {
      offset = index
    } else if text.contains("end of file") || text.contains("end of data") {
      offset = bytes.count
    } else {
      return file
    }
    offset = min(max(0, offset), bytes.count)
    var line = 1
    var lineStart = 0
    for (i, byte) in bytes[..<offset].enumerated() where byte == UInt8(ascii: "\n") {
      line += 1
      lineStart = i + 1
    }
    return "\(file):\(line):\(offset - lineStart + 1)"
  }
}

/// A parsed JSON value, strict about types (a number is never taken for a boolean).
enum JSONTree: Decodable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONTree])
  case object([String: JSONTree])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONTree].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONTree].self))
    }
  }

  var description: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return "\(b)"
    case .number(let n): return "\(n)"
    case .string(let s): return "\"\(s)\""
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
