import SwipeDictFormat

/// The layout of a word list, decided by the first data line of each file.
public enum WordListFormat: String, Sendable, Hashable {
  /// `word<TAB>count` or `word count` per line.
  case counted
  /// Android's combined format: a `dictionary=…` header, then ` word=the,f=222,…` lines.
  case aosp
  /// One word per line, most frequent first; counts come from the rank.
  case bare
}

/// One word of a word list and its count.
public struct WordListEntry: Sendable, Hashable {
  /// The word exactly as in the file: valid UTF-8, not normalized (the caller applies NFC).
  public var word: String
  /// The count: as written (counted lists), the `f=` value (AOSP), or `1_000_000 / k` for
  /// the k-th data line of a bare list.
  public var count: Double
  /// The 1-based line the entry is on.
  public var line: Int
  /// What the list says about the word (AOSP `possibly_offensive=true`, `flags=abbreviation`;
  /// a counted list's third column, `word<TAB>count<TAB>possibly_offensive`).
  public var marks: WordMarks = []
  /// Whether the entry is a misspelling (AOSP `not_a_word=true`), kept only for its
  /// shortcuts: it is no word of the dictionary.
  public var isMisspelling = false
  /// The replacements the list offers for the word (AOSP `shortcut=` lines below it).
  public var shortcuts: [Shortcut] = []

  /// An entry.
  /// - Parameters:
  ///   - word: the word.
  ///   - count: its count.
  ///   - line: the 1-based line it is on.
  public init(word: String, count: Double, line: Int) {
    self.word = word
    self.count = count
    self.line = line
  }
}

/// How ``readWordList(atPath:options:_:)`` treats bad lines.
public struct WordListReadOptions: Sendable, Hashable {
  /// Skip lines with errors, counting them in ``WordListReport/skipped`` (the first 100 go to
  /// ``WordListReport/warnings``), instead of throwing the first one.
  public var skipInvalid: Bool
  /// The longest line accepted, in bytes without the line ending; longer lines are errors,
  /// read past without being buffered. Must be positive.
  public var maxLineBytes: Int
  /// Read a list of word pairs (bigrams): every data line is `w1 w2<TAB>count`, and an
  /// entry's word is the two words with one space between them.
  public var wordPairs: Bool

  /// Reading options.
  /// - Parameters:
  ///   - skipInvalid: skip bad lines instead of throwing.
  ///   - maxLineBytes: the longest line accepted, in bytes (positive).
  ///   - wordPairs: read `w1 w2<TAB>count` lines (a bigram list).
  public init(skipInvalid: Bool = false, maxLineBytes: Int = 64 * 1024, wordPairs: Bool = false) {
    self.skipInvalid = skipInvalid
    self.maxLineBytes = maxLineBytes
    self.wordPairs = wordPairs
  }
}

/// What ``readWordList(atPath:options:_:)`` read from one file.
public struct WordListReport: Sendable, Hashable {
  /// The path as given.
  public var file: String
  /// The format of the file; `nil` only if it had no data line.
  public var format: WordListFormat?
  /// Entries passed to the caller.
  public var entries: Int
  /// Lines in the file (after decompression), the last one counted even without a newline.
  public var lines: Int
  /// Invalid lines skipped because of ``WordListReadOptions/skipInvalid``.
  public var skipped: Int
  /// Valid lines that carry no entry: AOSP `bigram=` lines, and `shortcut=` lines below a
  /// phrase or the header. (Comments, blank lines and the AOSP header are not counted.)
  public var ignored: Int
  /// Entries that are misspellings (AOSP `not_a_word=true`), counted in ``entries`` too.
  public var misspellings: Int = 0
  /// Shortcuts attached to entries (AOSP `shortcut=` lines), whitelisted ones included.
  public var shortcuts: Int = 0
  /// AOSP entries of several words (` word=parce que`): phrases, kept apart; and the first
  /// few of them.
  public var multiWord: Int = 0
  public var multiWordExamples: [String] = []
  /// The errors of the first 100 skipped lines, in file order, for the caller to print.
  public var warnings: [WordListError]
  /// The number of bytes in the file as stored (compressed, if it is).
  public var rawBytes: Int
  /// The number of text bytes: `rawBytes` after decompression.
  public var textBytes: Int
  /// CRC-32C of the file's bytes as stored (compressed, if it is).
  public var checksum: UInt32
  /// Whether the file is zstd- or gzip-compressed (recognized by its magic bytes, not its
  /// name).
  public var compressed: Bool
}
