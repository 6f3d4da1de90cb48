/// A problem with one input file or one of its lines: what is wrong, where, and what to do.
///
/// `description` is compiler-style, ready to print:
///
///     en.tsv:12:5: error: count "-3" is negative
///       hint: counts are non-negative integers or decimals (word<TAB>count)
///
/// Per-line problems (every ``Reason`` except ``Reason/damagedCompression`` and
/// ``Reason/noEntries``) can be skipped with ``WordListReadOptions/skipInvalid``; file-level
/// problems always stop the read.
public struct WordListError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of problem, for code that reacts to it; people read `message` and `hint`.
  public enum Reason: String, Sendable, Hashable {
    /// A byte sequence that is not UTF-8 (the column is the first byte of the bad sequence).
    case invalidUTF8
    /// A NUL byte, typical of UTF-16 or binary files.
    case nulByte
    /// Another control character (C0, DEL or C1), including a CR that does not end a line.
    case controlCharacter
    /// An entry with no word.
    case emptyWord
    /// A space, TAB or other Unicode whitespace inside a word.
    case whitespaceInWord
    /// A line of a counted or AOSP list without a count.
    case missingCount
    /// A count that is not a non-negative integer or decimal.
    case invalidCount
    /// A count with a leading `-`.
    case negativeCount
    /// A count above 2^53.
    case countTooLarge
    /// A third TAB-separated column in a counted list.
    case extraColumn
    /// A line that does not fit the file's format (AOSP lists).
    case malformedLine
    /// A line longer than ``WordListReadOptions/maxLineBytes``.
    case lineTooLong
    /// A word longer than `BlobFormat.maxWordLength` (128) Unicode scalars.
    case wordTooLong
    /// A zstd-compressed file that is damaged or truncated (file-level).
    case damagedCompression
    /// A file without a single entry (file-level).
    case noEntries
  }

  /// Where the problem is.
  public var location: InputLocation
  /// What is wrong, in one line.
  public var message: String
  /// What to do about it, in one line.
  public var hint: String
  /// The kind of problem.
  public var reason: Reason

  /// Describes a problem.
  /// - Parameters:
  ///   - location: where the problem is.
  ///   - reason: the kind of problem.
  ///   - message: what is wrong.
  ///   - hint: what to do about it.
  public init(location: InputLocation, reason: Reason, message: String, hint: String) {
    self.location = location
    self.reason = reason
    self.message = message
    self.hint = hint
  }

  /// `location: error: message`, then the hint on an indented second line.
  public var description: String { "\(location): error: \(message)\n  hint: \(hint)" }
}
