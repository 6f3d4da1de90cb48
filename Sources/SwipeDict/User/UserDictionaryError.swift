/// Why a user dictionary could not be opened, read, written, imported or changed: the file,
/// what is wrong and what to do.
///
/// ```
/// error: words.user: not a user dictionary (it starts with 53 44 42 4C …)
///   hint: give the path of a file that `swipedict user` created, or a new path
/// ```
public struct UserDictionaryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of problem it is, for code that reacts to some of them.
  public enum Reason: Sendable, Hashable {
    /// The system refused an operation on the file (the message says which and why).
    case io
    /// The file is not a user dictionary (wrong magic, or shorter than a header).
    case notAUserDictionary
    /// The file was written by a newer, incompatible version of the format.
    case unsupportedVersion
    /// The header's checksum or fields are wrong.
    case damagedHeader
    /// A word that cannot be a user word (empty, too long, whitespace, control character).
    case invalidWord
    /// A use count out of range.
    case invalidUses
    /// A line of an imported word list that cannot be read.
    case invalidLine
    /// The file is larger than any user dictionary of its capacity gets
    /// (``UserDictionary/maximumFileSize(capacity:)``): damaged, or not a user dictionary.
    case tooLarge
    /// A capacity out of range (``UserDictionary/Options/capacity``).
    case invalidCapacity
    /// A write to a store this process can only read (``UserDictionary/isReadOnly``): the
    /// file or its directory is read-only for it, as an App Group container is for a
    /// keyboard extension without Full Access.
    case readOnly
    /// Another process held the file's lock past ``UserDictionary/Options/lockTimeout``;
    /// nothing was written. Try again later.
    case busy
  }

  /// What kind of problem it is.
  public var reason: Reason
  /// The file concerned, if any (an invalid word given in code names none).
  public var file: String?
  /// The line of an imported list (1-based), when the problem is on one.
  public var line: Int?
  /// What is wrong.
  public var message: String
  /// What to do about it.
  public var hint: String

  /// Creates an error.
  public init(
    _ reason: Reason, file: String?, line: Int? = nil, message: String, hint: String
  ) {
    self.reason = reason
    self.file = file
    self.line = line
    self.message = message
    self.hint = hint
  }

  /// `FILE[:LINE]: what is wrong`, then `  hint: what to do` on the next line.
  public var description: String {
    var location = file ?? ""
    if let line { location += ":\(line)" }
    return (location.isEmpty ? "" : location + ": ") + message + "\n  hint: " + hint
  }
}
