import ArgumentParser
import SwipeDictCommandLine
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat

/// `swipedict-bench`: the benchmarks, the load and the stress tests behind `make bench*`,
/// `make user-stress` and `make bench-serve` — tools for measuring SwipeDict, apart from the
/// `swipedict` command a user runs.
@main
struct SwipeDictBenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "swipedict-bench",
    abstract: "Measure SwipeDict: query timings against the peers, the user store under stress, the server under load.",
    discussion: """
      What `make bench`, `make bench-user`, `make user-stress` and `make bench-serve` run \
      (bench/README.md). Exit codes: 0 success, 1 error, 64 usage.

      Examples:
        swipedict-bench queries build/en.swipedict --keyboard
        swipedict-bench queries build/en.swipedict --misspellings typos.tsv --misspellings-only
        swipedict-bench user /tmp/stress.words stress --ops 100000
        swipedict-bench user /tmp/bench.words bench --entries 20000
        swipedict-bench serve-load --port 8080 --blob en --sessions 20
      """,
    version: SwipeDictVersion.string,
    subcommands: [BenchCommand.self, UserCommand.self, ServeLoadCommand.self]
  )
}

/// `swipedict-bench user FILE stress|bench`: the user store's crash test and its timings.
struct UserCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "user",
    abstract: "The user dictionary's crash test (stress) and timings (bench) on a file they create.",
    subcommands: [
      UserStressCommand.self, UserStressWriterCommand.self, UserStressReaderCommand.self, UserBenchCommand.self,
    ]
  )

  @Argument(help: "The user dictionary file the test creates (it must not exist).")
  var file: String
}
