import ArgumentParser
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
import SwipeDictTools

/// `swipedict dump BLOB`: every word with the count its frequency byte stands for, as a
/// `word<TAB>count[<TAB>marks]` list that `swipedict build` reads back into the same words,
/// bytes and marks.
struct DumpCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dump",
    abstract: "Write a blob's words back out as a word list (word<TAB>count, or AOSP combined).",
    discussion: """
      Every word in ID order with the count its frequency byte stands for on the blob's \
      scale (six decimals), after a comment naming the blob. Built again on the same \
      layout, the list gives the same words, IDs and frequency bytes: a blob can be turned \
      back into a list to edit, merge or compare (`diff` two dumps). Words the blob stores \
      with frequency 0 are written with the count 0.

      --format combined writes the AOSP combined format instead, for Android's tools: a \
      dictionary= header, then ` word=WORD,f=F` with F the frequency byte (0…255). Built \
      again it gives the same words and IDs (but for words with a comma, which the format \
      cannot hold: left out, with a warning); the frequency bytes come back equal at the top \
      of the scale and a little higher at the bottom (f is read as the count 10^(f/32)). \
      What the blob keeps from an AOSP list comes back too: possibly_offensive=true, \
      flags=abbreviation, each word's shortcut= lines, and the misspellings (not_a_word=true \
      entries) with their shortcuts, after the words. A TSV list keeps the marks in a third \
      column (word<TAB>count<TAB>possibly_offensive) but cannot hold shortcuts: dump says \
      how many spellings' shortcuts it leaves out.

      Examples:
        swipedict dump build/en.swipedict > en.tsv
        swipedict dump build/en.swipedict -o en.tsv
        swipedict build en.tsv --layout corpora/layouts/qwerty-en.json -o again.swipedict
        swipedict dump build/en.swipedict --format combined -o main_en.combined
      """)

  /// The third column of a marked word's line (`\tpossibly_offensive`), empty for others.
  func markColumn(_ marks: WordMarks) -> String {
    let names = [
      marks.contains(.possiblyOffensive) ? "possibly_offensive" : nil,
      marks.contains(.abbreviation) ? "abbreviation" : nil,
    ].compactMap { $0 }
    return names.isEmpty ? "" : "\t" + names.joined(separator: ",")
  }

  /// The list formats `dump` writes.
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case tsv, combined
  }

  @OptionGroup var blob: BlobArgument

  @OptionGroup var output: OutputOption

  @Option(name: .long, help: "tsv (word<TAB>count, the default) or combined (AOSP).")
  var format: Format = .tsv

  func run() throws {
    let toFile = output.file != nil
    try output.refuseOverwriting([blob.blob])
    let dictionary = try blob.open()
    let name = blob.blob.split(separator: "/").last.map(String.init) ?? blob.blob
    // Standard output gets the text in pieces; a file gets it whole, written atomically.
    var text =
      format == .tsv
      ? "# swipedict dump of \(name): \(dictionary.wordCount) words, word<TAB>count in ID order\n"
      : "dictionary=main:\(dictionary.layout.name),locale=und,description=swipedict dump of \(name),"
        + "date=0,version=1\n"
    var whole = ""
    var leftOut: [String] = []
    // Shortcuts by source; those of words are written under them, the rest (misspellings)
    // after the words.
    var shortcuts: [String: [Shortcut]] = [:]
    var sources: [String] = []
    for (source, shortcut) in dictionary.allShortcuts {
      if shortcuts[source] == nil { sources.append(source) }
      shortcuts[source, default: []].append(shortcut)
    }
    func shortcutLines(_ source: String) -> String {
      (shortcuts.removeValue(forKey: source) ?? []).map { shortcut in
        guard !shortcut.target.contains(",") else {
          leftOut.append(shortcut.target)
          return ""
        }
        return "  shortcut=\(shortcut.target),f=\(shortcut.isWhitelisted ? "whitelist" : "\(shortcut.frequency)")\n"
      }.joined()
    }
    func flush() {
      if toFile { whole += text } else { print(text, terminator: "") }
      text = ""
    }
    for id in 0..<dictionary.wordCount {
      guard let word = dictionary.word(for: id) else { continue }
      let frequency = dictionary.frequency(of: id) ?? 0
      switch format {
      case .tsv:
        let count =
          frequency == 0 ? "0" : fixedDecimal(dictionary.approximateCount(forFrequency: frequency), places: 6)
        text += word + "\t" + count + markColumn(dictionary.marks(of: id)) + "\n"
      case .combined:
        // AOSP splits entries at commas: such a word cannot be written.
        if word.contains(",") {
          leftOut.append(word)
          continue
        }
        let marks = dictionary.marks(of: id)
        text +=
          " word=" + word + ",f=\(frequency)"
          + (marks.contains(.abbreviation) ? ",flags=abbreviation" : "")
          + (marks.contains(.possiblyOffensive) ? ",possibly_offensive=true" : "") + "\n"
        text += shortcutLines(word)
      }
      if text.utf8.count > 1 << 16 { flush() }
    }
    let misspellings = sources.filter { shortcuts[$0] != nil }
    if format == .combined {
      for source in misspellings where !source.contains(",") {
        text += " word=\(source),f=0,not_a_word=true\n" + shortcutLines(source)
        if text.utf8.count > 1 << 16 { flush() }
      }
    } else if sources.count > 0 {
      printError(
        "note: a word<TAB>count list cannot hold the shortcuts of \(sources.count) spellings;"
          + " --format combined keeps them")
    }
    flush()
    if !leftOut.isEmpty {
      printError(
        "warning: \(leftOut.count) words or shortcuts contain a comma, which the AOSP format cannot hold; left out: "
          + leftOut.prefix(5).map { "\"\($0)\"" }.joined(separator: " "))
    }
    if toFile { try output.write(whole, protecting: [blob.blob]) }
  }
}
