/// One word of a user dictionary: a word the user added, learned from use, or blocked.
///
/// Entries are values; a ``UserWords`` snapshot holds them and ``UserDictionary`` writes
/// them. The word is NFC (composed) and case is kept, as in a blob: `Anna` and `anna` are
/// two entries.
public struct UserEntry: Sendable, Hashable, CustomStringConvertible {
  /// How a word came into the user dictionary.
  public enum Kind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The user added the word (a name, slang): suggest it even if no dictionary has it.
    case added = 1
    /// The word was learned from what the user typed.
    case learned = 2
    /// The user blocked the word: never suggest it, whatever a dictionary says.
    case blocked = 3

    /// `added`, `learned` or `blocked`.
    public var description: String {
      switch self {
      case .added: return "added"
      case .learned: return "learned"
      case .blocked: return "blocked"
      }
    }
  }

  /// The largest use count: 4,294,967,295 (what a record holds; `Int.max` where `Int` has
  /// 32 bits). Counts are clamped to `0...maxUses` everywhere: in memory, in the file and in
  /// lists.
  public static let maxUses = Int(clamping: UInt32.max)

  /// The word, NFC, case kept.
  public var word: String
  /// How the word came in.
  public var kind: Kind
  /// How often the user typed (or swiped) the word, as far as the keyboard told the store;
  /// for a dictionary word this is the adapted count the decoder adds to its frequency.
  public var uses: Int
  /// When the entry was last written: the store's sequence number of that write. Larger is
  /// more recent; the least recent entries are evicted first when the store is full.
  public var lastUse: UInt64

  /// Creates an entry.
  /// - Parameters:
  ///   - word: the word (already validated and NFC: see ``UserWordRules/validate(_:)``).
  ///   - kind: how the word came in.
  ///   - uses: how often it was used, `0...maxUses`.
  ///   - lastUse: the sequence number of its last write.
  public init(word: String, kind: Kind, uses: Int, lastUse: UInt64) {
    self.word = word
    self.kind = kind
    self.uses = uses
    self.lastUse = lastUse
  }

  /// Whether the word is blocked (never suggested).
  public var isBlocked: Bool { kind == .blocked }

  /// `word (kind, N uses, #lastUse)`.
  public var description: String { "\(word) (\(kind), \(uses) uses, #\(lastUse))" }
}

/// What a user word may be, and its checks.
///
/// A word is what a keyboard suggests and what `swipedict build` reads from a list: one
/// token of at most ``maxScalars`` Unicode scalars after NFC normalization, with no
/// whitespace (no TAB, no newline, no space of any script), no control characters, not
/// starting with `#` (a comment in a word list). Anything else is refused with a
/// ``UserDictionaryError`` that says why.
public enum UserWordRules {
  /// The most Unicode scalars a word may have (after NFC).
  public static let maxScalars = 64

  /// The word in NFC, or the reason it cannot be a user word.
  /// - Parameter word: the word as given (any normalization).
  /// - Returns: the word in NFC.
  /// - Throws: ``UserDictionaryError`` with reason ``UserDictionaryError/Reason/invalidWord``.
  public static func validate(_ word: String) throws(UserDictionaryError) -> String {
    let normalized = Normalization.nfc(word)
    func refuse(_ what: String, _ hint: String) -> UserDictionaryError {
      UserDictionaryError(
        .invalidWord, file: nil,
        message: "\(quoted(word)) is not a valid word: \(what)", hint: hint)
    }
    guard !normalized.isEmpty else {
      throw refuse("it is empty", "give a word of 1 to \(maxScalars) characters")
    }
    var count = 0
    for scalar in normalized.unicodeScalars {
      count += 1
      if scalar.properties.isWhitespace {
        throw refuse(
          "it contains \(describe(scalar))",
          "a word is one token without spaces (multi-word phrases are not supported)")
      }
      if scalar.properties.generalCategory == .control {
        throw refuse("it contains the control character \(describe(scalar))", "remove it")
      }
      if scalar.value == 0xFFFE || scalar.value == 0xFFFF || scalar.value == 0xFEFF {
        throw refuse("it contains \(describe(scalar))", "remove it")
      }
    }
    guard count <= maxScalars else {
      throw refuse(
        "it has \(count) characters, over the limit of \(maxScalars)",
        "user words are at most \(maxScalars) Unicode scalars long")
    }
    if normalized.utf8.first == UInt8(ascii: "#") {
      throw refuse(
        "it starts with #, which starts a comment in a word list",
        "leave out the #")
    }
    return normalized
  }

  /// A word in quotes with its invisible characters escaped, for messages.
  static func quoted(_ word: String) -> String {
    var out = "\""
    for scalar in word.unicodeScalars.prefix(80) {
      if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace && scalar != " " {
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    if word.unicodeScalars.count > 80 { out += "…" }
    return out + "\""
  }

  private static func describe(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x09: return "a TAB"
    case 0x0A: return "a newline"
    case 0x0D: return "a carriage return"
    case 0x20: return "a space"
    default:
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
  }
}

/// What each change does to a word's entry: the rules ``UserDictionary`` writes by and
/// ``UserWords`` applies in memory (a keyboard that cannot write its store).
package enum UserEntryChange: Sendable {
  /// `learn`: one more use, or a new learned entry with one use; a blocked entry stays as it is.
  case learn
  /// `unlearn`: one use fewer; a learned entry left without uses is removed; a blocked entry
  /// stays as it is.
  case unlearn
  /// `block`: blocked, keeping its uses.
  case block
  /// `add`: added, with these uses (`nil` keeps the entry's, 0 for a new one).
  case add(uses: Int?)

  /// What the change makes of `old`.
  enum Outcome: Equatable {
    /// Nothing to write.
    case unchanged
    /// The entry becomes this kind with these uses.
    case set(UserEntry.Kind, uses: Int)
    /// The entry goes.
    case remove
  }

  func outcome(from old: UserEntry?) -> Outcome {
    switch self {
    case .learn:
      guard let old else { return .set(.learned, uses: 1) }
      if old.kind == .blocked { return .unchanged }
      return .set(old.kind, uses: old.uses < UserEntry.maxUses ? old.uses + 1 : old.uses)
    case .unlearn:
      guard let old, old.kind != .blocked else { return .unchanged }
      if old.kind == .learned && old.uses <= 1 { return .remove }
      return .set(old.kind, uses: max(old.uses - 1, 0))
    case .block:
      return .set(.blocked, uses: old?.uses ?? 0)
    case .add(let uses):
      return .set(.added, uses: uses ?? old?.uses ?? 0)
    }
  }
}
