/// What a word list says about a word beyond its frequency.
///
/// AOSP combined lists mark words `possibly_offensive=true` (a keyboard accepts them but,
/// with "block offensive words" on, never suggests them) and `flags=abbreviation`. A blob
/// keeps both in its `MARK` section.
public struct WordMarks: OptionSet, Sendable, Hashable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// `possibly_offensive=true`: accepted, but not suggested while
  /// `SwipeDictionary.blocksOffensiveWords` is on (AOSP's default).
  public static let possiblyOffensive = WordMarks(rawValue: 1 << 0)
  /// `flags=abbreviation`: "km", "OK", "UK".
  public static let abbreviation = WordMarks(rawValue: 1 << 1)

  /// Every mark this format version defines; readers reject other bits.
  public static let known: WordMarks = [.possiblyOffensive, .abbreviation]
}

/// A replacement a word list offers for a word (AOSP's `shortcut=`), such as the whitelisted
/// correction "acomodate" → "accommodate" or the spelling "coeur" → "cœur".
public struct Shortcut: Sendable, Hashable {
  /// What the keyboard offers instead: a word, or several ("UnitedStates" → "United States").
  public var target: String
  /// `f=whitelist`: a correction the keyboard applies first, before any other correction.
  public var isWhitelisted: Bool
  /// AOSP's frequency of the shortcut, 0…255 on its log scale (255 for a whitelisted one).
  public var frequency: UInt8

  /// A shortcut.
  public init(target: String, isWhitelisted: Bool, frequency: UInt8) {
    self.target = target
    self.isWhitelisted = isWhitelisted
    self.frequency = frequency
  }
}

/// The `MARK` section (format 1.2): marked words and shortcuts.
///
/// Written only when the word lists mark a word or carry a shortcut (AOSP lists), so blobs
/// of plain lists have no `MARK` section and lose nothing.
///
/// ```
/// 0   8     word count (the automaton's)
/// 8   4     marked word count M
/// 12  4     shortcut count S
/// 16  4     text byte count T
/// 20  44    reserved (0)
/// 64  8×M   marked words, ascending word ID: word ID u32, marks u32 (WordMarks bits)
///     12×S  shortcuts, ascending by the UTF-8 bytes of their source, then in order of
///           preference (whitelisted first, then by frequency descending, then by target):
///             text offset u32 (into the text), source length u16, target length u16,
///             frequency u8 (AOSP's 0…255), flags u8 (bit 0: whitelisted), reserved u16 (0)
///     T     text: each shortcut's source then its target, UTF-8 (NFC), without separators
/// ```
///
/// A shortcut's source is any spelling, in the blob or not: a misspelling (`not_a_word`)
/// lives only here. Opening checks the header and that the parts fill the section exactly;
/// every later read is bounds-checked; verifying checks the order of both tables, the
/// word IDs, the mark bits, that every text range lies inside the text and is valid UTF-8,
/// and that the sources are in order.
@_spi(SwipeDictInternals) public enum MarkLayout {
  /// The size of the section header.
  @_spi(SwipeDictInternals) public static let headerSize = 64
  /// The size of one marked-word record.
  @_spi(SwipeDictInternals) public static let markRecordSize = 8
  /// The size of one shortcut record.
  @_spi(SwipeDictInternals) public static let shortcutRecordSize = 12
  /// The longest source or target in bytes (the lengths are u16).
  @_spi(SwipeDictInternals) public static let maxTextLength = Int(UInt16.max)
  /// The shortcut flag bit of a whitelisted shortcut.
  @_spi(SwipeDictInternals) public static let whitelistedFlag: UInt8 = 1

  /// One shortcut as the compiler holds it.
  package struct Entry: Sendable, Hashable {
    package var source: String
    package var shortcut: Shortcut
    package init(source: String, shortcut: Shortcut) {
      self.source = source
      self.shortcut = shortcut
    }
  }

  /// Whether `a` comes before `b` in the section: by source bytes, then whitelisted first,
  /// then frequency descending, then target bytes.
  package static func precedes(_ a: Entry, _ b: Entry) -> Bool {
    if !a.source.utf8.elementsEqual(b.source.utf8) {
      return a.source.utf8.lexicographicallyPrecedes(b.source.utf8)
    }
    if a.shortcut.isWhitelisted != b.shortcut.isWhitelisted { return a.shortcut.isWhitelisted }
    if a.shortcut.frequency != b.shortcut.frequency { return a.shortcut.frequency > b.shortcut.frequency }
    return a.shortcut.target.utf8.lexicographicallyPrecedes(b.shortcut.target.utf8)
  }

  /// The section's bytes.
  /// - Parameters:
  ///   - wordCount: the automaton's word count.
  ///   - marks: marked words by ascending ID, no empty marks.
  ///   - shortcuts: distinct shortcuts in section order (``precedes(_:_:)``), each source
  ///     and target at most ``maxTextLength`` bytes.
  package static func encode(
    wordCount: Int, marks: [(id: Int, marks: WordMarks)], shortcuts: [Entry]
  ) -> [UInt8] {
    var text: [UInt8] = []
    var out = ByteWriter()
    out.append(UInt64(wordCount))
    out.append(UInt32(marks.count))
    out.append(UInt32(shortcuts.count))
    let textBytes = shortcuts.reduce(0) { $0 + $1.source.utf8.count + $1.shortcut.target.utf8.count }
    out.append(UInt32(textBytes))
    out.pad(toMultipleOf: headerSize)
    for (id, mark) in marks {
      out.append(UInt32(id))
      out.append(mark.rawValue)
    }
    for entry in shortcuts {
      out.append(UInt32(text.count))
      out.append(UInt16(entry.source.utf8.count))
      out.append(UInt16(entry.shortcut.target.utf8.count))
      out.append(entry.shortcut.frequency)
      out.append(entry.shortcut.isWhitelisted ? whitelistedFlag : 0)
      out.append(UInt16(0))
      text += entry.source.utf8
      text += entry.shortcut.target.utf8
    }
    out.append(contentsOf: text)
    return out.bytes
  }
}
