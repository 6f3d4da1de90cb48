import ArgumentParser
import Foundation
import SwipeDict
import SwipeDictCommandLine
import SwipeDictCompiler
import SwipeDictFiles
import SwipeDictTools

struct BuildCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "build",
    abstract: "Compile word lists into a dictionary blob for one keyboard layout.",
    discussion: """
      Inputs are word-frequency lists: `word<TAB>count` or `word count` lines, the AOSP \
      combined format (f= on its 0–255 log scale, read as the count 10^(f/32)), or bare \
      word lists (frequency from rank); plain, zstd- or gzip-compressed (recognized by \
      content, whatever the name). Several inputs merge: counts of the same word add up. \
      Words that cannot be typed on the layout are dropped and counted. The blob is written to a temporary file and \
      renamed, so a failed build leaves the previous OUT intact. OUT must not be one of \
      the inputs or the layout (the same file under any name is refused before anything \
      is read).

      --bigrams FILE (repeatable) adds how often one word follows another, from lines \
      `w1 w2<TAB>count` (plain or compressed; counts of the same pair add up): pairs whose \
      words are both in the blob (exactly, or ignoring case where the blob spells the word one \
      way) are kept in a BIGR section, for next-word predictions (`query --after`).

      Examples:
        swipedict build corpora/en.tsv.zst --layout corpora/layouts/qwerty-en.json -o build/en.swipedict
        swipedict build a.tsv b.txt.zst --layout my.json -o my.swipedict --max-words 100000 --budget 48MB
        swipedict build corpora/en.tsv.zst --bigrams build/corpora/en-bigrams.tsv.zst --layout corpora/layouts/qwerty-en.json -o build/en.swipedict
        swipedict build corpora/en.tsv.zst --layout corpora/layouts/qwerty-en.json -o /tmp/en.swipedict --quiet --timings
      """)

  @Argument(help: "Word lists (.tsv, .txt, AOSP combined; optionally .zst).")
  var inputs: [String]

  @Option(
    name: .long,
    help: "The keyboard layout JSON file, or the name of one of corpora/layouts/ (qwerty-en) from the repository's top."
  )
  var layout: String

  @Option(name: .long, help: ArgumentHelp("A bigram list, w1 w2<TAB>count lines (repeatable).", valueName: "file"))
  var bigrams: [String] = []

  @Option(name: .shortAndLong, help: "The blob to write.")
  var output: String

  @Option(name: .long, parsing: .unconditional, help: "Keep only the N most frequent words (N ≥ 1).")
  var maxWords: Int?

  @Option(name: .long, parsing: .unconditional, help: "Drop words whose merged count is below N (N ≥ 0).")
  var minCount: Double = 0

  @Flag(name: .long, help: "Skip invalid input lines with a warning instead of failing.")
  var skipInvalid = false

  @Option(
    name: .long, parsing: .unconditional,
    help: "Fail if the blob would exceed this size (e.g. 48MB, 512KB; 1MB = 2^20 bytes).")
  var budget: String?

  @Flag(name: .long, help: "Print only errors.")
  var quiet = false

  @Flag(
    name: .long,
    help: "Print when each stage of the build began, in ms since the start, on standard error (even with --quiet).")
  var timings = false

  func validate() throws {
    if let maxWords, maxWords < 1 {
      throw ValidationError("--max-words \(maxWords): must be at least 1")
    }
    if !minCount.isFinite || minCount < 0 {
      throw ValidationError("--min-count \(minCount): must be a finite number, 0 or more")
    }
    if let budget { try validateSize(budget, option: "--budget") }
  }

  /// Where the repository keeps its layouts, from its top.
  static let layoutFolder = "corpora/layouts"

  /// The layout file: the path given; for a bare name that names no file (no `/`, no
  /// `.json`), the repository's `corpora/layouts/NAME.json` under the current directory.
  private var layoutFile: String {
    guard !FileManager.default.fileExists(atPath: layout), !layout.contains("/"), !layout.hasSuffix(".json") else {
      return layout
    }
    return "\(Self.layoutFolder)/\(layout).json"
  }

  /// ``layoutFile``, or an error that lists the layouts there are when it names none.
  private func resolvedLayout() throws -> String {
    let file = layoutFile
    if FileManager.default.fileExists(atPath: file) { return file }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: Self.layoutFolder)) ?? [])
      .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    let hint =
      names.isEmpty
      ? "give the path of a layout JSON file (the repository's are in \(Self.layoutFolder)/)"
      : "give the path of a layout JSON file, or one of the names in \(Self.layoutFolder)/: "
        + names.joined(separator: ", ")
    throw failure("\(layout): no such layout file\n  hint: \(hint)")
  }

  func run() throws {
    ProcessMemory.returnLargeBlocksWhenFreed()
    let layoutModel: KeyboardLayout
    let layoutPath = try resolvedLayout()
    do {
      // Before anything is read: the output must not replace an input or the layout.
      try AtomicFile.refuseOverwriting(inputs + bigrams + [layoutPath], with: output)
      layoutModel = try LayoutFile.load(layoutPath)
    } catch {
      throw failure(error)
    }
    let options = CompileOptions(
      maxWords: maxWords, minCount: minCount, skipInvalid: skipInvalid,
      budget: budget.flatMap(parseSize))
    let showProgress = !quiet && standardErrorIsTerminal
    let clock = ContinuousClock()
    let started = clock.now
    let result: CompiledDictionary
    var stages: [(at: Duration, progress: CompileProgress)] = []
    do {
      result = try DictionaryCompiler.compile(
        inputs: inputs, bigrams: bigrams, layout: layoutModel, options: options
      ) { progress in
        if timings { stages.append((clock.now - started, progress)) }
        guard showProgress else { return }
        printError("\u{1B}[2K\r\(progress.stage.rawValue): \(progress.detail)", terminator: "")
      }
      if showProgress { printError("\u{1B}[2K\r", terminator: "") }
      try AtomicFile.write(result.bytes, to: output, protecting: inputs + bigrams + [layoutFile])
    } catch {
      if showProgress { printError("") }
      throw failure(error)
    }
    if timings {
      for (at, progress) in stages {
        printError(
          "timings: \(fixedDecimal(milliseconds(at), places: 1)) ms \(progress.stage.rawValue): \(progress.detail)")
      }
      printError("timings: \(fixedDecimal(milliseconds(clock.now - started), places: 1)) ms written: \(output)")
    }
    let report = result.report
    for input in report.inputs + report.bigramInputs where !input.warnings.isEmpty || input.skipped > 0 {
      for warning in input.warnings { printError("warning: \(describe(warning))") }
      if input.skipped > input.warnings.count {
        printError("warning: \(input.file): \(input.skipped - input.warnings.count) more lines skipped")
      }
    }
    guard !quiet else { return }
    let elapsed = clock.now - started
    let words = report.words
    print(
      "\(output): \(grouped(words)) words, \(grouped(report.bytes)) bytes "
        + "(\(fixedDecimal(Double(report.bytes) / Double(words), places: 2)) bytes/word), "
        + "built in \(fixedDecimal(milliseconds(elapsed) / 1000, places: 2)) s")
    print(
      "  read \(grouped(report.entriesRead)) entries from \(report.inputs.count) file(s), "
        + "\(grouped(report.distinctWords)) distinct; dropped \(grouped(report.untypeable)) untypeable, "
        + "\(grouped(report.emptyKeyPath)) with an empty key path, "
        + "\(grouped(report.belowMinCount)) below --min-count, \(grouped(report.beyondMaxWords)) beyond --max-words")
    let phrases = report.inputs.reduce(0) { $0 + $1.multiWord }
    if phrases > 0 {
      let examples = report.inputs.flatMap(\.multiWordExamples).prefix(5).map { "\"\($0)\"" }
      let entries = phrases == 1 ? "entry" : "entries"
      print(
        "  kept apart \(grouped(phrases)) multi-word \(entries) (phrases, not swiped words), e.g.: "
          + examples.joined(separator: " "))
    }
    if !report.bigramInputs.isEmpty {
      print(
        "  bigrams: kept \(grouped(report.bigrams)) pairs of words of the blob from \(report.bigramInputs.count) file(s); "
          + "left out \(grouped(report.bigramsDropped)) with a word not in the blob")
    }
    if report.neverSuggested + report.abbreviations + report.misspellings + report.shortcuts > 0 {
      print(
        "  marked \(grouped(report.neverSuggested)) possibly offensive (accepted, never suggested), "
          + "\(grouped(report.abbreviations)) abbreviations; \(grouped(report.misspellings)) misspellings "
          + "(not_a_word, kept only as shortcut sources); \(grouped(report.shortcuts)) shortcuts, "
          + "\(grouped(report.whitelisted)) whitelisted")
    }
    if !report.untypeableExamples.isEmpty {
      print(
        "  untypeable on \(layoutModel.name), e.g.: "
          + report.untypeableExamples.prefix(5).map { "\"\($0)\"" }.joined(separator: " "))
    }
    if !report.emptyKeyPathExamples.isEmpty {
      print(
        "  empty key path (no character has a key), e.g.: "
          + report.emptyKeyPathExamples.prefix(5).map { "\"\($0)\"" }.joined(separator: " "))
    }
    print(
      "  automaton: \(grouped(report.states)) states, \(grouped(report.transitions)) transitions, "
        + "\(report.alphabetSize) characters")
    for section in report.sections {
      print(
        "  \(section.tag)  \(grouped(section.bytes).leftPadded(12)) bytes  "
          + "\(fixedDecimal(Double(section.bytes) / Double(words), places: 2)) bytes/word")
    }
  }
}
