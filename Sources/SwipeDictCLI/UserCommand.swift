import ArgumentParser
import Foundation
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
import SwipeDictSystem

/// `swipedict user FILE add|learn|remove|block|list|import|export`: a user dictionary
/// (UserDictionary) from the command line.
struct UserCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "user",
    abstract: "Read and change a user dictionary: words added, learned and blocked.",
    discussion: """
      A user dictionary is one file that a keyboard and its app share: the words the user \
      added (names, slang), the words learned from use with their use counts, and the \
      words the user blocked (never suggested). The commands that write create FILE when it \
      is missing (list and export do not). Every change \
      is one checksummed record appended under a lock, so several processes can write \
      while others read, and a process killed at any moment loses at most the write it was \
      making. The file keeps at most 20,000 entries (the least recently used learned words \
      go first). See docs/user-dictionary.md.

      Export writes word<TAB>uses lines that `swipedict build` reads; blocked words are \
      `#!blocked<TAB>WORD` comment lines that build skips and import reads back.

      Examples:
        swipedict user me.words add Zoë Anna --uses 3
        swipedict user me.words learn gonna
        swipedict user me.words block ducking
        swipedict user me.words remove Anna
        swipedict user me.words list --kind added
        swipedict user me.words export -o me.tsv
        swipedict user other.words import me.tsv
        swipedict build en.tsv me.tsv --layout qwerty-en.json -o en-me.swipedict
      """,
    subcommands: [
      UserAddCommand.self, UserLearnCommand.self, UserRemoveCommand.self, UserBlockCommand.self,
      UserListCommand.self, UserImportCommand.self, UserExportCommand.self, UserSalvageCommand.self,
    ]
  )

  @Argument(
    help: "The user dictionary file (created by a write when missing; its directory must exist; not a symbolic link).")
  var file: String

  /// Opens the store or prints why not (naming the file) and fails with exit code 1.
  /// Unreadable bytes at the end of the file are reported on standard error.
  /// - Parameter writing: whether the command writes (and so cuts those bytes off).
  /// A command that only reads (`list`, `export`) does not create a missing file.
  func open(writing: Bool) throws -> UserDictionary {
    if !writing && FileSystem.accessFailure(file) == .noSuchFileOrDirectory {
      throw failure(
        "\(file): no such user dictionary\n  hint: check the path; the directory must exist; `swipedict user \(file) add WORD` or "
          + "`swipedict user \(file) import LIST` creates the file")
    }
    let store: UserDictionary
    do { store = try UserDictionary(path: file, options: .init(createsIfMissing: writing)) } catch {
      throw failure(error)
    }
    for skipped in store.damagedRecords {
      printError(
        "warning: \(file): \(skipped.byteCount) bytes at offset \(skipped.offset) are \(skipped.message); skipped")
    }
    if let damage = store.damage {
      printError(
        "warning: \(file): \(damage.byteCount) bytes at offset \(damage.offset) are \(damage.message); "
          + (!damage.isIncomplete
            ? (writing ? "this write goes after them" : "ignored")
            : writing ? "this write cuts them off" : "ignored (the next write cuts them off)"))
    }
    return store
  }
}

/// The words argument of the commands that change entries.
struct UserWordsArgument: ParsableArguments {
  @Argument(help: "The words (one token each: no spaces, at most 64 characters).")
  var words: [String]

  func validate() throws {
    guard !words.isEmpty else { throw ValidationError("give at least one word") }
    try refuseInvalidUTF8Arguments()
  }
}

/// Refuses a command line with an argument that is not UTF-8: the arguments arrive as
/// `String`s with each bad byte replaced by U+FFFD, which would be stored as a word.
func refuseInvalidUTF8Arguments() throws {
  for index in 1..<Int(CommandLine.argc) {
    guard let argument = CommandLine.unsafeArgv[index] else { continue }
    let bytes = UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) }
    guard let at = firstInvalidUTF8Byte(bytes) else { continue }
    let shown = String(decoding: bytes, as: UTF8.self)
    throw ValidationError(
      "argument \(index) (\"\(shown)\") is not UTF-8: byte \(at + 1), 0x"
        + String(bytes[at], radix: 16, uppercase: true) + ", starts no valid UTF-8 sequence; give words as UTF-8 text")
  }
}

/// The offset of the first byte of the first ill-formed UTF-8 sequence, or `nil`.
func firstInvalidUTF8Byte(_ bytes: [UInt8]) -> Int? {
  var iterator = bytes.makeIterator()
  var decoder = UTF8()
  var offset = 0
  while true {
    switch decoder.decode(&iterator) {
    case .scalarValue(let scalar): offset += UTF8.width(scalar)
    case .emptyInput: return nil
    case .error: return offset
    }
  }
}

