import Foundation
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Reads keyboard layouts from JSON files (schema in `corpora/README.md` and DESIGN):
///
/// ```json
/// {"name": "qwerty-en", "unit": "pt", "keyWidth": 37.5,
///  "keys": [{"char": "q", "x": 18.75, "y": 27, "w": 37.5, "h": 54}, …],
///  "aliases": {"é": "e", "ß": "s"}, "skip": ["'", "-"]}
/// ```
///
/// Alias sources are lowercased, except `I` and `İ`, whose case is language-specific
/// (Turkish `"I": "ı"`).
/// `x`/`y` are key centers; `w`/`h` default to `keyWidth` and to the row height of 1.44 key
/// widths when absent. Fields the reader does not know are ignored, so layouts can carry
/// notes. Errors name the file and the JSON path of the bad value; a JSON syntax error, a
/// key given twice or nesting beyond 32 levels names `file:line:column` (a byte column) as
/// `JSONReader` (SwipeDictFiles), the package's one JSON reader, finds it.
public enum LayoutFile {
  /// The capitals an alias may name as they are: their lowercase depends on the language.
  static let languageCasedCapitals: Set<Unicode.Scalar> = ["I", "\u{130}"]
  /// The largest layout file read, in bytes: the committed layouts are about 4 kB, and a
  /// blob holds at most 63 keys; the bound keeps a hostile file from filling memory.
  static let maxBytes = 1 << 20

  /// How the layout reader reads JSON: strict (no `NaN`/`Infinity`), at most 32 levels of
  /// nesting (a layout needs 3), at most ``maxBytes``.
  static var readerOptions: JSONReader.Options {
    var options = JSONReader.Options()
    options.maxBytes = maxBytes
    options.endOfInput = "the end of the file"
    return options
  }

  /// Reads and validates a layout file.
  /// - Parameter path: the JSON file.
  /// - Returns: the layout.
  /// - Throws: `CompileError.layout` or `.io`.
  public static func load(_ path: String) throws(CompileError) -> KeyboardLayout {
    var bytes: [UInt8] = []
    do {
      let input = try InputFile(openingForReading: path, kinds: .regularFiles)
      var buffer = [UInt8](repeating: 0, count: 64 << 10)
      // Reads at most one byte more than the limit, which is enough to refuse the file.
      while bytes.count <= maxBytes {
        let count = try input.read(into: &buffer)
        if count == 0 { break }
        bytes += buffer[..<count]
      }
    } catch {
      throw .io(path: path, message: "cannot read the layout file (\(error.reason))")
    }
    return try parse(bytes: bytes, file: path)
  }

  /// Parses and validates layout JSON.
  /// - Parameters:
  ///   - data: the JSON bytes.
  ///   - file: the name to use in errors.
  public static func parse(_ data: Data, file: String) throws(CompileError) -> KeyboardLayout {
    try parse(bytes: [UInt8](data), file: file)
  }

  /// Parses and validates layout JSON: ``parse(_:file:)`` on bytes.
  ///
  /// The JSON is strict (RFC 8259): `NaN` and `Infinity` are refused, and a key given twice
  /// in an object the layout reads is an error rather than a silent choice of one. A UTF-8
  /// byte order mark is accepted. Syntax errors give `file:line:column` (a byte column).
  static func parse(bytes input: [UInt8], file: String) throws(CompileError) -> KeyboardLayout {
    guard input.count <= maxBytes else {
      throw .layout(
        file: file, path: "",
        message: "the file is over \(maxBytes) bytes, the limit for a layout (they are about 4 kB)")
    }
    let reader = LayoutJSON(input, file: file)
    let root = try reader.root()
    guard case .string(let name)? = root["name"]?.kind, !name.isEmpty else {
      throw reader.fail("name", "missing: give the layout a name such as \"qwerty-en\"")
    }
    var unit = "pt"
    if case .string(let text)? = root["unit"]?.kind { unit = text }
    guard let keyWidth = try reader.number(root, "keyWidth", "") else {
      throw reader.fail("keyWidth", "missing: the width of a letter key, the unit of all distances")
    }
    guard keyWidth > 0 else { throw reader.fail("keyWidth", "must be positive, found \(keyWidth)") }
    let (keys, seen) = try reader.keys(root, keyWidth: keyWidth)
    let aliases = try reader.aliases(root, keys: seen)
    let skipped = try reader.skipped(root, keys: seen)
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
}

/// A layout file's JSON as ``LayoutFile`` reads it: strict members, numbers that fit a
/// 32-bit float, single characters, and errors that name the file and the field (or
/// `file:line:column` for a syntax error or a key given twice).
private struct LayoutJSON {
  let file: String
  /// The file's bytes, a byte order mark read as three spaces, so that columns stay byte
  /// columns of the file.
  let bytes: [UInt8]

