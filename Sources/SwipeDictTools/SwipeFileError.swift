/// A problem with a swipe file or one of its lines: where, what is wrong, and what to do.
///
/// `description` is compiler-style, ready to print:
///
///     swipes.jsonl:12:40: error: point 3 has 4 numbers
///       hint: write each point as [x, y] or [x, y, t_ms], numbers in the layout's units
public struct SwipeFileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of problem, for code that reacts to it; people read `message` and `hint`.
  public enum Reason: String, Sendable, Hashable {
    /// The file cannot be read (file-level: ``SwipeFileError/line`` is 0).
    case unreadable
    /// A line that is not UTF-8.
    case invalidUTF8
    /// A line that is not JSON.
    case notJSON
    /// A line whose JSON value is not an object.
    case notAnObject
    /// A key (`word`, `previous` or `points`) given twice in one object.
    case duplicateKey
    /// A `word` that is neither a string nor `null`.
    case wordNotAString
    /// A `previous` that is neither a string nor `null`.
    case previousNotAString
    /// An object without `points`.
    case missingPoints
    /// A `points` value that is not an array.
    case pointsNotAnArray
    /// An empty `points` array.
    case noPoints
    /// A point that is not an array of 2 or 3 numbers.
    case badPoint
    /// A coordinate or time that is `NaN`, infinite, or beyond ±10⁹ (squared distances would
    /// overflow a `Float`).
    case nonFiniteNumber
    /// Some points with a time and some without, in one swipe.
    case mixedTimes
    /// A time more than ``SwipeFile/timeJitterTolerance`` milliseconds before the time of the
    /// point before it (a smaller step back is jitter, read as the time before).
    case timeGoesBackwards
    /// A line longer than ``SwipeFile/maximumLineBytes``.
    case lineTooLong
    /// A swipe of more than ``SwipeFile/maximumPointCount`` points.
    case tooManyPoints
  }

  /// The file's path as given (or the name the caller chose for text without a file).
  public var file: String
  /// The 1-based line number, or 0 for a problem with the whole file.
  public var line: Int
  /// The 1-based byte column in the line where the problem is, when known.
  public var column: Int?
  /// The kind of problem.
  public var reason: Reason
  /// What is wrong, in one line.
  public var message: String
  /// What to do about it, in one line.
  public var hint: String

  /// Describes a problem.
  /// - Parameters:
  ///   - file: the file's path.
  ///   - line: the 1-based line number, 0 for the whole file.
  ///   - column: the 1-based byte column, when known.
  ///   - reason: the kind of problem.
  ///   - message: what is wrong.
  ///   - hint: what to do about it.
  public init(
    file: String, line: Int, column: Int? = nil, reason: Reason, message: String, hint: String
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.reason = reason
    self.message = message
    self.hint = hint
  }

  /// `file:line:column: error: message`, then the hint on an indented second line.
  public var description: String {
    var location = file
    if line > 0 { location += ":\(line)" }
    if line > 0, let column { location += ":\(column)" }
    return "\(location): error: \(message)\n  hint: \(hint)"
  }
}
