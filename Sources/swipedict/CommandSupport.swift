import ArgumentParser
import Foundation
import SwipeDict

/// The blob argument shared by the commands that read one.
struct BlobArgument: ParsableArguments {
  @Argument(help: "The dictionary blob (.swipedict).")
  var blob: String

  /// Opens the blob or prints why not and fails with exit code 1.
  func open(verify: Bool = false) throws -> SwipeDictionary {
    do {
      return try SwipeDictionary(contentsOf: blob, verify: verify)
    } catch {
      throw failure("\(error)")
    }
  }
}

/// Prints `error: message` to standard error and returns exit code 1 to throw.
func failure(_ message: String) -> ExitCode {
  printError("error: \(message)")
  return .failure
}

/// Prints a line to standard error.
func printError(_ message: String) {
  var stream = StandardError()
  print(message, to: &stream)
}

/// Whether standard error is a terminal (progress lines are drawn only there).
var standardErrorIsTerminal: Bool { isatty(2) == 1 }

struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    FileHandle.standardError.write(Data(string.utf8))
  }
}

/// `1234567` → `1,234,567`.
func grouped<I: BinaryInteger>(_ value: I) -> String {
  let digits = String(value)
  var out = ""
  for (i, c) in digits.enumerated() {
    if i > 0, (digits.count - i) % 3 == 0, c != "-" { out.append(",") }
    out.append(c)
  }
  return out
}

/// A number with two decimals.
func fixed2(_ value: Double) -> String {
  let scaled = Int((abs(value) * 100).rounded())
  let sign = value < 0 && scaled > 0 ? "-" : ""
  let frac = scaled % 100
  return "\(sign)\(scaled / 100).\(frac < 10 ? "0" : "")\(frac)"
}