  init(_ input: [UInt8], file: String) {
    self.file = file
    var bytes = input
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.replaceSubrange(0..<3, with: [32, 32, 32]) }
    self.bytes = bytes
  }

  func fail(_ path: String, _ message: String) -> CompileError {
    .layout(file: file, path: path, message: message)
  }

  /// `file:line:column` of a byte offset.
  func place(_ offset: Int) -> String {
    let (line, column) = JSONReader.position(of: offset, in: bytes)
    return "\(file):\(line):\(column)"
  }

  /// The top-level object's members.
  func root() throws(CompileError) -> [String: JSONReader.Value] {
    let rootValue: JSONReader.Value
    do {
      rootValue = try JSONReader.parse(bytes, options: LayoutFile.readerOptions)
    } catch {
      // A syntax error, at the reader's exact place.
      throw .layout(file: place(error.offset), path: "", message: "not valid JSON")
    }
    guard let root = try members(rootValue, "") else {
      throw fail("", "expected a JSON object at the top level")
    }
    return root
  }

  /// The members of an object by key; a key given twice is refused at its second place.
  func members(_ value: JSONReader.Value, _ path: String) throws(CompileError)
    -> [String: JSONReader.Value]?
  {
    guard case .object(let list) = value.kind else { return nil }
    var map: [String: JSONReader.Value] = [:]
    for (key, member) in list {
      guard map.updateValue(member, forKey: key) == nil else {
        throw .layout(
          file: place(member.offset), path: "\(path.isEmpty ? "" : "\(path).")\(key)",
          message: "given twice: keep one (JSON readers differ on which one counts)")
      }
    }
    return map
  }

