import ArgumentParser
import SwipeDict
import SwipeDictCommandLine
import SwipeDictShipping
import SwipeDictTools

struct PackCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pack",
    abstract: "Verify a blob and compress it with zstd (long mode) for shipping.",
    discussion: """
      The pack is one zstd frame with a content checksum; `swipedict install` (or \
      `zstd -d --long=27`) restores the blob byte for byte. The pack must not be the blob \
      itself (the same file under any name is refused).

      Examples:
        swipedict pack build/en.swipedict -o build/en.swipedict.zst
        swipedict pack build/de.swipedict -o de.swipedict.zst --level 22
      """)

  @Argument(help: "The blob to pack.")
  var blob: String

  @Option(name: .shortAndLong, help: "The pack to write.")
  var output: String

  @Option(parsing: .unconditional, help: "zstd level, 1 (fast) to 22 (smallest).")
  var level: Int = 19

  func validate() throws {
    try checkRange("--level", level, in: 1...22)
  }

  func run() throws {
    do {
      let result = try Shipping.pack(blob, to: output, level: level)
      print(
        "\(output): \(grouped(result.outputBytes)) bytes from \(grouped(result.inputBytes)) "
          + "(\(fixedDecimal(Double(result.outputBytes) / Double(max(1, result.inputBytes)) * 100, places: 2)) %)")
    } catch {
      throw failure(error, file: blob)
    }
  }
}

struct InstallCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "install",
    abstract: "Decompress a pack into a directory, verify it, and move it into place atomically.",
    discussion: """
      The blob is named after the pack without `.zst`. It is decompressed to a temporary \
      file beside the destination and verified (every checksum and the automaton) before \
      it is renamed over the old one: a damaged pack is refused and the installed blob stays. \
      The directory is created (with its parents) if it does not exist; a pack is never \
      installed over itself.

      Examples:
        swipedict install en.swipedict.zst -o Dictionaries/
      """)

  @Argument(help: "The .zst pack.")
  var pack: String

  @Option(name: .shortAndLong, help: "The directory to install into (created if missing).")
  var output: String

  func run() throws {
    do {
      let result = try Shipping.install(pack, into: output)
      print("\(result.path): installed and verified, \(grouped(result.outputBytes)) bytes")
    } catch {
      throw failure("\(describe(error, file: pack))\n  nothing installed")
    }
  }
}
