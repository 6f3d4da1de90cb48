import ArgumentParser
import SwipeDict

struct QueryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "query",
    abstract: "Look words up, or list the words with a prefix.",
    discussion: """
      Lookups are exact (case and accents as given, after NFC); --folded ignores case and \
      accents. Word IDs are ranks in the folding collation (a < A < ä < b …).

      Examples:
        swipedict query build/en.swipedict hello Hello xyzzy
        printf 'the\\nqwzx\\n' | swipedict query build/en.swipedict - --json
        swipedict query build/de.swipedict --folded uber
        swipedict query build/en.swipedict --prefix hel --limit 5
        swipedict query build/en.swipedict --prefix '' --limit 0 > all-words.txt
      """)

  @OptionGroup var blob: BlobArgument

  @Argument(help: "Words to look up; '-' reads words from standard input, one per line.")
  var words: [String] = []

  @Option(name: .long, help: "List the words starting with this prefix, in ID order.")
  var prefix: String?

  @Option(name: .long, help: "The most words --prefix lists (0: all).")
  var limit: Int = 20

  @Flag(name: .long, help: "Ignore case and accents in lookups.")
  var folded = false

  @Flag(name: .long, help: "Print JSON Lines.")
  var json = false

  func validate() throws {
    if prefix == nil && words.isEmpty {
      throw ValidationError("give words to look up, '-' for standard input, or --prefix")
    }
    if prefix != nil && !words.isEmpty {
      throw ValidationError("give either words or --prefix, not both")
    }
    if limit < 0 { throw ValidationError("--limit must be 0 (all) or more") }
  }

  func run() throws {
    let dictionary = try blob.open()
    if let prefix {
      var listed = 0
      for (id, word) in dictionary.words(withPrefix: prefix) {
        if limit > 0 && listed >= limit { break }
        listed += 1
        if json {
          print(JSONValue.object([
            ("word", .string(word)), ("id", .number(id)),
            ("frequency", .number(dictionary.frequency(of: id) ?? 0)),
          ]).text)
        } else {
          print(word)
        }
      }
      return
    }
    for argument in words {
      if argument == "-" {
        while let line = readLine(strippingNewline: true) {
          lookUp(line.hasSuffix("\r") ? String(line.dropLast()) : line, in: dictionary)
        }
      } else {
        lookUp(argument, in: dictionary)
      }
    }
  }

  private func lookUp(_ word: String, in dictionary: SwipeDictionary) {
    let ids = folded ? dictionary.ids(matchingFolded: word) : dictionary.id(of: word).map { [$0] } ?? []
    if json {
      if ids.isEmpty {
        print(JSONValue.object([
          ("word", .string(word)), ("found", false), ("id", .null), ("frequency", .null),
        ]).text)
      }
      for id in ids {
        var members: [(String, JSONValue)] = [
          ("word", .string(word)), ("found", true), ("id", .number(id)),
          ("frequency", .number(dictionary.frequency(of: id) ?? 0)),
        ]
        if folded { members.append(("match", .string(dictionary.word(for: id) ?? ""))) }
        print(JSONValue.object(members).text)
      }
      return
    }
    if ids.isEmpty { print("\(word)\tnot found") }
    for id in ids {
      let match = folded ? "\t\(dictionary.word(for: id) ?? "")" : ""
      print("\(word)\tid \(id)\tfrequency \(dictionary.frequency(of: id) ?? 0)\(match)")
    }
  }
}