  /// A value as errors show it: `null`, `true`, `"text"`, `an array`.
  func shown(_ value: JSONReader.Value) -> String {
    switch value.kind {
    case .null: return "null"
    case .bool(let b): return "\(b)"
    case .number(let n) where n.isFinite: return "\(n)"
    case .number:
      // Only a literal beyond a Double's range gets here (the reader refuses NaN): show it.
      let text = bytes[value.offset...].prefix {
        (0x30...0x39).contains($0) || [0x2B, 0x2D, 0x2E, 0x45, 0x65].contains($0)
      }
      return "\(String(decoding: text, as: UTF8.self)), beyond a 64-bit float's range"
    case .string(let s): return "\"\(s)\""
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The number at `key`, as the blob stores it, or `nil` when there is none.
  func number(_ object: [String: JSONReader.Value], _ key: String, _ path: String)
    throws(CompileError) -> Float?
  {
    guard let value = object[key] else { return nil }
    let field = "\(path.isEmpty ? "" : "\(path).")\(key)"
    guard case .number(let n) = value.kind, n.isFinite else {
      throw fail(field, "expected a number, found \(shown(value))")
    }
    guard Float(n).isFinite else {
      throw fail(field, "\(n) is too large: a blob stores a layout's numbers as 32-bit floats (at most 3.4e38)")
    }
    return Float(n)
  }

  /// A string of one character (after NFC).
  func character(_ value: JSONReader.Value.Kind, _ path: String) throws(CompileError)
    -> Unicode.Scalar
  {
    guard case .string(let text) = value else { throw fail(path, "expected a string") }
    let scalars = Collation.nfc(text).unicodeScalars
    guard scalars.count == 1, let s = scalars.first else {
      throw fail(path, "expected one character, found \"\(text)\"")
    }
    return s
  }

  /// The keys (`keys`), and the index of each key's (lowercase) character.
  func keys(_ root: [String: JSONReader.Value], keyWidth: Float) throws(CompileError)
    -> (keys: [KeyboardLayout.Key], seen: [Unicode.Scalar: Int])
  {
    guard case .array(let rawKeys)? = root["keys"]?.kind, !rawKeys.isEmpty else {
      throw fail(
        "keys", "missing or empty: list the keys as {\"char\", \"x\", \"y\", \"w\", \"h\"}")
    }
    guard rawKeys.count <= FeatureLayout.maxKeys else {
      throw fail(
        "keys",
        "\(rawKeys.count) keys; a blob holds at most \(FeatureLayout.maxKeys): list the "
          + "letter keys only and map rare characters to them with \"aliases\"")
    }
    var keys: [KeyboardLayout.Key] = []
    var seen: [Unicode.Scalar: Int] = [:]
    for (i, raw) in rawKeys.enumerated() {
      let path = "keys[\(i)]"
      guard let key = try members(raw, path) else { throw fail(path, "expected an object") }
      guard let char = key["char"] else { throw fail("\(path).char", "missing") }
      let c = KeyboardLayout.lowercase(try character(char.kind, "\(path).char"))
      if let other = seen[c] {
        throw fail("\(path).char", "\"\(c)\" is already the key keys[\(other)]")
      }
      seen[c] = i
      guard let x = try number(key, "x", path), let y = try number(key, "y", path) else {
        throw fail(path, "needs \"x\" and \"y\", the key center")
      }
      let w = try number(key, "w", path) ?? keyWidth
      let h = try number(key, "h", path) ?? keyWidth * 1.44
      guard w > 0, h > 0 else { throw fail(path, "w and h must be positive") }
      keys.append(.init(character: c, x: x, y: y, width: w, height: h))
    }
    return (keys, seen)
  }

  /// The characters typed with another's key (`aliases`), each to a key of `keys`.
  func aliases(_ root: [String: JSONReader.Value], keys seen: [Unicode.Scalar: Int]) throws(CompileError)
    -> [Unicode.Scalar: Unicode.Scalar]
  {
    var aliases: [Unicode.Scalar: Unicode.Scalar] = [:]
    guard let rawAliases = root["aliases"] else { return aliases }
    guard let map = try members(rawAliases, "aliases") else {
      throw fail("aliases", "expected an object mapping characters to key characters")
    }
    for (from, to) in map.sorted(by: { $0.key < $1.key }) {
      let path = "aliases.\(from)"
      // I and İ, whose case is language-specific (Unicode SpecialCasing: Turkish and
      // Azeri), keep their case: "I": "ı" says how Turkish types a capital I, where I
      // lowercases to i elsewhere. Every other source is lowercased.
      let source = try character(.string(from), path)
      let f = LayoutFile.languageCasedCapitals.contains(source) ? source : KeyboardLayout.lowercase(source)
      let t = KeyboardLayout.lowercase(try character(to.kind, path))
      guard seen[t] != nil else { throw fail(path, "\"\(t)\" is not a key of this layout") }
      guard seen[f] == nil else { throw fail(path, "\"\(f)\" already has its own key") }
      aliases[f] = t
    }
    return aliases
  }

  /// The characters a word may have that no key types (`skip`; by default the layout's
  /// default set less those with a key).
  func skipped(_ root: [String: JSONReader.Value], keys seen: [Unicode.Scalar: Int]) throws(CompileError)
    -> Set<Unicode.Scalar>
  {
    // A character with a key is typed with it: the default skipped set leaves such ones out.
    guard let rawSkip = root["skip"] else { return KeyboardLayout.defaultSkipped.filter { seen[$0] == nil } }
    guard case .array(let list) = rawSkip.kind else { throw fail("skip", "expected an array") }
    var skipped: Set<Unicode.Scalar> = []
    for (i, value) in list.enumerated() {
      let s = try character(value.kind, "skip[\(i)]")
      guard seen[s] == nil else { throw fail("skip[\(i)]", "\"\(s)\" has a key") }
      skipped.insert(s)
    }
    return skipped
  }
}
