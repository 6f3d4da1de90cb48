import ArgumentParser
import Foundation
import SwipeDecoder
import SwipeDict
import SwipeDictCommandLine
import SwipeDictCompiler
import SwipeDictFiles
import SwipeDictTools

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
      over the word IDs. --rate, --jitter, --corner-cut, --aim-limit and --speed vary the \
      model, to check that a decoder holds up on swipes unlike those it was tuned on. A swipe \
      has at most 10,000 points (a longer one is sampled more coarsely) and a word at most \
      1,000 keys.

      --model draws with a human swipe model fitted to real swipes (`swipedict swipestats \
      --fit-model`; corpora/swipe-models/hws-dev.json is fitted to How-We-Swipe swipes): \
      per-key aims with biases, hooks at touch-down, loops at doubled letters, bowed \
      stretches, overshoot, per-swipe speed, uneven sampling (docs/synthesis.md). --rate, \
      --jitter, --speed and --corner-cut change the model's figures; --noise and \
      --aim-limit do not apply. --words-from swipes the word of each line of a swipe file, \
      matched to the blob ignoring case, accents and apostrophes ("im" → "I'm"). \
      --sentences swipes every word of a text file that the blob has, in order, each line \
      with "previous": the word right before it when only spaces separate them (none at a \
      line's start or after punctuation), for `decode --context`.

      Examples:
        swipedict synth build/en.swipedict --words hello world
        swipedict synth build/en.swipedict --sample 1000 --seed 7 -o swipes.jsonl
        swipedict synth build/en.swipedict --sample 500 --by uniform --noise 0.4
        swipedict synth build/en.swipedict --sample 500 --rate 120 --jitter 0.08 --corner-cut 0.45
        swipedict synth build/en.swipedict --words-from real.jsonl --model corpora/swipe-models/hws-dev.json
        swipedict synth en-pairs.swipedict --sentences prose.txt --model corpora/swipe-models/hws-dev.json
      """)

  enum Weighting: String, ExpressibleByArgument, CaseIterable {
    case frequency, uniform
  }

  @OptionGroup var blob: BlobArgument

  @OptionGroup var user: UserWordsOption

  @Option(
    name: .long, parsing: .upToNextOption,
    help: ArgumentHelp(
      "Words to swipe (each must be in the blob, case and accents as stored).", valueName: "word"))
  var words: [String] = []

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "Swipe N words drawn from the blob (with replacement; 1…100,000).", valueName: "N"))
  var sample: Int?

  @Option(name: .long, help: "How --sample draws words: frequency (default) or uniform.")
  var by: Weighting?

  @Option(
    name: .long, parsing: .unconditional,
    help: "The random seed: the same seed gives the same swipes.")
  var seed: UInt64 = 1

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "σ of the aim around each key center, in key widths (0…10).", valueName: "σ"))
  var noise: Double = 0.25

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp("Samples per second (1…1000; default 60).", valueName: "Hz"))
  var rate: Double?

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "σ of the per-sample sensor noise, in key widths (0…10; default 0.02).", valueName: "σ"))
  var jitter: Double?

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "The largest share of a segment cut at each corner, from 40 % of it (default 0.1…0.35; the cap of 0.6 key widths scales along).",
      valueName: "fraction"))
  var cornerCut: Double?

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "The farthest an aim may be from its key center, in key widths (0…10; default 0.6).",
      valueName: "u"))
  var aimLimit: Double?

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "Swipe speed: 2 takes half the time, 0.5 twice as long (0.1…10).", valueName: "factor"))
  var speed: Double?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Swipe the word of each swipe in this JSON Lines file, matched to the blob ignoring case, accents and apostrophes.",
      valueName: "file"))
  var wordsFrom: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Swipe every word of this text file (one sentence or passage per line), each with the word before it as \"previous\".",
      valueName: "file"))
  var sentences: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Draw with this human swipe model (JSON, from `swipestats --fit-model`) instead of the default model.",
      valueName: "file"))
  var model: String?

  @OptionGroup var output: OutputOption

  /// The most swipes one run writes (`--sample`): about 150 MB of output.
  static let maxSample = 100_000

  func validate() throws {
    if [!words.isEmpty, sample != nil, wordsFrom != nil, sentences != nil].filter({ $0 }).count != 1 {
      throw ValidationError("give one of --words W..., --sample N, --words-from FILE or --sentences FILE")
    }
    if model != nil {
      if aimLimit != nil {
        throw ValidationError("--aim-limit does not apply with --model (the model has its aims)")
      }
      if noise != 0.25 {
        throw ValidationError("--noise does not apply with --model (the model has its aims)")
      }
    }
    if let sample { try checkRange("--sample", sample, in: 1...Self.maxSample) }
    if by != nil && sample == nil { throw ValidationError("--by applies to --sample only") }
    try checkRange("--noise", noise, in: 0...10, unit: "key widths")
    if let rate { try checkRange("--rate", rate, in: 1...1000, unit: "Hz") }
    if let jitter { try checkRange("--jitter", jitter, in: 0...10, unit: "key widths") }
    if let cornerCut, !(cornerCut.isFinite && cornerCut >= 0 && cornerCut < 0.5) {
      throw ValidationError("--corner-cut must be at least 0 and below 0.5, not \(cornerCut)")
    }
    if let aimLimit { try checkRange("--aim-limit", aimLimit, in: 0...10, unit: "key widths") }
    if let speed { try checkRange("--speed", speed, in: 0.1...10, unit: "") }
  }

  /// The synthesizer with the model's options; with a human model, --rate, --jitter and
  /// --speed change its sampling rate, sensor noise and durations.
  func synthesizer(_ layout: KeyboardLayout, humanModel: HumanSwipeModel?) -> SwipeSynthesizer {
    if var humanModel {
      if let rate { humanModel.timing.sampleRate = rate }
      if let jitter { humanModel.jitter = jitter }
      if let speed {
        humanModel.timing.baseDuration /= speed
        humanModel.timing.perKeyDuration /= speed
      }
      if let cornerCut { humanModel.cornerCut = cornerCut }
      return SwipeSynthesizer(layout: layout, humanModel: humanModel)
    }
    var synthesizer = SwipeSynthesizer(layout: layout, noise: noise)
    if let rate { synthesizer.sampleRate = rate }
    if let jitter { synthesizer.jitter = jitter }
    if let cornerCut {
      // The cap on a cut's length (0.6 key widths at the default 0.35) scales along.
      synthesizer.maxCornerCut *= cornerCut / synthesizer.cornerCut.upperBound
      synthesizer.cornerCut = (cornerCut * 0.4)...cornerCut
    }
    if let aimLimit { synthesizer.targetLimit = aimLimit }
    if let speed {
      let base = synthesizer.baseDuration
      let perKey = synthesizer.perKeyDuration
      synthesizer.baseDuration = (base.lowerBound / speed)...(base.upperBound / speed)
      synthesizer.perKeyDuration = (perKey.lowerBound / speed)...(perKey.upperBound / speed)
    }
    return synthesizer
  }

  func run() throws {
    try output.refuseOverwriting(inputs)
    let humanModel: HumanSwipeModel?
    do {
      humanModel = try model.map { path throws(HumanSwipeModelError) in
        try HumanSwipeModel.read(path: path)
      }
    } catch {
      throw failure(error)
    }
    let dictionary = try blob.open()
    let layout = dictionary.layout
    let userWords = try user.words()
    var chosen: [String] = []
    var previousWords: [String?] = []
    if let sentences {
      (chosen, previousWords) = try words(ofSentences: sentences, in: dictionary)
    } else if let wordsFrom {
      chosen = try words(from: wordsFrom, in: dictionary, userWords: userWords)
    } else if let sample {
      let weighting: WordSampler.Weighting = by == .uniform ? .uniform : .frequency
      let sampler = WordSampler(dictionary: dictionary, weighting: weighting)
      chosen = sampler.sample(sample, seed: seed).compactMap { dictionary.word(for: $0) }
      if chosen.isEmpty { throw failure("\(blob.blob) has no words to sample") }
    } else {
      var problems: [String] = []
      for word in words {
        if let id = dictionary.id(of: word), let stored = dictionary.word(for: id) {
          chosen.append(stored)
        } else if let own = Self.userWord(word, in: userWords, layout: layout) {
          chosen.append(own)
        } else {
          problems.append(missing(word, in: dictionary, layout: layout))
        }
      }
      if let last = problems.popLast() {
        for problem in problems { printError("error: \(problem)") }
        throw failure(last)
      }
    }
    var swipes: [Swipe]
    do {
      swipes = try synthesizer(layout, humanModel: humanModel).swipes(for: chosen, seed: seed)
    } catch {
      throw failure("\(error)")
    }
    for (i, previous) in previousWords.enumerated() where i < swipes.count { swipes[i].previous = previous }
    try output.write(SwipeFile.text(for: swipes), protecting: inputs)
  }

  /// The files this run reads, which its output must not replace.
  private var inputs: [String] { [blob.blob] + [wordsFrom, sentences, model, user.path].compactMap { $0 } }

  /// The stored words of the swipes in `path`, in file order (see
  /// ``LabelMatching/storedWord(for:in:)``); swipes without a word or whose word the blob
  /// does not have are left out with a warning.
  /// `--sentences`: every word of the text that is a word of the blob (as stored, matched
  /// ignoring case, accents and apostrophes), with the word before it as written.
  private func words(ofSentences path: String, in dictionary: SwipeDictionary) throws -> ([String], [String?]) {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
      throw failure("\(path): cannot read\n  hint: check the path and the file's permissions")
    }
    guard let text = String(validatingUTF8: data) else {
      throw failure("\(path): not UTF-8 text\n  hint: save the file as UTF-8")
    }
    var chosen: [String] = []
    var previous: [String?] = []
    var missing: [String] = []
    for line in text.split(whereSeparator: \.isNewline) {
      for (word, before) in SentenceWords.split(String(line)) {
        guard let stored = LabelMatching.storedWord(for: word, in: dictionary) else {
          missing.append(word)
          continue
        }
        chosen.append(stored)
        previous.append(before)
      }
    }
    if !missing.isEmpty {
      let shown = missing.prefix(10).map { "\"\($0)\"" }.joined(separator: ", ")
      printError(
        "warning: \(path): \(missing.count) words are not in \(blob.blob), even ignoring case, "
          + "accents and apostrophes; left out (the next word keeps them as its previous): \(shown)"
          + (missing.count > 10 ? ", …" : ""))
    }
    guard !chosen.isEmpty else {
      throw failure("\(path): no word of \(blob.blob) in the text\n  hint: --sentences takes lines of running text")
    }
    guard chosen.count <= Self.maxSample else {
      throw failure(
        "\(path): \(chosen.count) words, more than the \(grouped(Self.maxSample)) one run writes\n"
          + "  hint: split the file")
    }
    return (chosen, previous)
  }

  /// `word` as the user's dictionary has it (added or learned, typeable on the layout), or `nil`.
  private static func userWord(_ word: String, in userWords: UserWords?, layout: KeyboardLayout) -> String? {
    guard let entry = userWords?.entry(for: word), entry.kind != .blocked, layout.keyPath(for: entry.word) != nil
    else { return nil }
    return entry.word
  }

  private func words(from path: String, in dictionary: SwipeDictionary, userWords: UserWords?) throws -> [String] {
    let input: [Swipe]
    do {
      input = try SwipeFile.read(path: path)
    } catch {
      throw failure(error)
    }
    var chosen: [String] = []
    var unlabelled = 0
    var missing: [String] = []
    for swipe in input {
      guard let label = swipe.word else {
        unlabelled += 1
        continue
      }
      if let word = LabelMatching.storedWord(for: label, in: dictionary) {
        chosen.append(word)
      } else if let own = Self.userWord(label, in: userWords, layout: dictionary.layout) {
        chosen.append(own)
      } else {
        missing.append(label)
      }
    }
    if unlabelled > 0 {
      printError("warning: \(path): \(unlabelled) swipes have no word; left out")
    }
    if !missing.isEmpty {
      let shown = missing.prefix(10).map { "\"\($0)\"" }.joined(separator: ", ")
      printError(
        "warning: \(path): \(missing.count) words are not in \(blob.blob), even ignoring case, "
          + "accents and apostrophes; left out: \(shown)\(missing.count > 10 ? ", …" : "")")
    }
    guard !chosen.isEmpty else {
      throw failure(
        "\(path): none of its \(input.count) swipes has a word of \(blob.blob)\n"
          + #"  hint: --words-from takes swipe lines with words, {"word": "duck", "points": […]}"#)
    }
    guard chosen.count <= Self.maxSample else {
      throw failure(
        "\(path): \(chosen.count) words, more than the \(grouped(Self.maxSample)) one run writes\n"
          + "  hint: split the file")
    }
    return chosen
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
    let own =
      user.path == nil
      ? "\n  hint: to swipe a word of your own, add it to a user dictionary (swipedict user FILE add \(word)) "
        + "and give --user FILE" : ""
    return "\"\(word)\" is not in \(blob.blob)\(hint)\(own)"
  }
}
