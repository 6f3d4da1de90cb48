/// A user dictionary as a word list: what `swipedict user FILE export` writes and `import`
/// reads, in the project's input format.
///
/// ```
/// # SwipeDict user words (swipedict user export): 2 added, 1 learned, 1 blocked
/// # word<TAB>uses, least recently used first; #!added and #!learned say what the lines
/// # after them are, #!blocked<TAB>WORD is a blocked word (swipedict build skips # lines)
/// #!added
/// Zoë	0
/// #!learned
/// gonna	12
/// #!blocked	ducking
/// #!added
/// Anna	3
/// ```
///
/// Added and learned words are `word<TAB>uses` lines, which `swipedict build` reads as a
/// counted word list; the lines starting with `#` are comments to it. The `#!` lines carry
/// what only a user dictionary has: `#!added` and `#!learned` set the kind of the lines
/// after them (lines before any marker are added words, so any plain word list imports as
/// added words), and `#!blocked<TAB>WORD` is a blocked word, kept out of a build.
///
/// Lines are `word<TAB>uses`, `word uses` or a bare `word` (0 uses); uses are whole
/// numbers (a decimal is rounded, as in `swipedict dump` output), at most 4294967295.
/// UTF-8, LF or CRLF, an optional byte-order mark, blank lines and other `#` comments.
public struct UserWordList: Sendable, Hashable {
  /// One entry of a list.
  public struct Item: Sendable, Hashable {
    /// The word (NFC).
    public var word: String
    /// What it is.
    public var kind: UserEntry.Kind
    /// Its use count.
    public var uses: Int

    /// Creates an item. Nothing is checked here: ``UserDictionary/importList(_:replacing:)``
    /// validates the word (``UserWordRules``, NFC) and the count (`0...UserEntry.maxUses`)
    /// and throws before writing anything; ``UserWordList/init(parsing:file:)`` validates
    /// as it reads.
    public init(word: String, kind: UserEntry.Kind, uses: Int) {
      self.word = word
      self.kind = kind
      self.uses = uses
    }
  }

  /// The entries, in list order (least recently used first).
  public var items: [Item]

  /// A list of these items.
  public init(items: [Item]) { self.items = items }

  /// Reads a list.
  /// - Parameters:
  ///   - bytes: the file's contents.
  ///   - file: its name, for errors.
  /// - Throws: ``UserDictionaryError`` with reason `.invalidLine` (or `.invalidWord`,
  ///   `.invalidUses`) naming the file and line: what is wrong and what to do.
  public init(parsing bytes: [UInt8], file: String) throws(UserDictionaryError) {
    var items: [Item] = []
    var kind = UserEntry.Kind.added
    var lineNumber = 0
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    while start < bytes.count {
      lineNumber += 1
      var stop = start
      while stop < bytes.count && bytes[stop] != 0x0A { stop += 1 }
      var lineEnd = stop
      if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      let lineBytes = bytes[start..<lineEnd]
      start = stop + 1
      func fail(_ message: String, _ hint: String, reason: UserDictionaryError.Reason = .invalidLine)
        -> UserDictionaryError
      {
        UserDictionaryError(reason, file: file, line: lineNumber, message: message, hint: hint)
      }
      let line = String(decoding: lineBytes, as: UTF8.self)
      guard line.utf8.elementsEqual(lineBytes) else {
        throw fail("the line is not valid UTF-8", "save the file as UTF-8")
      }
      let trimmed = Self.trimmingSpaces(line)
      if trimmed.isEmpty { continue }
      if trimmed.hasPrefix("#!") {
        let fields = Self.fields(trimmed.dropFirst(2))
        switch (fields.first ?? "", fields.count) {
        case ("added", 1): kind = .added
        case ("learned", 1): kind = .learned
        case ("blocked", 2):
          let word = try Self.word(fields[1], file: file, line: lineNumber)
          items.append(Item(word: word, kind: .blocked, uses: 0))
        case ("blocked", _):
          throw fail("#!blocked needs one word after it", "write #!blocked<TAB>WORD, one blocked word a line")
        default:
          throw fail(
            "unknown marker \(UserWordRules.quoted(String(trimmed.prefix(40))))",
            "the #! lines are #!added, #!learned and #!blocked<TAB>WORD; a comment starts with # and a space")
        }
        continue
      }
      if trimmed.hasPrefix("#") { continue }
      let fields = Self.fields(trimmed[...])
      guard fields.count <= 2 else {
        throw fail(
          "\(fields.count) columns; a line is word<TAB>uses",
          "words cannot contain spaces; remove the extra columns")
      }
      let word = try Self.word(fields[0], file: file, line: lineNumber)
      var uses = 0
      if fields.count == 2 {
        guard let value = Self.count(fields[1]) else {
          throw fail(
            "\(UserWordRules.quoted(String(fields[1].prefix(40)))) is not a use count",
            "a use count is a whole number from 0 to \(UserEntry.maxUses)", reason: .invalidUses)
        }
        uses = value
      }
      items.append(Item(word: word, kind: kind, uses: uses))
    }
    self.items = items
  }

  /// The list of a snapshot's entries, least recently used first, with a marker line
  /// wherever the kind changes (so an import restores the order and the kinds).
  /// - Parameter words: the entries.
  /// - Returns: the text of the list (UTF-8, LF).
  public static func format(_ words: UserWords) -> String {
    let entries = words.entries
    var counts: [UserEntry.Kind: Int] = [:]
    for entry in entries { counts[entry.kind, default: 0] += 1 }
    var text =
      "# SwipeDict user words (swipedict user export): \(counts[.added] ?? 0) added, "
      + "\(counts[.learned] ?? 0) learned, \(counts[.blocked] ?? 0) blocked\n"
      + "# word<TAB>uses, least recently used first; #!added and #!learned say what the lines\n"
      + "# after them are, #!blocked<TAB>WORD is a blocked word (swipedict build skips # lines)\n"
    var kind: UserEntry.Kind?
    for entry in entries {
      if entry.kind == .blocked {
        text += "#!blocked\t\(entry.word)\n"
        continue
      }
      if entry.kind != kind {
        text += "#!\(entry.kind)\n"
        kind = entry.kind
      }
      text += "\(entry.word)\t\(entry.uses)\n"
    }
    return text
  }

  // MARK: Parsing helpers

  private static func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" }

  private static func trimmingSpaces(_ line: String) -> Substring {
    var s = line[...]
    while let last = s.last, isSpace(last) { s = s.dropLast() }
    while let first = s.first, first == " " { s = s.dropFirst() }
    return s
  }

  /// The fields of a line, split at runs of spaces and TABs.
  private static func fields(_ text: Substring) -> [Substring] {
    text.split(whereSeparator: isSpace)
  }

  private static func word(_ text: Substring, file: String, line: Int) throws(UserDictionaryError) -> String {
    do {
      return try UserWordRules.validate(String(text))
    } catch {
      var located = error
      located.file = file
      located.line = line
      throw located
    }
  }

  /// A whole or decimal count, rounded, within `0...UserEntry.maxUses`; `nil` otherwise.
  private static func count(_ text: Substring) -> Int? {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy({ $0.isASCII && $0.isNumber }),
      whole.count <= 12
    else { return nil }
    guard var value = Int(whole) else { return nil }
    if parts.count == 2 {
      let fraction = parts[1]
      guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
      if let digit = fraction.first, digit >= "5" { value += 1 }
    }
    return value <= UserEntry.maxUses ? value : nil
  }
}
