/// A keyboard layout: where each key is, in the layout's own unit.
///
/// Layouts are data (`corpora/layouts/*.json`, parsed by the compiler); the blob embeds the
/// layout it was built with in its `LYOT` section so the decoder and the inspector use the
/// same geometry. `keyWidth` is the length unit of every stored distance.
///
/// How a character reaches a key (``classify(_:)``): its own key or alias first (a Turkish
/// layout maps `I → ı`), else it is lowercased, then an alias maps it (`é → e`, `ß → s`),
/// then it is looked up among the keys. Characters listed in
/// ``skipped`` (apostrophe, hyphen) are allowed in words but have no key; anything else
/// (digits, symbols) makes a word untypeable. A layout is a value: it cannot change after it
/// is made, so its lookup tables stay true.
///
/// Binary encoding (`LYOT`), little-endian:
/// ```
/// 0   4  key count K          4   4  alias count A      8   4  skipped count S
/// 12  4  name byte count N    16  4  unit byte count U  20  4  keyWidth (Float32)
/// 24  20×K keys: scalar u32, x, y, width, height (Float32, key centers)
///     8×A aliases: from scalar u32, to scalar u32 (sorted by from)
///     4×S skipped scalars u32 (sorted)
///     N bytes name (UTF-8), U bytes unit (UTF-8)
/// ```
public struct KeyboardLayout: Sendable, Hashable {
  /// One key: a character and its rectangle (center and size).
  public struct Key: Sendable, Hashable {
    /// The (lowercase) character the key types.
    public var character: Unicode.Scalar
    /// The key center's x coordinate.
    public var x: Float
    /// The key center's y coordinate (growing downwards).
    public var y: Float
    /// The key's width.
    public var width: Float
    /// The key's height.
    public var height: Float

    /// Creates a key.
    public init(character: Unicode.Scalar, x: Float, y: Float, width: Float, height: Float) {
      self.character = character
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }
  }

  /// How one character of a word is typed.
  public enum Typing: Sendable, Hashable {
    /// With the key at this index of ``keys``.
    case key(Int)
    /// It has no key but is allowed in words (apostrophe, hyphen): skipped in the key path.
    case skipped
    /// It cannot be typed on this layout.
    case untypeable
  }

  /// The layout's name, e.g. `qwerty-en`.
  public let name: String
  /// The unit of the coordinates, e.g. `pt`.
  public let unit: String
  /// The width of a letter key: the unit of every stored distance.
  public let keyWidth: Float
  /// The keys.
  public let keys: [Key]
  /// Characters without a key that type as another character (`é → e`).
  public var aliases: [Unicode.Scalar: Unicode.Scalar] {
    Dictionary(uniqueKeysWithValues: zip(aliasSources, aliasTargets).map { (Unicode.Scalar($0)!, Unicode.Scalar($1)!) })
  }
  /// Characters allowed in words that have no key.
  public var skipped: Set<Unicode.Scalar> { Set(skippedScalars.map { Unicode.Scalar($0)! }) }

  // Sorted scalar tables, searched by halving: a blob's layout opens without hashing.
  /// The alias sources, ascending, and their targets.
  private let aliasSources: [UInt32]
  private let aliasTargets: [UInt32]
  /// The skipped characters, ascending.
  private let skippedScalars: [UInt32]
  /// The key characters, ascending, and each one's key index (the first key with it).
  private let keyCharacters: [UInt32]
  private let keyIndices: [Int]

  /// The characters ``skipped`` holds when a layout file does not say: apostrophes and hyphen.
  public static let defaultSkipped: Set<Unicode.Scalar> = ["'", "\u{2019}", "-"]

  /// Creates a layout. The layout rules (distinct keys, no overlaps, …) are checked where one
  /// is stored or read: `validate(_:fileOffset:)`, which the compiler and the loader share.
  public init(
    name: String, unit: String, keyWidth: Float, keys: [Key],
    aliases: [Unicode.Scalar: Unicode.Scalar] = [:], skipped: Set<Unicode.Scalar> = defaultSkipped
  ) {
    let sortedAliases = aliases.map { ($0.key.value, $0.value.value) }.sorted { $0.0 < $1.0 }
    self.init(
      name: name, unit: unit, keyWidth: keyWidth, keys: keys, aliasSources: sortedAliases.map(\.0),
      aliasTargets: sortedAliases.map(\.1), skippedScalars: skipped.map(\.value).sorted())
  }

