import ArgumentParser
import SwipeDict

struct InspectCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inspect",
    abstract: "Show a blob's format version, word count, layout and sections.",
    discussion: """
      Opening validates the header, the section table and every section's bounds; it does \
      not read the sections (use `swipedict verify` for the checksums).

      Examples:
        swipedict inspect build/en.swipedict
        swipedict inspect build/en.swipedict --json | jq '.sections[] | {tag, length}'
      """)

  @OptionGroup var blob: BlobArgument

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
        ("layout", .object([
          ("name", .string(layout.name)), ("unit", .string(layout.unit)),
          ("keyWidth", .double(Double(layout.keyWidth))), ("keys", .number(layout.keys.count)),
        ])),
        ("alphabet", .string(String(String.UnicodeScalarView(dictionary.alphabet.scalars)))),
        ("sections", .array(sections)),
        ("metadata", dictionary.metadata.map { .raw($0) } ?? .null),
      ])
      print(value.text)
      return
    }
    let layout = dictionary.layout
    print("\(blob.blob)")
    print("  format \(dictionary.formatVersion), \(grouped(dictionary.wordCount)) words, "
      + "\(grouped(dictionary.fileSize)) bytes (\(fixed2(Double(dictionary.fileSize) / Double(words))) bytes/word)")
    print("  layout \(layout.name): \(layout.keys.count) keys, key width \(layout.keyWidth) \(layout.unit)")
    print("  alphabet (\(dictionary.alphabet.count)): "
      + String(String.UnicodeScalarView(dictionary.alphabet.scalars)))
    print("  tag   offset        bytes        bytes/word  crc32c")
    for entry in dictionary.contents.sections {
      let crc = String(entry.checksum, radix: 16)
      print("  \(entry.tag)  \(grouped(entry.offset).leftPadded(10))  \(grouped(entry.length).leftPadded(12))  "
        + "\(fixed2(Double(entry.length) / Double(words)).leftPadded(10))  "
        + String(repeating: "0", count: 8 - crc.count) + crc)
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
    print("\(blob.blob): ok, \(grouped(dictionary.wordCount)) words, "
      + "\(dictionary.contents.sections.count) sections, checksums and automaton verified")
  }
}
