import ArgumentParser
import SwipeDecoder
import SwipeDict
import SwipeDictCompiler

struct SynthCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "synth",
    abstract: "Write synthetic human-like swipes for words of a blob, as JSON Lines.",
    discussion: """
      Each line is {"word": …, "points": [[x, y, t_ms], …]} in the blob's layout units: the \
      finger aims at each key with Gaussian noise (σ = --noise key widths), cuts corners, \
      slows down at the ends and at sharp turns, and is sampled at 60 Hz; a swipe lasts about \
      150 ms plus 100 ms per key. The same blob, words and seed give the same output. \
      --sample draws words with replacement, by frequency (as in running text) or uniformly \
      over the word IDs.

      Examples:
        swipedict synth build/en.swipedict --words hello world
        swipedict synth build/en.swipedict --sample 1000 --seed 7 -o swipes.jsonl
        swipedict synth build/en.swipedict --sample 500 --by uniform --noise 0.4
      """)

  enum Weighting: String, ExpressibleByArgument, CaseIterable {
    case frequency, uniform
  }

  @OptionGroup var blob: BlobArgument

  @Option(
    name: .long, parsing: .upToNextOption,
    help: ArgumentHelp(
      "Words to swipe (each must be in the blob, case and accents as stored).", valueName: "word"))
  var words: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp("Swipe N words drawn from the blob (with replacement).", valueName: "N"))
  var sample: Int?

  @Option(name: .long, help: "How --sample draws words: frequency (default) or uniform.")
  var by: Weighting?

  @Option(name: .long, help: "The random seed: the same seed gives the same swipes.")
  var seed: UInt64 = 1

  @Option(
    name: .long,
    help: ArgumentHelp("σ of the aim around each key centre, in key widths.", valueName: "σ"))
  var noise: Double = 0.25

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
  var output: String?

  func validate() throws {
    if words.isEmpty == (sample == nil) {
      throw ValidationError("give either --words W... or --sample N")
    }
    if let sample, sample < 1 { throw ValidationError("--sample must be at least 1") }
    if by != nil && sample == nil { throw ValidationError("--by applies to --sample only") }
    if !noise.isFinite || noise < 0 { throw ValidationError("--noise must be 0 or more") }
  }

  func run() throws {
    let dictionary = try blob.open()
    let layout = dictionary.layout
    var chosen: [String] = []
    if let sample {
      let weighting: WordSampler.Weighting = by == .uniform ? .uniform : .frequency
      let sampler = WordSampler(dictionary: dictionary, weighting: weighting)
      chosen = sampler.sample(sample, seed: seed).compactMap { dictionary.word(for: $0) }
      if chosen.isEmpty { throw failure("\(blob.blob) has no words to sample") }
    } else {
      var problems: [String] = []
      for word in words {
        if let id = dictionary.id(of: word), let stored = dictionary.word(for: id) {
          chosen.append(stored)
        } else {
          problems.append(missing(word, in: dictionary, layout: layout))
        }
      }
      if let last = problems.popLast() {
        for problem in problems { printError("error: \(problem)") }
        throw failure(last)
      }
    }
    let swipes: [Swipe]
    do {
      swipes = try SwipeSynthesizer(layout: layout, noise: noise).swipes(for: chosen, seed: seed)
    } catch {
      throw failure("\(error)")
    }
    let text = SwipeFile.text(for: swipes)
    if let output {
      do {
        try AtomicFile.write(Array(text.utf8), to: output)
      } catch {
        throw failure("\(error)")
      }
    } else {
      print(text, terminator: "")
    }
  }

  /// Why `word` cannot be swiped from this blob, and what it holds instead.
  private func missing(_ word: String, in dictionary: SwipeDictionary, layout: KeyboardLayout)
    -> String
  {
    if layout.keyPath(for: word) == nil,
      let bad = word.unicodeScalars.first(where: { layout.classify($0) == .untypeable })
    {
      return "\"\(word)\" is not in \(blob.blob): '\(bad)' has no key on layout \(layout.name)"
    }
    let similar = dictionary.ids(matchingFolded: word, limit: 3).compactMap {
      dictionary.word(for: $0).map { "\"\($0)\"" }
    }
    let hint = similar.isEmpty ? "" : " (it has \(similar.joined(separator: ", ")))"
    return "\"\(word)\" is not in \(blob.blob)\(hint)"
  }
}
