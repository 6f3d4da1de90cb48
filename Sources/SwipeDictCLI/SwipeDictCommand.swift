import ArgumentParser
import SwipeDictCommandLine
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat

@main
struct SwipeDictCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "swipedict",
    abstract: "Build, inspect, query and verify SwipeDict dictionary blobs for swipe keyboards, and decode swipes.",
    discussion: """
      Exit codes: 0 success, 1 error (bad input, damaged blob), 64 usage; `query` exits 3 \
      when a word is not found or a query finds nothing (see `swipedict query --help`).

      Examples:
        swipedict build corpora/en.tsv.zst --layout corpora/layouts/qwerty-en.json -o build/en.swipedict
        swipedict inspect build/en.swipedict
        swipedict query build/en.swipedict hello --json
        swipedict verify build/en.swipedict
        swipedict synth build/en.swipedict --sample 1000 --seed 7 -o swipes.jsonl
        swipedict decode build/en.swipedict --swipes swipes.jsonl
        swipedict draw build/en.swipedict hello --swipe swipes.jsonl -o hello.svg
        swipedict serve build/en.swipedict
      """,
    version: SwipeDictVersion.string,
    subcommands: [
      BuildCommand.self, InspectCommand.self, QueryCommand.self, VerifyCommand.self,
      PackCommand.self, InstallCommand.self, SynthCommand.self, DecodeCommand.self,
      DrawCommand.self, SwipeStatsCommand.self, DumpCommand.self, DiffCommand.self, UserCommand.self,
      ServeCommand.self,
    ]
  )
}
