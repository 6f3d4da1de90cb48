import ArgumentParser
import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictFiles
import SwipeDictTools

/// The blob argument shared by the commands that read one.
package struct BlobArgument: ParsableArguments {
  package init() {}

  @Argument(help: "The dictionary blob (.swipedict).")
  package var blob: String

  /// Opens the blob or prints why not (naming the file) and fails with exit code 1.
  package func open(verify: Bool = false) throws -> SwipeDictionary {
    do {
      return try SwipeDictionary(contentsOf: blob, verify: verify)
    } catch {
      throw failure(error, file: blob)
    }
  }
}

/// Prints `error: message` to standard error and returns exit code 1 to throw.
package func failure(_ message: String) -> ExitCode {
  printError("error: \(message)")
  return .failure
}

/// Prints `error: FILE: what is wrong` for an error the libraries threw and returns exit
/// code 1 to throw.
/// - Parameters:
///   - error: the error.
///   - file: the file the error is about, for errors that do not name one themselves (a
///     damaged blob's `SwipeDictError.invalid`).
package func failure(_ error: any Error, file: String? = nil) -> ExitCode {
  failure(describe(error, file: file))
}

/// An error as `FILE: what is wrong` (and a hint on the next line where the library gives
/// one), with no `error:` of its own: the caller prefixes `error: ` or `warning: ` once.
package func describe(_ error: any Error, file: String? = nil) -> String {
  switch error {
  // These describe themselves compiler-style (`f.tsv:2:5: error: …`) for library users.
  case let error as WordListError:
    return "\(error.location): \(error.message)\n  hint: \(error.hint)"
  case let error as SwipeFileError:
    var location = error.file
    if error.line > 0 { location += ":\(error.line)" }
    if error.line > 0, let column = error.column { location += ":\(column)" }
    return "\(location): \(error.message)\n  hint: \(error.hint)"
  case let error as HumanSwipeModelError:
    return "\(error.file)\(error.line > 0 ? ":\(error.line)" : ""): \(error.message)\n  hint: \(error.hint)"
  case let error as InputFileError:
    return "\(error.path): cannot \(error.operation.rawValue) the file: \(error.reason)"
  case SwipeDictError.invalid(let damage):
    return "\(file.map { "\($0): " } ?? "")invalid blob: \(damage)"
  case let error as ZstdError:
    return "\(file.map { "\($0): " } ?? "")\(error)"
  default:
    return "\(error)"
  }
}

// Numeric options are declared `parsing: .unconditional`, so that a value starting with
// `-` (`--top -1`) reaches `validate()` and is refused for what it is ("must be at least
// 1") instead of argument-parser's `Missing value for '--top <top>'`.

/// Prints a line to standard error.
package func printError(_ message: String) {
  var stream = StandardError()
  print(message, to: &stream)
}

/// Whether standard error is a terminal (progress lines are drawn only there).
package var standardErrorIsTerminal: Bool { isatty(2) == 1 }

package struct StandardError: TextOutputStream {
  package mutating func write(_ string: String) {
    FileHandle.standardError.write(Data(string.utf8))
  }
}

/// A duration in milliseconds.
package func milliseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

/// `1234567` → `1,234,567`.
package func grouped<I: BinaryInteger>(_ value: I) -> String {
  let digits = String(value)
  var out = ""
  for (i, c) in digits.enumerated() {
    if i > 0, (digits.count - i) % 3 == 0, c != "-" { out.append(",") }
    out.append(c)
  }
  return out
}

// MARK: - Several languages (--with)

/// `PATH:WEIGHT` → (PATH, WEIGHT); a path without a weight (or whose last colon is not
/// followed by a number) has weight 1.
package func parseLanguageBlob(_ text: String) -> (path: String, weight: Double) {
  if let colon = text.lastIndex(of: ":"), let weight = Double(text[text.index(after: colon)...]) {
    return (String(text[..<colon]), weight)
  }
  return (text, 1)
}

/// The language a blob stands for: its file name up to the first dot (`de.swipedict` → `de`).
package func languageName(ofBlob path: String) -> String {
  let file = path.split(separator: "/").last.map(String.init) ?? path
  return file.split(separator: ".").first.map(String.init) ?? file
}

