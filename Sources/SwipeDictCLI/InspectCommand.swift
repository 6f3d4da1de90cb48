import ArgumentParser
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTools

struct InspectCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inspect",
    abstract: "Show a blob's format version, word count, layout, sections and memory budget.",
    discussion: """
      Opening validates the header, the section table and every section's bounds; it does \
      not read the sections (use `swipedict verify` for the checksums).

      The budget report sets the blob against a keyboard extension's memory ceiling (48 MB \
      on iOS): the mapped file (clean, evictable pages), the sections a swipe decode reads \
      (ALPH LYOT FREQ FEAT DAWG) and those completion and correction read (ALPH LYOT FREQ \
      PTRE BEST DAWG) — upper bounds of what must be resident — and the loader's heap after \
      opening, measured from /proc/self/smaps where it exists.

      Examples:
        swipedict inspect build/en.swipedict
        swipedict inspect build/en.swipedict --budget 30MB
        swipedict inspect build/en.swipedict --json | jq '.sections[] | {tag, length}'
      """)

  @OptionGroup var blob: BlobArgument

  @Option(
    name: .long, parsing: .unconditional,
    help: "The memory ceiling to report against (default 48MB, iOS keyboard extensions).")
  var budget: String = "48MB"

  func validate() throws {
    try validateSize(budget, option: "--budget")
  }

  /// The sections each kind of query reads.
  static let decodeSections: [SectionTag] = [.alphabet, .layout, .frequency, .features, .dawg, .marks]
  static let typingSections: [SectionTag] = [.alphabet, .layout, .frequency, .prefixTree, .bestLists, .dawg, .marks]

  /// The budget lines: what, bytes, sections.
  private func budgetLines(_ dictionary: SwipeDictionary) -> [(
    key: String, label: String, bytes: Int, tags: [SectionTag]
  )] {
    func sum(_ tags: [SectionTag]) -> Int {
      tags.reduce(0) { $0 + Int(dictionary.contents.section($1)?.length ?? 0) }
    }
    // MARK is there only for lists that mark words (AOSP's).
    func present(_ tags: [SectionTag]) -> [SectionTag] {
      tags.filter { dictionary.contents.section($0) != nil }
    }
    var lines: [(key: String, label: String, bytes: Int, tags: [SectionTag])] = [
      ("mapped", "mapped (whole file, clean pages)", dictionary.fileSize, []),
      ("swipeDecode", "read by a swipe decode", sum(Self.decodeSections), present(Self.decodeSections)),
      ("typing", "read by completion and correction", sum(Self.typingSections), present(Self.typingSections)),
    ]
    // The first measurement warms up the runtime and Foundation; the second is the loader's.
    _ = measureMemory(path: blob.blob, words: [])
    if let memory = measureMemory(path: blob.blob, words: []) {
      lines.append(("heapAfterOpen", "loader heap after open (4 kB pages)", memory.heapDirty * 1024, []))
    }
    return lines
  }

  @Flag(name: .long, help: "Print one JSON object.")
  var json = false

  func run() throws {
    let dictionary = try blob.open()
    let words = max(1, dictionary.wordCount)
    if json {
      let sections = dictionary.contents.sections.map { entry -> JSONValue in
        .object([
          ("tag", .string(entry.tag.description)), ("offset", .number(entry.offset)),
          ("length", .number(entry.length)),
          ("bytesPerWord", .double((Double(entry.length) / Double(words) * 1000).rounded() / 1000)),
          ("checksum", .number(entry.checksum)),
        ])
      }
      let layout = dictionary.layout
      let value = JSONValue.object([
        ("path", .string(blob.blob)),
        ("formatVersion", .string(dictionary.formatVersion.description)),
        ("wordCount", .number(dictionary.wordCount)),
        ("fileBytes", .number(dictionary.fileSize)),
        ("bytesPerWord", .double((Double(dictionary.fileSize) / Double(words) * 1000).rounded() / 1000)),
        (
          "layout",
          .object([
            ("name", .string(layout.name)), ("unit", .string(layout.unit)),
            ("keyWidth", .double(Double(layout.keyWidth))), ("keys", .number(layout.keys.count)),
          ])
        ),
        ("alphabet", .string(String(String.UnicodeScalarView(dictionary.alphabet.scalars)))),
        ("sections", .array(sections)),
        (
          "budget",
          .object(
            [("ceiling", .number(parseSize(budget) ?? 0))]
              + budgetLines(dictionary).map { ($0.key, .number($0.bytes)) })
        ),
        ("metadata", dictionary.metadata.map { .raw($0) } ?? .null),
      ])
      print(value.text)
      return
    }
    let layout = dictionary.layout
    print("\(blob.blob)")
    print(
      "  format \(dictionary.formatVersion), \(grouped(dictionary.wordCount)) words, "
        + "\(grouped(dictionary.fileSize)) bytes (\(fixedDecimal(Double(dictionary.fileSize) / Double(words), places: 2)) bytes/word)"
    )
    print("  layout \(layout.name): \(layout.keys.count) keys, key width \(layout.keyWidth) \(layout.unit)")
    print(
      "  alphabet (\(dictionary.alphabet.count)): "
        + String(String.UnicodeScalarView(dictionary.alphabet.scalars)))
    print("  tag   offset        bytes        bytes/word  crc32c")
    for entry in dictionary.contents.sections {
      let crc = String(entry.checksum, radix: 16)
      print(
        "  \(entry.tag)  \(grouped(entry.offset).leftPadded(10))  \(grouped(entry.length).leftPadded(12))  "
          + "\(fixedDecimal(Double(entry.length) / Double(words), places: 2).leftPadded(10))  "
          + String(repeating: "0", count: 8 - crc.count) + crc)
    }
    let ceiling = parseSize(budget) ?? 1
    print("  budget: \(budget) (\(grouped(ceiling)) bytes)")
    for line in budgetLines(dictionary) {
      let share = Double(line.bytes) / Double(ceiling) * 100
      let tags = line.tags.map(\.description).joined(separator: " ")
      print(
        "    \(line.label.padding(toLength: 36, withPad: " ", startingAt: 0))"
          + "\(grouped(line.bytes).leftPadded(12)) bytes  \(fixedDecimal(share, places: 2).leftPadded(6)) %  \(tags)")
    }
    if let metadata = dictionary.metadata { print("  metadata: \(metadata)") }
  }
}

struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check every checksum and the automaton's structure; exit 1 if the blob is damaged.",
    discussion: """
      Examples:
        swipedict verify build/en.swipedict
        swipedict verify downloaded.swipedict || rm downloaded.swipedict
      """)

  @OptionGroup var blob: BlobArgument

  func run() throws {
    let dictionary = try blob.open(verify: true)
    print(
      "\(blob.blob): ok, \(grouped(dictionary.wordCount)) words, "
        + "\(dictionary.contents.sections.count) sections, checksums, automaton and swipe sections verified")
  }
}
