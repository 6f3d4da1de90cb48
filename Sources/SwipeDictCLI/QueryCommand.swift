import ArgumentParser
import Foundation
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
import SwipeDictTools

struct QueryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "query",
    abstract: "Look words up; complete, correct, list the top words or show swipe features.",
    discussion: """
      Lookups are exact (case and accents as given, after NFC); --folded ignores case and \
      accents, and folds letters such as ł ø đ ı İ æ œ to their base letter (zolw finds \
      żółw); it and --prefix also read ss, ae, oe as ß, æ, œ (strasse finds Straße, \
      oeuv completes to œuvre). Word IDs are ranks in the folding collation (a < A < ä < b …). A word \
      the list marks (AOSP's possibly_offensive, abbreviation) is printed with its marks, \
      and any word, in the blob or not, with the shortcuts the list gives it \
      (acomodate → accommodate, whitelisted).

      Words marked possibly offensive are found by lookups but never suggested by \
      --prefix, --correct or --top, as AOSP keyboards' "Block offensive words" does; \
      --allow-offensive turns that off.

      --with suggests from several languages at once (--prefix, --correct): each blob, \
      built for the same layout, is a language named after its file, with a weight on its \
      words' counts (PATH:WEIGHT, 1 when left out); a word in two languages once. --after \
      and --user reach every language.

      --after WORD predicts the words that follow WORD from the blob's word pairs (a blob \
      built with --bigrams); with --prefix or --correct it ranks their words by WORD as the \
      previous word instead (each word's count in that context; score is that count as a \
      frequency byte, or the correction score raised by it).

      --user FILE merges a user dictionary (`swipedict user`; docs/user-dictionary.md) into \
      lookups, --prefix and --correct: blocked words are never suggested, uses raise a \
      word's frequency, added and learned words are found and suggested (--after alone \
      only leaves the blocked words out).

      --prefix completes ignoring case and accents, most frequent first. --correct ranks \
      the words a typed input most likely meant, the list's whitelisted corrections first \
      (acomodate → accommodate, as AOSP keyboards apply them), then by frequency less a \
      weighted edit distance fitted to typing errors (--corrector typing; its costs in \
      1/32 decade, set with --cost NAME=VALUE) or by Kännsch's adjusted Levenshtein \
      distance (--corrector kaennsch). --features prints a word's swipe features as JSON: start \
      angle in degrees counterclockwise from +x as seen on screen, lengths in the layout's \
      unit and in key widths. --list lists the words with an exact prefix in ID order. \
      --id N prints the word with ID N (repeatable: the reverse lookup).

      Exit status, as grep's for scripts: 0 when every word looked up is found (or \
      --prefix, --correct, --top or --list prints at least one word, --features finds its \
      word, or every --id is a word), 3 when not, 1 on an error (unreadable or damaged blob), 64 on a usage error.

      Examples:
        swipedict query build/en.swipedict hello Hello xyzzy
        printf 'the\\nqwzx\\n' | swipedict query build/en.swipedict - --json
        swipedict query build/de.swipedict --folded uber      # uber, ùber, ûber, über
        swipedict query build/en.swipedict --prefix hel --limit 5
        swipedict query en-pairs.swipedict --after new --prefix y
        swipedict query build/en.swipedict --prefix helo --user my.words
        swipedict query build/de.swipedict --correct hllo
        swipedict query build/en.swipedict --features hello
        swipedict query build/en.swipedict --top 20
        swipedict query build/en.swipedict --list '' --limit 0 > all-words.txt
        swipedict query build/en.swipedict --id 0 --id 1000
      """)

  @OptionGroup var blob: BlobArgument

  @Argument(help: "Words to look up; '-' reads words from standard input, one per line.")
  var words: [String] = []

  @Option(name: .long, help: "Complete this prefix (case and accents ignored), best first.")
  var prefix: String?

  @Option(name: .long, help: "Suggest corrections for this typed word, best first.")
  var correct: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Predict the next word after this one, from the blob's word pairs (built with --bigrams); with --prefix "
        + "or --correct, rank by it as the previous word.", valueName: "word"))
  var after: String?

  @Option(name: .long, help: "Print this word's swipe features as JSON.")
  var features: String?

  @Option(
    name: .long, parsing: .unconditional,
    help: "List the N most frequent words (1…1000; the blob keeps its 1,000 most frequent).")
  var top: Int?

  @Option(name: .long, help: "List the words starting exactly with this prefix, in ID order.")
  var list: String?

  @Option(
    name: .long, parsing: .unconditional,
    help: "The most words --prefix or --correct print (1…1000), or --list prints (0: all).")
  var limit: Int = 10

  @Option(
    name: .long, parsing: .unconditionalSingleValue,
    help: ArgumentHelp("Print the word with this ID (repeatable): the reverse lookup.", valueName: "N"))
  var id: [Int] = []

  @Flag(name: .long, help: "Ignore case and accents in lookups.")
  var folded = false

  @OptionGroup var otherLanguages: LanguagesOption

  @Flag(
    name: .long,
    help: ArgumentHelp(
      "Suggest words the list marks possibly offensive too (--prefix, --correct, --top);"
        + " by default they are found by lookups but never suggested."))
  var allowOffensive = false

  @Flag(name: .long, help: "Print JSON Lines.")
  var json = false

  @OptionGroup(title: "Correction (--correct)") var correction: CorrectionArguments

  @OptionGroup var user: UserWordsOption

  func validate() throws {
    let modes = [
      prefix != nil, correct != nil, features != nil, top != nil, list != nil, !words.isEmpty, !id.isEmpty,
      after != nil && prefix == nil && correct == nil,
    ].filter { $0 }.count
    if modes == 0 {
      throw ValidationError(
        "give words to look up ('-' for standard input), or one of --prefix, --correct, --after, "
          + "--features, --top, --list, --id")
    }
    if modes > 1 {
      throw ValidationError("give one of: words, --prefix, --correct, --after, --features, --top, --list, --id")
    }
    if !otherLanguages.isEmpty, prefix == nil, correct == nil {
      throw ValidationError("--with applies to --prefix and --correct")
    }
    if list != nil {
      if limit < 0 { throw ValidationError("--limit \(limit): must be 0 (all) or more") }
    } else {
      try checkRange("--limit", limit, in: 1...Self.maxSuggestions)
    }
    // The blob keeps its 1,000 most frequent words in order; --list '' --limit 0 lists all.
    if let top { try checkRange("--top", top, in: 1...Self.maxSuggestions) }
    for (name, text) in [("--prefix", prefix), ("--correct", correct)] {
      if let text, text.unicodeScalars.count > SwipeDictionary.maximumWordLength {
        throw ValidationError(
          "\(name): \(text.unicodeScalars.count) characters, more than the \(SwipeDictionary.maximumWordLength) "
            + "of the longest word a blob holds: nothing completes or corrects it")
      }
    }
  }

  /// The most suggestions --prefix, --correct and --top print: the size of a blob's top list,
  /// and a bound on the work a ranked query does.
  static let maxSuggestions = 1000

  /// The exit status when a word was not found or a query printed nothing (grep's 1, moved
  /// to 3 because 1 means an error for every swipedict command).
  static let notFound = ExitCode(3)

  func run() throws {
    var dictionary = try blob.open()
    dictionary.blocksOffensiveWords = !allowOffensive
    // With --with, every language takes them (below), once.
    if otherLanguages.isEmpty { try user.apply(to: &dictionary) }
    let found: Bool
    if !otherLanguages.isEmpty {
      var languages = try otherLanguages.open(with: dictionary, path: blob.blob)
      if allowOffensive {
        let members = languages.members.map {
          var member = $0
          member.dictionary.blocksOffensiveWords = false
          return member
        }
        languages = try MultilingualDictionary(members)
      }
      try user.apply(to: &languages)
      if after != nil, !languages.members.contains(where: \.dictionary.hasBigrams) {
        throw failure(
          "none of the blobs has word pairs\n  hint: build one with --bigrams FILE (w1 w2<TAB>count lines whose"
            + " words are words of the blob)")
      }
      let context = after.map { languages.context(after: $0) } ?? .empty
      let model = try correction.model()
      let suggestions =
        prefix.map { languages.completions(prefix: $0, context: context, limit: limit) }
        ?? languages.corrections(for: correct ?? "", context: context, limit: limit, model: model)
      for s in suggestions {
        let name = languages.members[s.language].language
        if json {
          print(
            JSONValue.object([
              ("word", .string(s.suggestion.word)), ("language", .string(name)), ("id", .number(s.suggestion.id)),
              ("frequency", .number(Int(s.suggestion.frequency))), ("distance", .number(s.suggestion.distance)),
              ("score", .double(rounded(s.score, places: 3))),
            ]).text)
        } else {
          print(
            "\(s.suggestion.word)\t\(name)\tfrequency \(s.suggestion.frequency)"
              + (correct != nil ? "\tdistance \(s.suggestion.distance)" : "")
              + "\tscore \(fixedDecimal(s.score, places: 1))")
        }
      }
      if suggestions.isEmpty { throw nothingFound() }
      return
    }
    if after != nil, !dictionary.hasBigrams {
      throw failure(
        "\(blob.blob) has no word pairs\n  hint: build it with --bigrams FILE (w1 w2<TAB>count lines whose words"
          + " are words of the blob)")
    }
    let context = after.map { dictionary.context(after: $0) } ?? .empty
    if let prefix {
      let suggestions =
        after == nil
        ? dictionary.completions(prefix: prefix, limit: limit)
        : dictionary.completions(prefix: prefix, context: context, limit: limit)
      found = printSuggestions(suggestions, in: dictionary)
    } else if let correct {
      let model = try correction.model()
      found = printSuggestions(
        dictionary.corrections(for: correct, context: context, limit: limit, model: model), in: dictionary)
    } else if let after {
      found = printSuggestions(dictionary.nextWords(after: after, limit: limit), in: dictionary)
    } else if let top {
      found = printSuggestions(dictionary.topWords(limit: top), in: dictionary)
    } else if let word = features {
      found = try printFeatures(of: word, in: dictionary)
    } else if let list {
      found = listPrefix(list, in: dictionary)
    } else if !id.isEmpty {
      found = id.map { reverseLookUp($0, in: dictionary) }.allSatisfy { $0 }
    } else {
      var all = true
      for argument in words {
        if argument == "-" {
          while let line = readLine(strippingNewline: true) {
            all = lookUp(line.hasSuffix("\r") ? String(line.dropLast()) : line, in: dictionary) && all
          }
        } else {
          all = lookUp(argument, in: dictionary) && all
        }
      }
      found = all
    }
    if !found { throw nothingFound() }
  }

  /// Says on standard error that the query found nothing (lookups name each word missing
  /// already), and exits 3.
  private func nothingFound() -> ExitCode {
    let what: String? =
      if let prefix { "no word starts with \"\(prefix)\"" } else if let correct {
        "no correction of \"\(correct)\""
      } else if let after { "no word follows \"\(after)\" in the word pairs" } else if top != nil {
        "no word to list"
      } else if let list { "no word starts with \"\(list)\"" } else { nil }
    if let what { printError("\(blob.blob): \(what)") }
    return Self.notFound
  }

  /// Prints the suggestions; whether there were any.
  private func printSuggestions(_ suggestions: [Suggestion], in dictionary: SwipeDictionary) -> Bool {
    for s in suggestions {
      if json {
        print(
          JSONValue.object([
            ("word", .string(s.word)), ("id", .number(s.id)), ("frequency", .number(Int(s.frequency))),
            ("distance", .number(s.distance)), ("score", .number(s.score)),
          ]).text)
      } else if correct != nil {
        print("\(s.word)\tdistance \(s.distance)\tfrequency \(s.frequency)\tscore \(s.score)")
      } else if after != nil, prefix != nil {
        print("\(s.word)\tfrequency \(s.frequency)\tscore \(s.score)")
      } else if after != nil {
        print("\(s.word)\tpair frequency \(s.score)\tfrequency \(s.frequency)")
      } else {
        print("\(s.word)\tfrequency \(s.frequency)")
      }
    }
    return !suggestions.isEmpty
  }

  /// Prints a word's features; `false` when the word is not in the dictionary.
  private func printFeatures(of word: String, in dictionary: SwipeDictionary) throws -> Bool {
    guard let id = dictionary.id(of: word) else {
      printError(
        "\(blob.blob): \"\(word)\" is not in the dictionary (lookups are exact; try --folded or --prefix)")
      return false
    }
    guard let f = dictionary.features(of: id) else {
      throw failure("\(blob.blob): the blob has no swipe features (format \(dictionary.formatVersion)); rebuild it")
    }
    let layout = dictionary.layout
    let width = Double(dictionary.keyWidth)
    func number(_ value: Float?, digits: Double = 1000) -> JSONValue {
      guard let value else { return .null }
      return .double((Double(value) * digits).rounded() / digits)
    }
    let path = layout.keyPath(for: word) ?? []
    print(
      JSONValue.object([
        ("word", .string(word)), ("id", .number(id)), ("frequency", .number(Int(f.frequency))),
        ("keyPath", .string(String(String.UnicodeScalarView(path.map { layout.keys[$0].character })))),
        ("keyCount", .number(f.keyCount)),
        ("startAngle", number(f.startAngle.map { $0 * 180 / .pi })),
        ("expectedLength", number(f.expectedLength)),
        ("expectedLengthKeyWidths", .double((Double(f.expectedLength) / width * 1000).rounded() / 1000)),
        ("secondLetterDistance", number(f.secondLetterDistance)),
        ("lastPoint", .array([number(f.lastPoint.x), number(f.lastPoint.y)])),
        ("firstKey", .string(String(layout.keys[f.firstKey].character))),
        ("lastKey", .string(String(layout.keys[f.lastKey].character))),
      ]).text)
    return true
  }

  /// Lists the words with an exact prefix; whether there were any.
  private func listPrefix(_ prefix: String, in dictionary: SwipeDictionary) -> Bool {
    var listed = 0
    for (id, word) in dictionary.words(withPrefix: prefix) {
      if limit > 0 && listed >= limit { break }
      listed += 1
      if json {
        print(
          JSONValue.object([
            ("word", .string(word)), ("id", .number(id)),
            ("frequency", .number(Int(dictionary.frequency(of: id) ?? 0))),
          ]).text)
      } else {
        print(word)
      }
    }
    return listed > 0
  }

  /// Looks a word up and prints the result; whether it was found.
  /// Prints the word with ID `id`; whether there is one (IDs outside `0..<wordCount` are not).
  private func reverseLookUp(_ id: Int, in dictionary: SwipeDictionary) -> Bool {
    let word = dictionary.word(for: id)
    if json {
      print(
        JSONValue.object([
          ("id", .number(id)), ("found", .bool(word != nil)), ("word", word.map { .string($0) } ?? .null),
          ("frequency", dictionary.frequency(of: id).map { .number(Int($0)) } ?? .null),
        ]).text)
    } else if let word {
      print("\(id)\t\(word)\tfrequency \(dictionary.frequency(of: id) ?? 0)")
    } else {
      print("\(id)\tnot a word ID (0…\(dictionary.wordCount - 1))")
    }
    return word != nil
  }

  private func lookUp(_ word: String, in dictionary: SwipeDictionary) -> Bool {
    let ids = folded ? dictionary.ids(matchingFolded: word) : dictionary.id(of: word).map { [$0] } ?? []
    // A word of the user's (--user) that the blob lacks, or one the user blocked.
    let entry = dictionary.userWords.entry(for: word)
    if ids.isEmpty, let entry, entry.kind != .blocked {
      if json {
        print(
          JSONValue.object([
            ("word", .string(word)), ("found", true), ("id", .null), ("user", .string(entry.kind.description)),
            ("uses", .number(entry.uses)),
          ]).text)
      } else {
        print("\(word)\tuser word (\(entry.kind), \(entry.uses) uses)")
      }
      return true
    }
    let blocked = entry?.kind == .blocked ? "\tblocked by the user" : ""
    if json {
      if ids.isEmpty {
        var members: [(String, JSONValue)] = [
          ("word", .string(word)), ("found", false), ("id", .null), ("frequency", .null),
        ]
        if let shortcuts = shortcutsJSON(word, dictionary) { members.append(("shortcuts", shortcuts)) }
        print(JSONValue.object(members).text)
      }
      for id in ids {
        var members: [(String, JSONValue)] = [
          ("word", .string(word)), ("found", true), ("id", .number(id)),
          ("frequency", .number(Int(dictionary.frequency(of: id) ?? 0))),
        ]
        if folded { members.append(("match", .string(dictionary.word(for: id) ?? ""))) }
        members += annotations(of: id, dictionary)
        print(JSONValue.object(members).text)
      }
      return !ids.isEmpty
    }
    if ids.isEmpty { print("\(word)\tnot found\(shortcutText(word, dictionary))") }
    for id in ids {
      let match = folded ? "\t\(dictionary.word(for: id) ?? "")" : ""
      let marks = markNames(dictionary.marks(of: id)).map { "\t\($0)" }.joined()
      let stored = dictionary.word(for: id) ?? word
      print(
        "\(word)\tid \(id)\tfrequency \(dictionary.frequency(of: id) ?? 0)\(match)\(marks)\(blocked)"
          + shortcutText(stored, dictionary))
    }
    return !ids.isEmpty
  }

  /// The names of a word's marks, as the AOSP attributes say them.
  private func markNames(_ marks: WordMarks) -> [String] {
    (marks.contains(.possiblyOffensive) ? ["possibly offensive (never suggested)"] : [])
      + (marks.contains(.abbreviation) ? ["abbreviation"] : [])
  }

  /// "\t→ I'll (whitelisted)" for each shortcut of `word`.
  private func shortcutText(_ word: String, _ dictionary: SwipeDictionary) -> String {
    dictionary.shortcuts(for: word).map {
      "\t→ \($0.target) (\($0.isWhitelisted ? "whitelisted" : "shortcut, f=\($0.frequency)"))"
    }.joined()
  }

  private func shortcutsJSON(_ word: String, _ dictionary: SwipeDictionary) -> JSONValue? {
    let shortcuts = dictionary.shortcuts(for: word)
    guard !shortcuts.isEmpty else { return nil }
    return .array(
      shortcuts.map {
        .object([
          ("target", .string($0.target)), ("whitelisted", .bool($0.isWhitelisted)),
          ("frequency", .number(Int($0.frequency))),
        ])
      })
  }

  /// JSON members for a found word's marks and shortcuts, present only when it has them.
  private func annotations(of id: Int, _ dictionary: SwipeDictionary) -> [(String, JSONValue)] {
    var members: [(String, JSONValue)] = []
    let marks = dictionary.marks(of: id)
    if !marks.isEmpty {
      members.append(
        (
          "marks",
          .array(
            (marks.contains(.possiblyOffensive) ? [JSONValue.string("possiblyOffensive")] : [])
              + (marks.contains(.abbreviation) ? [.string("abbreviation")] : []))
        ))
    }
    if let word = dictionary.word(for: id), let shortcuts = shortcutsJSON(word, dictionary) {
      members.append(("shortcuts", shortcuts))
    }
    return members
  }
}