/// Runs `body` for each word; an invalid word or a failed write stops with its error (the
/// words before it are written).
private func forEachWord(
  _ words: [String], file: String, _ body: (String) throws(UserDictionaryError) -> Void
) throws {
  for word in words {
    do { try body(word) } catch { throw failure(error) }
  }
}

struct UserAddCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Add words of the user's (names, slang); they are suggested like dictionary words.",
    usage: "swipedict user <file> add <words> ... [--uses <uses>]",
    discussion: """
      A word already learned or blocked becomes an added word (add unblocks). Without \
      --uses the entry keeps its use count (0 for a new word).

      Examples:
        swipedict user me.words add Zoë
        swipedict user me.words add Anna Bernd --uses 5
      """)

  @ParentCommand var user: UserCommand
  @OptionGroup var arguments: UserWordsArgument

  @Option(parsing: .unconditional, help: "The use count to set (0 to 4294967295).")
  var uses: Int?

  func validate() throws {
    if let uses { try checkRange("--uses", uses, in: 0...UserEntry.maxUses) }
  }

  func run() throws {
    let store = try user.open(writing: true)
    try forEachWord(arguments.words, file: user.file) { word throws(UserDictionaryError) in
      let entry = try store.add(word, uses: uses)
      print("added\t\(entry.word)\t\(entry.uses)")
    }
  }
}

struct UserLearnCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "learn",
    abstract: "Count one use of each word, as a keyboard does when the user types it.",
    usage: "swipedict user <file> learn <words> ...",
    discussion: """
      A new word becomes a learned entry with one use; an added or learned one gets one \
      more use. A blocked word stays blocked and is not counted.

      Examples:
        swipedict user me.words learn gonna
        swipedict user me.words learn gonna gonna wanna
      """)

  @ParentCommand var user: UserCommand
  @OptionGroup var arguments: UserWordsArgument

  func run() throws {
    let store = try user.open(writing: true)
    try forEachWord(arguments.words, file: user.file) { word throws(UserDictionaryError) in
      let entry = try store.learn(word)
      print(entry.isBlocked ? "blocked\t\(entry.word)\t(not counted)" : "\(entry.kind)\t\(entry.word)\t\(entry.uses)")
    }
  }
}

struct UserBlockCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "block",
    abstract: "Block words: never suggest them, whatever a dictionary says.",
    usage: "swipedict user <file> block <words> ...",
    discussion: """
      `remove` or `add` unblocks a word.

      Examples:
        swipedict user me.words block ducking
      """)

  @ParentCommand var user: UserCommand
  @OptionGroup var arguments: UserWordsArgument

  func run() throws {
    let store = try user.open(writing: true)
    try forEachWord(arguments.words, file: user.file) { word throws(UserDictionaryError) in
      let entry = try store.block(word)
      print("blocked\t\(entry.word)")
    }
  }
}

struct UserRemoveCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove",
    abstract: "Remove the entries of words (added, learned or blocked).",
    usage: "swipedict user <file> remove <words> ...",
    discussion: """
      Exits 3 when a word has no entry (the others are removed).

      Examples:
        swipedict user me.words remove Anna
      """)

  @ParentCommand var user: UserCommand
  @OptionGroup var arguments: UserWordsArgument

  func run() throws {
    let store = try user.open(writing: true)
    var missing = 0
    try forEachWord(arguments.words, file: user.file) { word throws(UserDictionaryError) in
      if let entry = try store.remove(word) {
        print("removed\t\(entry.word)\t\(entry.kind)")
      } else {
        printError("note: \(user.file): \"\(word)\" has no entry")
        missing += 1
      }
    }
    if missing > 0 { throw ExitCode(3) }
  }
}

struct UserListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the entries: word, kind, uses, least recently used first.",
    usage: "swipedict user <file> list [--kind <kind>] [--json]",
    discussion: """
      One line per entry: word<TAB>kind<TAB>uses<TAB>#sequence (the sequence number of its \
      last write; larger is more recent). --json writes one object per line instead. A \
      summary goes to standard error.

      Examples:
        swipedict user me.words list
        swipedict user me.words list --kind blocked
        swipedict user me.words list --json
      """)

  /// The kinds `--kind` takes.
  enum Kind: String, ExpressibleByArgument, CaseIterable {
    case added, learned, blocked
    var entryKind: UserEntry.Kind {
      switch self {
      case .added: return .added
      case .learned: return .learned
      case .blocked: return .blocked
      }
    }
  }

  @ParentCommand var user: UserCommand

  @Option(help: "Only entries of this kind: added, learned or blocked.")
  var kind: Kind?

  @Flag(help: "One JSON object per line.")
  var json = false

  func run() throws {
    let store = try user.open(writing: false)
    let words = store.words
    let entries = kind.map { words.entries(of: $0.entryKind) } ?? words.entries
    var text = ""
    for entry in entries {
      if json {
        text +=
          "{\"word\":\(jsonString(entry.word)),\"kind\":\"\(entry.kind)\",\"uses\":\(entry.uses),"
          + "\"lastUse\":\(entry.lastUse)}\n"
      } else {
        text += "\(entry.word)\t\(entry.kind)\t\(entry.uses)\t#\(entry.lastUse)\n"
      }
    }
    print(text, terminator: "")
    let all = words.entries
    printError(
      "\(user.file): \(grouped(words.count)) entries of at most \(grouped(words.capacity)): "
        + "\(all.filter { $0.kind == .added }.count) added, \(all.filter { $0.kind == .learned }.count) learned, "
        + "\(all.filter { $0.kind == .blocked }.count) blocked")
  }
}