  /// A layout from sorted alias and skipped tables (sources and skipped scalars ascending
  /// and distinct), as `LYOT` stores them.
  private init(
    name: String, unit: String, keyWidth: Float, keys: [Key], aliasSources: [UInt32], aliasTargets: [UInt32],
    skippedScalars: [UInt32]
  ) {
    self.name = name
    self.unit = unit
    self.keyWidth = keyWidth
    self.keys = keys
    self.aliasSources = aliasSources
    self.aliasTargets = aliasTargets
    self.skippedScalars = skippedScalars
    // The first key of each character (a valid layout has one), by character: sorted as
    // character << 32 | index, integers rather than pairs (open runs this).
    var order = keys.indices.map { UInt64(keys[$0].character.value) << 32 | UInt64($0) }
    order.sort()
    var characters: [UInt32] = []
    var indices: [Int] = []
    characters.reserveCapacity(keys.count)
    indices.reserveCapacity(keys.count)
    for packed in order where characters.last != UInt32(packed >> 32) {
      characters.append(UInt32(packed >> 32))
      indices.append(Int(packed & 0xFFFF_FFFF))
    }
    keyCharacters = characters
    keyIndices = indices
  }

  /// The position of `value` in the ascending `table`, if it is there.
  @inline(__always)
  private static func position(of value: UInt32, in table: [UInt32]) -> Int? {
    var lo = 0
    var hi = table.count
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      if table[mid] < value { lo = mid &+ 1 } else { hi = mid }
    }
    return lo < table.count && table[lo] == value ? lo : nil
  }

  private func keyIndex(_ scalar: UInt32) -> Int? {
    Self.position(of: scalar, in: keyCharacters).map { keyIndices[$0] }
  }

  private func aliasTarget(_ scalar: UInt32) -> UInt32? {
    Self.position(of: scalar, in: aliasSources).map { aliasTargets[$0] }
  }

  /// How `scalar` is typed: its own key, else its own alias (so a layout can say how a
  /// capital types where the language cases differently: Turkish `I → ı`), else
  /// lowercased, then aliased, then looked up.
  /// - Parameter scalar: a character of a word.
  /// - Returns: its key, `.skipped`, or `.untypeable`.
  public func classify(_ scalar: Unicode.Scalar) -> Typing {
    if let i = keyIndex(scalar.value) { return .key(i) }
    if let target = aliasTarget(scalar.value), let i = keyIndex(target) { return .key(i) }
    let lower = Self.lowercase(scalar).value
    if let i = keyIndex(lower) { return .key(i) }
    if let target = aliasTarget(lower), let i = keyIndex(target) { return .key(i) }
    if Self.position(of: scalar.value, in: skippedScalars) != nil { return .skipped }
    return .untypeable
  }

  /// The key index of `scalar`, if it has one (directly, lowercased or through an alias).
  public func key(for scalar: Unicode.Scalar) -> Int? {
    if case .key(let i) = classify(scalar) { return i }
    return nil
  }

  /// The key path of a word: the keys a swipe over it passes, in order. Each character is
  /// lowercased and aliased (`É → e`), characters without a key that are allowed in words
  /// (``skipped``: apostrophe, hyphen) are left out, and repeated keys collapse into one
  /// ("off" swipes like "of"). `nil` if a character cannot be typed on this layout.
  /// - Parameter word: the word (any normalization; NFC is what blobs store).
  /// - Returns: key indices into ``keys``; empty when the word has no keyed character.
  public func keyPath(for word: String) -> [Int]? {
    var path: [Int] = []
    for scalar in word.unicodeScalars {
      switch classify(scalar) {
      case .key(let index): if path.last != index { path.append(index) }
      case .skipped: continue
      case .untypeable: return nil
      }
    }
    return path
  }

  /// The keys that touch key `index` (edges or corners within 1 % of a key width): the
  /// "adjacent keys" of typing-error models. Sorted by key index.
  public func neighbors(of index: Int) -> [Int] {
    guard keys.indices.contains(index) else { return [] }
    let key = keys[index]
    let slack = keyWidth * 0.01
    return keys.indices.filter { other in
      guard other != index else { return false }
      let k = keys[other]
      let gapX = abs(k.x - key.x) - (k.width + key.width) / 2
      let gapY = abs(k.y - key.y) - (k.height + key.height) / 2
      return gapX <= slack && gapY <= slack
    }
  }

  /// The single-scalar lowercase form of `scalar`, or `scalar` itself (Turkish `İ` gives `i`).
  package static func lowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if scalar.isASCII {
      let v = scalar.value
      return v >= 0x41 && v <= 0x5A ? Unicode.Scalar(v + 32)! : scalar
    }
    // Turkish dotted capital İ lowercases to "i" + a combining dot: as one character, i.
    if scalar == "\u{130}" { return "i" }
    let mapped = scalar.properties.lowercaseMapping.unicodeScalars
    return mapped.count == 1 ? mapped.first! : scalar
  }

  /// The layout's `LYOT` encoding. Deterministic: aliases and skipped characters are sorted.
  package func encoded() -> [UInt8] {
    var out = ByteWriter()
    let nameBytes = Array(name.utf8)
    let unitBytes = Array(unit.utf8)
    out.append(UInt32(keys.count))
    out.append(UInt32(aliasSources.count))
    out.append(UInt32(skippedScalars.count))
    out.append(UInt32(nameBytes.count))
    out.append(UInt32(unitBytes.count))
    out.append(keyWidth)
    for key in keys {
      out.append(key.character.value)
      out.append(key.x)
      out.append(key.y)
      out.append(key.width)
      out.append(key.height)
    }
    for (from, to) in zip(aliasSources, aliasTargets) {
      out.append(from)
      out.append(to)
    }
    for scalar in skippedScalars { out.append(scalar) }
    out.append(contentsOf: nameBytes)
    out.append(contentsOf: unitBytes)
    return out.bytes
  }

  /// Whether two keys overlap by more than 1 % of a key width both ways (shared edges and
  /// rounding are fine): the layout rule both the compiler and the loader apply.
  package static func overlap(
    _ a: (x: Float, y: Float, width: Float, height: Float),
    _ b: (x: Float, y: Float, width: Float, height: Float), keyWidth: Float
  ) -> Bool {
    let overlapX = (a.width + b.width) / 2 - abs(a.x - b.x)
    let overlapY = (a.height + b.height) / 2 - abs(a.y - b.y)
    return overlapX > keyWidth * 0.01 && overlapY > keyWidth * 0.01
  }

  /// Checks a `LYOT` section: counts against the length, every character valid, every
  /// number finite, the layout rules (see below), name and unit UTF-8. O(keys²) for the
  /// overlap rule, at most 63 keys. After it passes, `init(decoding:)` succeeds on the same
  /// bytes.
  /// - Parameters:
  ///   - view: the section's bytes.
  ///   - fileOffset: where the section starts in the file, for error messages.
  package static func validate(_ view: UnsafeByteView, fileOffset: Int = 0) throws(FormatError) {
    _ = try decodedParts(view, fileOffset: fileOffset)
  }

  /// Decodes a `LYOT` section, checking it as `validate` does.
  /// - Parameters:
  ///   - view: the section's bytes.
  ///   - fileOffset: where the section starts in the file, for error messages.
  /// - Throws: `FormatError` when a count, scalar, number or string is invalid, or a rule
  ///   of a layout file is broken.
  package init(decoding view: UnsafeByteView, fileOffset: Int = 0) throws(FormatError) {
    let parts = try Self.decodedParts(view, fileOffset: fileOffset)
    self.init(
      name: parts.name, unit: parts.unit, keyWidth: parts.keyWidth, keys: parts.keys,
      aliasSources: parts.aliasSources, aliasTargets: parts.aliasTargets,
      skippedScalars: parts.skipped)
  }

  /// What a `LYOT` section holds, as `init(decoding:)` needs it.
  private struct Parts {
    var keyWidth: Float
    var keys: [Key]
    var aliasSources: [UInt32]
    var aliasTargets: [UInt32]
    var skipped: [UInt32]
    var name: String
    var unit: String
  }

  /// The one pass behind `validate` and `init(decoding:)` (open runs it): every field read
  /// and checked once.
  private static func decodedParts(_ view: UnsafeByteView, fileOffset: Int) throws(FormatError) -> Parts {
    func fail(_ detail: String, _ at: Int) -> FormatError {
      FormatError(.malformed(detail), section: .layout, offset: fileOffset + at)
    }
    guard let keyCount = view.uint32(at: 0), let aliasCount = view.uint32(at: 4),
      let skipCount = view.uint32(at: 8), let nameCount = view.uint32(at: 12),
      let unitCount = view.uint32(at: 16), let keyWidth = view.float32(at: 20)
    else { throw fail("layout header is truncated", 0) }
    let needed =
      24 + Int(keyCount) * 20 + Int(aliasCount) * 8 + Int(skipCount) * 4 + Int(nameCount)
      + Int(unitCount)
    guard needed == view.count else {
      throw fail("layout counts need \(needed) bytes, section has \(view.count)", 0)
    }
    guard keyWidth.isFinite, keyWidth > 0 else { throw fail("keyWidth \(keyWidth)", 20) }
    guard keyCount >= 1, keyCount <= UInt32(FeatureLayout.maxKeys) else {
      throw fail("\(keyCount) keys; a layout has 1 to \(FeatureLayout.maxKeys)", 0)
    }
    // From here on every read is in bounds: the counts fill the section, checked above.
    // The rules of a layout file (LayoutFile in the compiler checks the same, naming JSON
    // fields): distinct lowercase key characters, positive sizes, no overlapping keys,
    // aliases from a character without a key to one with a key, skipped characters without
    // a key. So the loader rejects exactly what the compiler refuses to build.
    var at = 24
    var characters = KeyCharacters()
    let keys = try decodeKeys(
      view, count: Int(keyCount), keyWidth: keyWidth, at: &at, characters: &characters, fail: fail)
    let (sources, targets) = try decodeAliases(
      view, count: Int(aliasCount), at: &at, characters: characters, fail: fail)
    let skipped = try decodeSkipped(view, count: Int(skipCount), at: &at, characters: characters, fail: fail)
    guard let name = view.slice(offset: at, length: Int(nameCount)).flatMap(utf8),
      let unit = view.slice(offset: at + Int(nameCount), length: Int(unitCount)).flatMap(utf8)
    else { throw fail("name or unit is not UTF-8", at) }
    return Parts(
      keyWidth: keyWidth, keys: keys, aliasSources: sources, aliasTargets: targets,
      skipped: skipped, name: name, unit: unit)
  }

  /// The key characters seen so far: an ASCII key is one bit of a 128-bit set, any other is
  /// kept in a list (rare: at most 63 keys), sorted once every key is in, for the aliases
  /// and skipped characters (100 aliases on qwerty-en), found by halving.
  private struct KeyCharacters {
    private var ascii: (low: UInt64, high: UInt64) = (0, 0)
    private var others: [UInt32] = []

    /// Adds `value`; returns whether it was there already.
    mutating func insert(_ value: UInt32) -> Bool {
      let repeated: Bool
      if value < 64 {
        repeated = ascii.low & 1 << UInt64(value) != 0
        ascii.low |= 1 << UInt64(value)
      } else if value < 128 {
        repeated = ascii.high & 1 << UInt64(value - 64) != 0
        ascii.high |= 1 << UInt64(value - 64)
      } else {
        repeated = others.contains(value)
        others.append(value)
      }
      return repeated
    }

    /// Sorts the non-ASCII characters, for `contains`.
    mutating func seal() { others.sort() }

    /// Whether `scalar` is a key's character (after `seal`).
    func contains(_ scalar: UInt32) -> Bool {
      if scalar < 64 { return ascii.low & 1 << UInt64(scalar) != 0 }
      if scalar < 128 { return ascii.high & 1 << UInt64(scalar - 64) != 0 }
      return KeyboardLayout.position(of: scalar, in: others) != nil
    }
  }

  /// The keys, from `at` (moved past them): distinct lowercase characters, finite geometry,
  /// positive sizes, no two overlapping. Their characters go into `characters`, sealed.
  private static func decodeKeys(
    _ view: UnsafeByteView, count: Int, keyWidth: Float, at: inout Int, characters: inout KeyCharacters,
    fail: (String, Int) -> FormatError
  ) throws(FormatError) -> [Key] {
    var keys: [Key] = []
    keys.reserveCapacity(count)
    for _ in 0..<count {
      guard let character = Unicode.Scalar(view.uint32(at: at)!) else {
        throw fail("invalid character code", at)
      }
      let repeated = characters.insert(character.value)
      guard lowercase(character) == character, !repeated else {
        let code = String(character.value, radix: 16, uppercase: true)
        throw fail("key character U+\(code) is not lowercase or not unique", at)
      }
      for field in 1...4 where !(view.float32(at: at + 4 * field)!.isFinite) {
        throw fail("key geometry is not finite", at + 4 * field)
      }
      let key = Key(
        character: character, x: view.float32(at: at + 4)!, y: view.float32(at: at + 8)!,
        width: view.float32(at: at + 12)!, height: view.float32(at: at + 16)!)
      guard key.width > 0, key.height > 0 else { throw fail("key size is not positive", at + 12) }
      for (j, other) in keys.enumerated()
      where overlap(
        (key.x, key.y, key.width, key.height), (other.x, other.y, other.width, other.height),
        keyWidth: keyWidth)
      {
        throw fail("key \"\(character)\" overlaps key \"\(other.character)\" (keys[\(j)])", at + 4)
      }
      keys.append(key)
      at += 20
    }
    characters.seal()
    return keys
  }

  /// The aliases, from `at` (moved past them), stored sorted and distinct (checked here):
  /// kept as the tables they are. Each maps a character without a key to a key's.
  private static func decodeAliases(
    _ view: UnsafeByteView, count: Int, at: inout Int, characters: KeyCharacters,
    fail: (String, Int) -> FormatError
  ) throws(FormatError) -> (sources: [UInt32], targets: [UInt32]) {
    var sources: [UInt32] = []
    var targets: [UInt32] = []
    sources.reserveCapacity(count)
    targets.reserveCapacity(count)
    for _ in 0..<count {
      let from = view.uint32(at: at)!
      let to = view.uint32(at: at + 4)!
      guard Unicode.Scalar(from) != nil, Unicode.Scalar(to) != nil else { throw fail("invalid character code", at) }
      guard sources.last.map({ $0 < from }) ?? true else { throw fail("aliases are not in ascending order", at) }
      guard !characters.contains(from), characters.contains(to) else {
        throw fail("an alias must map a character without a key to a key's character", at)
      }
      sources.append(from)
      targets.append(to)
      at += 8
    }
    return (sources, targets)
  }

  /// The skipped characters, from `at` (moved past them): ascending, none with a key.
  private static func decodeSkipped(
    _ view: UnsafeByteView, count: Int, at: inout Int, characters: KeyCharacters,
    fail: (String, Int) -> FormatError
  ) throws(FormatError) -> [UInt32] {
    var skipped: [UInt32] = []
    skipped.reserveCapacity(count)
    for _ in 0..<count {
      let scalar = view.uint32(at: at)!
      guard Unicode.Scalar(scalar) != nil else { throw fail("invalid character code", at) }
      guard skipped.last.map({ $0 < scalar }) ?? true else {
        throw fail("skipped characters are not in ascending order", at)
      }
      guard !characters.contains(scalar) else { throw fail("a skipped character has a key", at) }
      skipped.append(scalar)
      at += 4
    }
    return skipped
  }

  private static func utf8(_ bytes: UnsafeByteView) -> String? {
    bytes.withUnsafeBytes { raw in
      // Names and units are ASCII in practice: that needs no validation beyond the check.
      raw.allSatisfy { $0 < 0x80 }
        ? String(decoding: raw, as: UTF8.self) : String(validatingUTF8: raw)
    }
  }
}