/// `--with PATH[:WEIGHT]`: more languages on the blob's layout, as a bilingual keyboard has
/// (``MultilingualDictionary``); each is named after its file (``languageName(ofBlob:)``).
package struct LanguagesOption: ParsableArguments {
  package init() {}

  @Option(
    name: .customLong("with"),
    help: ArgumentHelp(
      "Another language on the same layout, whose words are suggested too: PATH or PATH:WEIGHT (repeatable).",
      valueName: "blob"))
  package var values: [String] = []

  /// Whether no `--with` was given: one language.
  package var isEmpty: Bool { values.isEmpty }

  /// Checks the weights (more than 0, at most 10⁶).
  package func validate() throws {
    for value in values {
      let weight = parseLanguageBlob(value).weight
      guard weight.isFinite, weight > 0, weight <= 1e6 else {
        throw ValidationError("--with \(value): the weight must be more than 0 and at most 1000000")
      }
    }
  }

  /// The first blob (weight 1) and the `--with` ones as languages on one layout, or an error
  /// that names the file or the mismatch.
  package func open(with first: SwipeDictionary, path: String) throws -> MultilingualDictionary {
    var members = [MultilingualDictionary.Member(language: languageName(ofBlob: path), dictionary: first)]
    for value in values {
      let (otherPath, weight) = parseLanguageBlob(value)
      let dictionary: SwipeDictionary
      do { dictionary = try SwipeDictionary(contentsOf: otherPath) } catch { throw failure(error, file: otherPath) }
      members.append(.init(language: languageName(ofBlob: otherPath), dictionary: dictionary, weight: weight))
    }
    do { return try MultilingualDictionary(members) } catch { throw failure("\(error)") }
  }
}

/// `--user FILE`: a user dictionary's words, merged into the queries of a blob
/// (``SwipeDictionary/userWords``).
package struct UserWordsOption: ParsableArguments {
  package init() {}

  @Option(
    name: .customLong("user"),
    help: ArgumentHelp(
      "Merge this user dictionary (swipedict user FILE …): its blocked words are never suggested, its uses "
        + "raise words, its added and learned words complete, correct and swipe.",
      valueName: "file"))
  package var path: String?

  /// Sets the dictionary's user words from the file (see ``words()``).
  package func apply(to dictionary: inout SwipeDictionary) throws {
    if let words = try words() { dictionary.userWords = words }
  }

  /// Sets every language's user words from the file (see ``words()``).
  package func apply(to languages: inout MultilingualDictionary) throws {
    if let words = try words() { languages.userWords = words }
  }

  /// The file's words, `nil` without `--user`; an error names the file. A missing file is an
  /// error here (`swipedict user` creates one), not an empty dictionary.
  package func words() throws -> UserWords? {
    guard let path else { return nil }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
      throw failure(
        "\(path): no such user dictionary\n  hint: create it with `swipedict user \(path) add WORD` or "
          + "`swipedict user \(path) import LIST`")
    }
    do {
      let store = try UserDictionary(path: path)
      if let damage = store.damage {
        printError(
          "warning: \(path): \(damage.byteCount) bytes at offset \(damage.offset) are \(damage.message); ignored")
      }
      return store.words
    } catch {
      throw failure(error)
    }
  }
}

// MARK: - Output (--output)

/// `-o`/`--output FILE` for a command that writes text: standard output without it or with
/// "-", else the file, written whole and atomically (a temporary file renamed into place),
/// never over one of the command's inputs.
package struct OutputOption: ParsableArguments {
  package init() {}

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp("Write to this file ('-' or none: standard output).", valueName: "file"))
  package var output: String?

  /// The file to write, `nil` for standard output.
  package var file: String? { output == "-" ? nil : output }

  /// Fails, before any work, when the file is one of `inputs` (or one of their links).
  package func refuseOverwriting(_ inputs: [String]) throws {
    guard let file else { return }
    do { try AtomicFile.refuseOverwriting(inputs, with: file) } catch { throw failure(error) }
  }

  /// Writes `text` to the file (atomically, never over one of `inputs`) or to standard output.
  package func write(_ text: String, protecting inputs: [String]) throws {
    guard let file else {
      print(text, terminator: "")
      return
    }
    do { try AtomicFile.write(Array(text.utf8), to: file, protecting: inputs) } catch { throw failure(error) }
  }
}
