import ArgumentParser
import SwipeDict

/// `--corrector` and `--cost`, shared by the commands that correct typed words.
package struct CorrectionArguments: ParsableArguments {
  package init() {}

  package enum Model: String, ExpressibleByArgument, CaseIterable {
    case typing, kaennsch
  }

  @Option(
    help: ArgumentHelp(
      "The correction model: typing (a weighted edit distance fitted to typing errors) or kaennsch (the thesis's adjusted Levenshtein distance).",
      valueName: "model"))
  package var corrector: Model = .typing

  @Option(
    name: .customLong("cost"),
    help: ArgumentHelp(
      "Set one of the typing model's costs or limits, NAME=VALUE (0…\(TypingCosts.maxValue); costs in 1/32 decade, maxEdits/maxEarlyEdits/earlyLetters are counts, clamped to 6/6/8); repeatable. Names: \(TypingCosts.names.joined(separator: ", ")).",
      valueName: "name=value"))
  package var costs: [String] = []

  package func validate() throws {
    _ = try model()
  }

  /// The model the arguments ask for.
  package func model() throws -> CorrectionModel {
    switch corrector {
    case .kaennsch:
      guard costs.isEmpty else { throw ValidationError("--cost sets the typing model's costs, not kaennsch's") }
      return .kaennsch()
    case .typing:
      var typing = TypingCosts()
      for setting in costs {
        let parts = setting.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, typing[parts[0]] != nil else {
          throw ValidationError(
            "--cost \(setting): expected NAME=VALUE with NAME one of \(TypingCosts.names.joined(separator: ", "))")
        }
        guard let value = Int(parts[1]), (0...TypingCosts.maxValue).contains(value) else {
          throw ValidationError("--cost \(setting): the value must be a whole number from 0 to \(TypingCosts.maxValue)")
        }
        typing[parts[0]] = value
      }
      return .typing(typing)
    }
  }
}