/// A string as a JSON string literal.
private func jsonString(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    default:
      if scalar.value < 0x20 {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}

struct UserImportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import a word list (what export writes, or any word<TAB>count list).",
    usage: "swipedict user <file> import <list> [--replace]",
    discussion: """
      Lines are word<TAB>uses, word uses or a bare word (0 uses). #!added and #!learned set \
      the kind of the lines after them (lines before any marker are added words), and \
      #!blocked<TAB>WORD is a blocked word; other # lines are comments. Entries are merged \
      into the file (a word already there takes the list's kind and uses); --replace \
      removes the entries the list does not have. The list is written in one step: other \
      processes see all of it or none. A bad line stops the import before anything is \
      written, naming the line.

      Examples:
        swipedict user me.words import backup.tsv
        swipedict user me.words import backup.tsv --replace
        printf 'Zoë\\t3\\n#!blocked\\tducking\\n' | swipedict user me.words import -
      """)

  @ParentCommand var user: UserCommand

  @Argument(help: "The word list ('-': standard input).")
  var list: String

  @Flag(help: "Remove the entries the list does not have (restore a backup).")
  var replace = false

  func run() throws {
    let bytes: [UInt8]
    if list == "-" {
      bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
    } else {
      guard let data = FileManager.default.contents(atPath: list) else {
        throw failure("\(list): cannot read the file\n  hint: check the path and its permissions")
      }
      bytes = Array(data)
    }
    let parsed: UserWordList
    do { parsed = try UserWordList(parsing: bytes, file: list == "-" ? "<stdin>" : list) } catch {
      throw failure(error)
    }
    let store = try user.open(writing: true)
    do {
      let summary = try store.importList(parsed, replacing: replace)
      var line =
        "\(user.file): imported \(grouped(summary.imported)) entries from \(list == "-" ? "standard input" : list)"
      if summary.replaced > 0 { line += ", removed \(grouped(summary.replaced)) not in the list" }
      if summary.evicted > 0 {
        line += ", evicted \(grouped(summary.evicted)) (at most \(grouped(store.capacity)) entries)"
      }
      print(line + "; \(grouped(store.words.count)) entries")
    } catch {
      throw failure(error)
    }
  }
}

struct UserExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write the entries as a word list that `swipedict build` and `import` read.",
    usage: "swipedict user <file> export [--output <file>]",
    discussion: """
      word<TAB>uses lines, least recently used first, under #!added and #!learned marker \
      lines; blocked words as #!blocked<TAB>WORD. To `swipedict build` every # line is a \
      comment: it reads the added and learned words with their uses as counts, and never \
      the blocked ones.

      Examples:
        swipedict user me.words export > me.tsv
        swipedict user me.words export -o me.tsv
      """)

  @ParentCommand var user: UserCommand

  @OptionGroup var output: OutputOption

  func run() throws {
    let store = try user.open(writing: false)
    let text = store.exportList()
    try output.write(text, protecting: [user.file])
  }
}

struct UserSalvageCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "salvage",
    abstract: "Write the entries a damaged file's records still hold, as a list that import reads.",
    usage: "swipedict user <file> salvage [--output <file>]",
    discussion: """
      For a file whose header is damaged (which no other command opens): reads every \
      record after the header, skipping damaged ones, and writes the entries as export \
      does. Move the damaged file aside, salvage it, and import the list into a new file.

      Examples:
        mv me.words me.words.damaged
        swipedict user me.words.damaged salvage -o saved.tsv
        swipedict user me.words import saved.tsv
      """)

  @ParentCommand var user: UserCommand

  @OptionGroup var output: OutputOption

  func run() throws {
    let words: UserWords
    do { words = try UserDictionary.salvage(path: user.file) } catch { throw failure(error) }
    let text = UserWordList.format(words)
    printError("\(user.file): salvaged \(grouped(words.count)) entries")
    try output.write(text, protecting: [user.file])
  }
}
