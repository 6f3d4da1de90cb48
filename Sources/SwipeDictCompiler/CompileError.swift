// The compiler's API throws the file layer's errors (InputFileError, ZstdError, FileWriteError):
// its users see those types without naming the internal target.
@_exported import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Why a build failed, with what to do about it.
public enum CompileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The automaton builder got words out of label order (an internal error).
  case outOfOrder(previous: [UInt8], got: [UInt8])
  /// The typeable words use more distinct characters than a blob's alphabet holds.
  case tooManyCharacters(count: Int)
  /// No word survived reading and filtering. `skipped` counts the invalid lines
  /// `--skip-invalid` dropped, `firstSkipped` says what was wrong with the first few;
  /// `misspellings` the AOSP `not_a_word` entries, which are no words.
  case noWords(
    read: Int, untypeable: Int, belowMinCount: Int, skipped: Int = 0, firstSkipped: [String] = [],
    misspellings: Int = 0)
  /// The blob would exceed the size budget given with `--budget`.
  case overBudget(bytes: Int, budget: Int)
  /// A layout file is invalid.
  case layout(file: String, path: String, message: String)
  /// A file could not be read or written.
  case io(path: String, message: String)
  /// The automaton's node area would exceed the format's 8 MiB.
  case tooLarge(nodeBytes: Int)
  /// The layout has more keys than feature records can name.
  case tooManyKeys(count: Int)
  /// Two inputs were given with the same content and name.
  case duplicateInput(path: String)

  public var description: String {
    switch self {
    case .outOfOrder(let previous, let got):
      return "internal error: words out of order (\(previous) then \(got)); please report it"
    case .tooManyCharacters(let count):
      return "the words use \(count) distinct characters; a blob holds at most "
        + "\(Alphabet.maxCount)\n  hint: check the layout's aliases, or split the list"
    case .noWords(let read, let untypeable, let belowMinCount, let skipped, let firstSkipped, let misspellings):
      var text =
        "no words left to build: \(read) read, \(untypeable) not typeable on the layout, "
        + "\(belowMinCount) below --min-count"
      if misspellings > 0 {
        text += ", \(misspellings) \(misspellings == 1 ? "misspelling" : "misspellings") (not_a_word=true: no words)"
      }
      if skipped > 0 {
        text += ", \(skipped) invalid \(skipped == 1 ? "line" : "lines") skipped (--skip-invalid), for example:"
        text += firstSkipped.map { "\n  \($0)" }.joined()
        if skipped > firstSkipped.count { text += "\n  … and \(skipped - firstSkipped.count) more" }
      }
      return text + "\n  hint: check the layout matches the language, and --min-count"
        + (skipped > 0 ? ", and the lines --skip-invalid dropped" : "")
    case .overBudget(let bytes, let budget):
      return "the blob would be \(bytes) bytes, over the budget of \(budget) bytes\n"
        + "  hint: lower --max-words or raise --budget"
    case .layout(let file, let path, let message):
      return "\(file): \(path.isEmpty ? "" : "\(path): ")\(message)"
    case .io(let path, let message):
      return "\(path): \(message)"
    case .tooLarge(let nodeBytes):
      return "the automaton needs \(nodeBytes) bytes, over the format's 8 MiB limit\n"
        + "  hint: split the list or lower --max-words"
    case .tooManyKeys(let count):
      return "the layout has \(count) keys; a blob's feature records name at most "
        + "\(FeatureLayout.maxKeys)\n  hint: leave non-letter keys out of the layout and map "
        + "rare characters to keys with aliases"
    case .duplicateInput(let path):
      return "\(path): given twice\n  hint: name each input once"
    }
  }
}
