import ArgumentParser
import SwipeDict
import SwipeDictFiles
import SwipeDictTools

/// `swipedict dump BLOB`: every word with the count its frequency byte stands for, as a
/// `word<TAB>count` list that `swipedict build` reads back into the same words and bytes.
struct DumpCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dump",
    abstract: "Write a blob's words back out as a word list (word<TAB>count).",
    discussion: """
      Every word in ID order with the count its frequency byte stands for on the blob's \
      scale (six decimals), after a comment naming the blob. Built again on the same \
      layout, the list gives the same words, IDs and frequency bytes: a blob can be turned \
      back into a list to edit, merge or compare (`diff` two dumps). Words the blob stores \
      with frequency 0 are written with the count 0.

      Examples:
        swipedict dump build/en.swipedict > en.tsv
        swipedict dump build/en.swipedict -o en.tsv
        swipedict build en.tsv --layout corpora/layouts/qwerty-en.json -o again.swipedict
      """)

  @OptionGroup var blob: BlobArgument

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp("Write the list to this file ('-' or none: standard output).", valueName: "file"))
  var output: String?

  func run() throws {
    let toFile = output.map { $0 != "-" } ?? false
    if let output, toFile {
      do { try AtomicFile.refuseOverwriting([blob.blob], with: output) } catch { throw failure(error) }
    }
    let dictionary = try blob.open()
    let name = blob.blob.split(separator: "/").last.map(String.init) ?? blob.blob
    // Standard output gets the text in pieces; a file gets it whole, written atomically.
    var text = "# swipedict dump of \(name): \(dictionary.wordCount) words, word<TAB>count in ID order\n"
    var whole = ""
    func flush() {
      if toFile { whole += text } else { print(text, terminator: "") }
      text = ""
    }
    for id in 0..<dictionary.wordCount {
      guard let word = dictionary.word(for: id) else { continue }
      let frequency = dictionary.frequency(of: id) ?? 0
      let count =
        frequency == 0 ? "0" : fixedDecimal(dictionary.approximateCount(forFrequency: frequency), places: 6)
      text += word + "\t" + count + "\n"
      if text.utf8.count > 1 << 16 { flush() }
    }
    flush()
    if let output, toFile {
      do { try AtomicFile.write(Array(whole.utf8), to: output, protecting: [blob.blob]) } catch {
        throw failure(error)
      }
    }
  }
}
