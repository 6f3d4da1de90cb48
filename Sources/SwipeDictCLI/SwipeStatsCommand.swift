import ArgumentParser
import Foundation
import SwipeDecoder
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
import SwipeDictTools

struct SwipeStatsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "swipestats",
    abstract: "Measure how swipes are drawn, side by side per file, and fit a human swipe model.",
    discussion: """
      Each swipe is measured against its word's key path on the blob's layout (case and \
      apostrophes do not matter: "im" measures like "I'm"), in key widths: where it starts \
      and ends, how close it passes the middle keys, its length over the word's expected \
      length, hooks at touch-down, overshoot past the last key, loops at doubled letters, \
      speed, duration, sampling. The table has one column per --swipes file (Markdown); \
      docs/synthesis.md defines every row. Swipes without a word, with an untypeable word \
      or with a one-key word are counted and left out.

      --fit-model fits a human swipe model to the first file (directly from its statistics, \
      then calibrated by drawing swipes of the same words) and writes it as JSON, for \
      `swipedict synth --model`.

      Examples:
        swipedict swipestats build/en.swipedict --swipes ../shared/swipes/hws-dev.jsonl
        swipedict synth build/en.swipedict --words-from real.jsonl -o default.jsonl
        swipedict swipestats build/en.swipedict --swipes real.jsonl --swipes default.jsonl
        swipedict swipestats build/en.swipedict --swipes real.jsonl --fit-model model.json
      """)

  @OptionGroup var blob: BlobArgument

  @Option(
    name: .long,
    help: ArgumentHelp(
      "A swipe JSON Lines file with words (repeat for more columns; the first is fitted).",
      valueName: "file"))
  var swipes: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Fit a human swipe model to the first --swipes file and write it here (JSON).",
      valueName: "file"))
  var fitModel: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Where the swipes come from, recorded in the model (default: the file and its count).",
      valueName: "text"))
  var source: String?

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp("Calibration rounds of the fit (0…50; default 8).", valueName: "N"))
  var rounds: Int = 8

  func validate() throws {
    if swipes.isEmpty { throw ValidationError("give at least one --swipes FILE") }
    try checkRange("--rounds", rounds, in: 0...50)
    if source != nil && fitModel == nil { throw ValidationError("--source applies to --fit-model only") }
  }

  func run() throws {
    if let fitModel {
      do {
        try AtomicFile.refuseOverwriting([blob.blob] + swipes, with: fitModel)
      } catch {
        throw failure(error)
      }
    }
    let dictionary = try blob.open()
    let layout = dictionary.layout
    var columns: [(name: String, swipeCount: Int, statistics: SwipeStatistics)] = []
    for path in swipes {
      let input: [Swipe]
      do {
        input = try SwipeFile.read(path: path)
      } catch {
        throw failure(error)
      }
      let statistics = SwipeStatistics(layout: layout, swipes: input)
      if statistics.measurements.isEmpty {
        throw failure(
          "\(path): none of its \(input.count) swipes has a word with two keys or more on "
            + "layout \(layout.name)\n  hint: give swipes with their true words, "
            + #"{"word": "duck", "points": [[x, y, t_ms], …]}"#)
      }
      columns.append((path, input.count, statistics))
    }
    print(table(columns))

    if let fitModel, let first = columns.first {
      let measured = first.statistics.measurements.count
      let origin =
        source ?? "\(first.name): \(first.swipeCount) swipes, \(measured) measured on \(layout.name)"
      let arguments = CommandLine.arguments.dropFirst().map { argument in
        argument.contains(" ") ? "'\(argument)'" : argument
      }
      let model = HumanSwipeModel.fit(
        to: first.statistics, layout: layout, source: origin,
        command: (["swipedict"] + arguments).joined(separator: " "), rounds: rounds)
      do {
        try AtomicFile.write(
          Array(model.jsonText.utf8), to: fitModel, protecting: [blob.blob] + swipes)
      } catch {
        throw failure(error)
      }
      printError("wrote \(fitModel): a human swipe model fitted to \(measured) swipes of \(first.name)")
    }
  }

  /// The statistics as a Markdown table, one column per file.
  private func table(
    _ columns: [(name: String, swipeCount: Int, statistics: SwipeStatistics)]
  ) -> String {
    let rows = columns.map(\.statistics.summary.rows)
    var lines = ["| statistic | " + columns.map { "`\($0.name)`" }.joined(separator: " | ") + " |"]
    lines.append("|---|" + String(repeating: "---:|", count: columns.count))
    lines.append("| swipes in the file | " + columns.map { grouped($0.swipeCount) }.joined(separator: " | ") + " |")
    for (i, row) in (rows.first ?? []).enumerated() {
      lines.append("| \(row.label) | " + rows.map { $0[i].value }.joined(separator: " | ") + " |")
    }
    let skipped = columns.map { column in
      column.statistics.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        .joined(separator: ", ")
    }
    if skipped.contains(where: { !$0.isEmpty }) {
      lines.append("| not measured | " + skipped.map { $0.isEmpty ? "0" : $0 }.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n")
  }
}
