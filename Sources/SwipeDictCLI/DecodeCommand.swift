import ArgumentParser
import SwipeDecoder
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
import SwipeDictTools

struct DecodeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "decode",
    abstract: "Decode swipes (JSON Lines) into their most likely words.",
    discussion: """
      Each swipe is fed to the decoder point by point, as a keyboard would while the finger \
      moves, then ended as when it lifts. Per swipe it prints the top words with their \
      scores and "ms", the time from the lift to the answer (the wait a user feels). Where \
      the file gives the true words, it ends with the top-1 and top-4 accuracy, the wait's \
      percentiles and the time per added point.

      Accuracy is given twice: against the word exactly as the file spells it, and ignoring \
      case and apostrophes (a label "im" is right when "I'm" comes back), each with a 95 % \
      Wilson interval. Words that differ only by case or apostrophes take one place in the \
      top list, in their most frequent form.

      --explain tells, below each swipe, where its word went: each form of the word in the \
      blob (case, accent and apostrophe variants), the filters' measured values against \
      their limits, the DTW distance, the prior and the rank it has among all candidates, \
      beside the words shown. --word explains another word; --misses keeps only the swipes \
      whose word is not first.

      --set NAME=VALUE changes one of the decoder's parameters for the run (repeatable; \
      the last of a name wins): start-radius, end-radius (0…20 key widths), direction \
      (0…180°), direction-min-length (the direction filter applies to words at least this \
      long, 0…100 key widths), length-low, length-high (0…10, expected ÷ swiped length), length-slack \
      (0…100 key widths), max-point-cost (0.01…10⁶ key widths²), frequency-weight (the \
      search's, 0…1000), pool (the words the search keeps for the ranking, 1…1000), the \
      ranking's location-weight, shape-weight (0…1000), length-weight (−1000…1000) and \
      noise-floor (0.0001…100), context-weight (0…100). docs/decoder.md says what each does \
      and how its default was chosen.

      Swipe lines are {"word": "duck", "points": [[x, y, t_ms], ...]} in the blob's layout \
      units ("word" and t_ms optional); `swipedict synth` writes them. A line that is not \
      a valid swipe (not JSON, no points, a NaN, a time that runs backwards) is skipped \
      with a warning and named by its line number in the summary; --strict stops at the \
      first instead. A time at most 10 ms before the one of the point before it is sensor \
      jitter: it is read as that time, not refused. A line may name the \
      word before the swipe in its sentence, "previous": "a"; --context then ranks each \
      swipe's words by their count after that word, from the blob's word pairs (a blob \
      built with --bigrams; docs/context.md). The context is made before the lift, as a \
      keyboard makes it when the previous word is committed: "ms" does not include it.

      --user FILE merges a user dictionary (`swipedict user`; docs/user-dictionary.md): \
      words the user blocked never come back, uses raise a word, and added or learned \
      words the blob lacks are swiped like its words (on the blob's layout). With --with, \
      --user and --context reach every language (a language without word pairs ranks by \
      frequency alone).

      Examples:
        swipedict synth build/en.swipedict --sample 1000 -o swipes.jsonl
        swipedict decode build/en.swipedict --swipes swipes.jsonl
        swipedict decode build/en.swipedict --swipes swipes.jsonl --json --deadline 50
        swipedict decode en-pairs.swipedict --swipes sentences.jsonl --context
        swipedict decode build/en.swipedict --swipes names.jsonl --user my.words
        swipedict decode build/en.swipedict --swipes ../shared/swipes/hws-dev.jsonl --explain --misses
        swipedict decode build/en.swipedict --swipes s.jsonl --explain --word hello
        swipedict decode build/en.swipedict --swipes s.jsonl --set direction=45 --set max-point-cost=4
        swipedict decode build/en.swipedict --with build/de-qwerty.swipedict:0.5 --swipes s.jsonl

      --with decodes against several languages at once, as a bilingual keyboard does: \
      each blob (built for the same layout) is a language named after its file, with a \
      weight on its words' counts (PATH:WEIGHT; 1 when left out; the first blob's is 1). \
      The words of all languages meet in one ranking; each line names their languages.
      """)

  @OptionGroup var blob: BlobArgument

  @Option(name: .long, help: ArgumentHelp("The swipes, one JSON object per line.", valueName: "file"))
  var swipes: String

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "Stop matching this many milliseconds after the lift (at most 60000).", valueName: "ms"))
  var deadline: Double?

  @Option(
    name: .long, parsing: .unconditional,
    help: "How many words to return per swipe (1…1000).")
  var top: Int = 4

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "Rank by the thesis's linear score, w × ln(count) − mean squared distance (key widths²; 0…1000), instead of the likelihood model.",
      valueName: "w"))
  var frequencyWeight: Float?

  @Flag(name: .long, help: "Print JSON Lines, the summary as the last line.")
  var json = false

  @Flag(
    name: .long,
    help: "Stop at the first invalid swipe line instead of skipping it with a warning.")
  var strict = false

  @Option(
    name: .customLong("set"),
    help: ArgumentHelp("Change a decoder parameter for this run (repeatable; see above).", valueName: "name=value"))
  var settings: [String] = []

  @Flag(
    name: .long,
    help: "Rank each swipe's words by its \"previous\" word, from the blob's word pairs (built with --bigrams).")
  var context = false

  @Option(
    name: .long, parsing: .unconditional,
    help: ArgumentHelp(
      "With --context: the weight λ of the word pairs against the words' own counts (0…0.999; default 0.8).",
      valueName: "λ"))
  var pairWeight: Double?

  @OptionGroup var user: UserWordsOption

  @Flag(name: .long, help: "Explain where each swipe's word went (filters, distance, prior, rank).")
  var explain = false

  @Option(
    name: .long,
    help: ArgumentHelp("With --explain: explain this word instead of each swipe's own.", valueName: "word"))
  var word: String?

  @Flag(
    name: .long,
    help: "Print only the swipes whose word is not first (ignoring case and apostrophes); the summary counts all.")
  var misses = false

  @OptionGroup var otherLanguages: LanguagesOption

  func validate() throws {
    try checkRange("--top", top, in: 1...1000)
    if let deadline {
      // A deadline becomes whole microseconds of a Duration: bounded so that it always fits.
      guard deadline.isFinite, deadline > 0, deadline <= 60_000 else {
        throw ValidationError(
          "--deadline must be more than 0 and at most 60000 milliseconds, not \(deadline)")
      }
    }
    if let frequencyWeight {
      try checkRange("--frequency-weight", Double(frequencyWeight), in: 0...1000)
    }
    var check = SwipeDecoder.Options()
    try DecoderSetting.apply(try settings.map(DecoderSetting.init(parsing:)), to: &check)
    if word != nil, !explain { throw ValidationError("--word applies to --explain only") }
    if !otherLanguages.isEmpty, explain { throw ValidationError("--explain works on one blob, not with --with") }
    if let pairWeight {
      guard context else { throw ValidationError("--pair-weight applies to --context only") }
      try checkRange("--pair-weight", pairWeight, in: 0...0.999)
    }
    if let word, word.isEmpty || word.unicodeScalars.count > 64 {
      throw ValidationError("--word must have 1 to 64 characters")
    }
  }

  func run() throws {
    var dictionary = try blob.open()
    // With --with, every language takes them (runMultilingual), once.
    if otherLanguages.isEmpty { try user.apply(to: &dictionary) }
    let contents: SwipeFile.Contents
    do {
      contents = try SwipeFile.read(path: swipes, skippingInvalidLines: !strict)
    } catch {
      throw failure(error)
    }
    for skipped in contents.skipped {
      // `FILE:LINE:COLUMN: what is wrong — skipped`, the hint on the next line.
      var lines = SwipeDictCommandLine.describe(skipped).split(separator: "\n", maxSplits: 1).map(String.init)
      lines[0] += " — skipped (--strict stops here)"
      printError("warning: " + lines.joined(separator: "\n"))
    }
    let input = zip(contents.swipes, contents.lines).map { (swipe: $0, line: $1) }
    guard dictionary.contents.section(.features) != nil else {
      throw failure(
        "\(blob.blob) has no swipe features (format \(dictionary.formatVersion)); rebuild it "
          + "with this version of swipedict build")
    }
    var options = SwipeDecoder.Options()
    options.resultCount = top
    if let frequencyWeight {
      options.frequencyWeight = frequencyWeight
      options.ranking = nil
    }
    try DecoderSetting.apply(try settings.map(DecoderSetting.init(parsing:)), to: &options)
    if !otherLanguages.isEmpty {
      return try runMultilingual(dictionary, input: input, contents: contents, options: options)
    }
    if context, !dictionary.hasBigrams {
      throw failure(
        "\(blob.blob) has no word pairs for --context\n  hint: build it with --bigrams FILE (w1 w2<TAB>count lines"
          + " whose words are words of the blob)")
    }
    let decoder = SwipeDecoder(dictionary: dictionary, options: options)
    // The heap a session adds while decoding (its buffers, kept between swipes), from
    // /proc/self/smaps: private dirty anonymous memory before the session and after the
    // last swipe (Linux; left out elsewhere).
    let heapBefore = ProcessMemory.current(mappingsOf: blob.blob)?.anonymousDirty
    var session = decoder.makeSession()
    var summary = DecodeSummary(resultCount: top, contents: contents)
    summary.frequencyScale = dictionary.frequencyScale
    for (swipe, line) in input {
      // Made when the previous word was committed, before the swipe: not part of the wait.
      let wordContext =
        context
        ? swipe.previous.map {
          dictionary.context(after: $0, pairWeight: pairWeight ?? WordContext.defaultPairWeight)
        } ?? .empty : .empty
      let (result, wait) = timed(
        swipe, &summary, add: { session.add($0) }, end: { session.end(context: wordContext, deadline: $0) })
      summary.record(result, truth: swipe.word, wait: wait)
      if misses, let truth = swipe.word, let first = result.words.first,
        variantKey(first.word) == variantKey(truth)
      {
        continue
      }
      let explained = (word ?? swipe.word).flatMap { target in
        explain
          ? (
            target,
            decoder.explain(
              swipe.points, word: target, context: wordContext,
              deadline: deadline.map { .now + .microseconds(Int64($0 * 1000)) })
          )
          : nil
      }
      if json {
        print(jsonLine(swipe, line: line, result, wait, explained: explained?.1))
      } else {
        print(textLine(swipe, result, wait))
        if let (target, explanation) = explained {
          print(explanationText(target, explanation, linear: options.ranking == nil))
        }
      }
    }
    if let heapBefore, let after = ProcessMemory.current(mappingsOf: blob.blob)?.anonymousDirty {
      summary.heapGrowthKB = max(0, after - heapBefore)
    }
    withExtendedLifetime(session) {}
    if json {
      print(JSONValue.object([("summary", summary.json)]).text)
    } else {
      print(summary.text)
    }
  }

  /// Feeds a swipe's points to a session, timing each (into `summary`), then ends it with
  /// the deadline counted from the lift; the result and the wait after the lift in ms.
  private func timed<Result>(
    _ swipe: Swipe, _ summary: inout DecodeSummary, add: (SwipePoint) -> Void,
    end: (ContinuousClock.Instant?) -> Result
  ) -> (Result, Double) {
    let clock = ContinuousClock()
    for point in swipe.points {
      let start = clock.now
      add(point)
      summary.addTimes.append(milliseconds(clock.now - start))
    }
    let lift = clock.now
    let result = end(deadline.map { lift + .microseconds(Int64($0 * 1000)) })
    return (result, milliseconds(clock.now - lift))
  }

  /// `decode --with`: the swipes against several languages.
  private func runMultilingual(
    _ first: SwipeDictionary, input: [(swipe: Swipe, line: Int)], contents: SwipeFile.Contents,
    options: SwipeDecoder.Options
  ) throws {
    var languages = try otherLanguages.open(with: first, path: blob.blob)
    try user.apply(to: &languages)
    if context, !languages.members.contains(where: \.dictionary.hasBigrams) {
      throw failure(
        "none of the blobs has word pairs for --context\n  hint: build one with --bigrams FILE (w1 w2<TAB>count"
          + " lines whose words are words of the blob)")
    }
    let members = languages.members
    let decoder = MultilingualDecoder(dictionary: languages, options: options)
    var session = decoder.makeSession()
    var summary = DecodeSummary(resultCount: top, contents: contents)
    var byLanguage = [Int](repeating: 0, count: members.count)
    for (swipe, line) in input {
      // Made when the previous word was committed, before the swipe: not part of the wait.
      let wordContext =
        context
        ? swipe.previous.map {
          languages.context(after: $0, pairWeight: pairWeight ?? WordContext.defaultPairWeight)
        } ?? .empty : .empty
      let (multilingual, wait) = timed(
        swipe, &summary, add: { session.add($0) }, end: { session.end(context: wordContext, deadline: $0) })
      let result = multilingual.merged
      summary.record(result, truth: swipe.word, wait: wait)
      if let first = multilingual.words.first { byLanguage[first.language] += 1 }
      if misses, let truth = swipe.word, let first = result.words.first, variantKey(first.word) == variantKey(truth) {
        continue
      }
      let names = multilingual.words.map { members[$0.language].language }
      if json {
        var text = jsonLine(swipe, line: line, result, wait)
        text.removeLast()  // the closing brace
        print(text + ",\"languages\":" + JSONValue.array(names.map { .string($0) }).text + "}")
      } else {
        print(textLine(swipe, result, wait) + "\t[" + names.joined(separator: " ") + "]")
      }
    }
    let firsts = zip(members, byLanguage).map { "\($0.language) \($1)" }.joined(separator: ", ")
    if json {
      print(JSONValue.object([("summary", summary.json)]).text)
    } else {
      print(summary.text)
      print("first word's language: \(firsts)")
    }
  }

  private func textLine(_ swipe: Swipe, _ result: SwipeDecoding, _ wait: Double) -> String {
    let words = result.words.map(\.word).joined(separator: " ")
    var line = swipe.word.map { "\($0)\t→ " } ?? ""
    line += words.isEmpty ? "(nothing)" : words
    line += "\t\(fixedDecimal(wait, places: 2)) ms"
    if !result.isComplete { line += " (deadline: \(result.matchedCount) of \(result.candidateCount))" }
    if let truth = swipe.word, result.words.first.map({ variantKey($0.word) }) != variantKey(truth) {
      line += result.words.contains { variantKey($0.word) == variantKey(truth) } ? "\t(not first)" : "\t(missed)"
    }
    return line
  }

  /// The explanation below a swipe's line: one block per form of the word, then the words
  /// shown for comparison.
  private func explanationText(_ target: String, _ e: SwipeExplanation, linear: Bool) -> String {
    var lines: [String] = []
    guard !e.forms.isEmpty else {
      return "  \"\(target)\": not in the blob in any case, accent or apostrophe form"
    }
    for form in e.forms {
      var head = "  \"\(form.word)\" (id \(form.id), frequency \(form.frequency)): "
      switch form.verdict {
      case .shown(let place): head += "shown \(ordinal(place))"
      case .outranked: head += "outranked"
      case .displaced:
        head +=
          "would rank within the result, but the search (frequency weight \(fixedDecimal(Double(frequencyWeightUsed), places: 3))) left it out"
      case .merged(let into): head += "shown as \"\(into)\" (same key path, more frequent form)"
      case .filtered(let stage): head += "dropped by the \(stage.rawValue) filter"
      case .outsideBand: head += "outside the DTW's locality band"
      case .blocked: head += "never suggested (marked possibly offensive)"
      }
      if let rank = form.rank { head += "; rank \(grouped(rank)) of \(grouped(e.decoding.candidateCount)) candidates" }
      lines.append(head)
      lines.append("    filters: " + form.filters.checks.map(describe).joined(separator: ", "))
      lines.append(
        "    "
          + scoreText(
            distance: form.distance, shape: form.shapeDistance, lengthRatio: form.lengthRatio, prior: form.prior,
            score: form.score, linear: linear))
    }
    for (i, shown) in e.decoding.words.enumerated() {
      lines.append(
        "    \(i + 1). \(shown.word) (frequency \(shown.frequency)): "
          + scoreText(
            distance: shown.distance, shape: shown.shapeDistance, lengthRatio: shown.lengthRatio, prior: nil,
            score: shown.score, linear: linear))
    }
    return lines.joined(separator: "\n")
  }

  /// The search's frequency weight of this run.
  private var frequencyWeightUsed: Float { frequencyWeight ?? SwipeDecoder.Options().frequencyWeight }

  private func scoreText(
    distance: Float?, shape: Float?, lengthRatio: Float?, prior: Float?, score: Float?, linear: Bool
  ) -> String {
    func number(_ value: Float?) -> String { value.map { fixedDecimal(Double($0), places: 3) } ?? "none" }
    var text = "distance \(number(distance))"
    if !linear { text += ", shape \(number(shape)), length ratio \(number(lengthRatio))" }
    if let prior { text += ", prior \(number(prior))" + (linear ? " (weight × ln count)" : " (ln count)") }
    return text + ", score \(number(score))"
  }

  private func describe(_ check: SwipeFilterReport.Check) -> String {
    let mark = check.passes ? "ok" : "FAILS"
    switch check.stage {
    case .direction:
      let degrees = { (r: Float) in fixedDecimal(Double(r) * 180 / .pi, places: 0) + "°" }
      return "direction \(degrees(check.value)) ≤ \(degrees(check.accepted.upperBound)) \(mark)"
    case .start, .end:
      return "\(check.stage.rawValue) \(kw(check.value)) ≤ \(kw(check.accepted.upperBound)) key widths \(mark)"
    case .length:
      return "length \(kw(check.value)) in \(kw(check.accepted.lowerBound))…\(kw(check.accepted.upperBound)) \(mark)"
    }
  }

  private func kw(_ value: Float) -> String { fixedDecimal(Double(value), places: 2) }

  private func ordinal(_ n: Int) -> String {
    switch n {
    case 1: "1st"
    case 2: "2nd"
    case 3: "3rd"
    default: "\(n)th"
    }
  }

  private func explanationJSON(_ e: SwipeExplanation) -> JSONValue {
    func number(_ value: Float?) -> JSONValue { value.map { .double(rounded(Double($0), places: 4)) } ?? .null }
    return .object([
      (
        "forms",
        .array(
          e.forms.map { form in
            let verdict: String
            switch form.verdict {
            case .shown(let place): verdict = "shown \(place)"
            case .outranked: verdict = "outranked"
            case .displaced: verdict = "displaced"
            case .merged(let into): verdict = "merged into \(into)"
            case .filtered(let stage): verdict = "filtered: \(stage.rawValue)"
            case .outsideBand: verdict = "outside band"
            case .blocked: verdict = "blocked"
            }
            return .object([
              ("word", .string(form.word)), ("id", .number(form.id)), ("frequency", .number(Int(form.frequency))),
              ("verdict", .string(verdict)), ("rank", form.rank.map { .number($0) } ?? .null),
              ("distance", number(form.distance)), ("shape", number(form.shapeDistance)),
              ("lengthRatio", number(form.lengthRatio)), ("prior", number(form.prior)), ("score", number(form.score)),
              (
                "filters",
                .array(
                  form.filters.checks.map {
                    .object([
                      ("stage", .string($0.stage.rawValue)), ("value", number($0.value)),
                      ("low", number($0.accepted.lowerBound)), ("high", number($0.accepted.upperBound)),
                      ("passes", .bool($0.passes)),
                    ])
                  })
              ),
            ])
          })
      )
    ])
  }

  private func jsonLine(
    _ swipe: Swipe, line: Int, _ result: SwipeDecoding, _ wait: Double, explained: SwipeExplanation? = nil
  ) -> String {
    var fields: [(String, JSONValue)] = [
      ("line", .number(line)),
      ("word", swipe.word.map { .string($0) } ?? .null),
      ("top", .array(result.words.map { .string($0.word) })),
      ("scores", .array(result.words.map { .double(rounded(Double($0.score), places: 4)) })),
      (
        "distances",
        .array(result.words.map { .double(rounded(Double($0.distance), places: 4)) })
      ),
      ("shapes", .array(result.words.map { .double(rounded(Double($0.shapeDistance), places: 4)) })),
      ("lengthRatios", .array(result.words.map { .double(rounded(Double($0.lengthRatio), places: 4)) })),
      ("frequencies", .array(result.words.map { .number(Int($0.frequency)) })),
      ("ms", .double(rounded(wait, places: 3))),
      ("candidates", .number(result.candidateCount)),
      ("complete", .bool(result.isComplete)),
    ]
    if let explained { fields.append(("explain", explanationJSON(explained))) }
    return JSONValue.object(fields).text
  }
}

/// Accuracy and latency over a file of swipes.
struct DecodeSummary {
  /// How many words each decoding returns (the "top-N" of the accuracy).
  let resultCount: Int
  var swipes = 0
  var withTruth = 0
  var top1 = 0
  var topN = 0
  /// The same, ignoring case and apostrophes.
  var foldedTop1 = 0
  var foldedTopN = 0
  var incomplete = 0
  var waits: [Double] = []
  var addTimes: [Double] = []
  var candidates: [Int] = []
  /// The growth of private dirty heap while decoding, in kB (smaps), when measured.
  var heapGrowthKB: Int?
  /// What a frequency byte of 255 stands for, ln(count) (one blob; the lines' "frequencies"
  /// are bytes of this scale).
  var frequencyScale: Double?
  /// The invalid lines skipped, in file order.
  let skipped: [SwipeFileError]
  /// How many points' times went back by a few milliseconds and were raised (jitter).
  let raisedTimes: Int

  init(resultCount: Int, contents: SwipeFile.Contents) {
    self.resultCount = resultCount
    skipped = contents.skipped
    raisedTimes = contents.raisedTimes
  }

  mutating func record(_ result: SwipeDecoding, truth: String?, wait: Double) {
    swipes += 1
    waits.append(wait)
    candidates.append(result.candidateCount)
    if !result.isComplete { incomplete += 1 }
    guard let truth else { return }
    withTruth += 1
    if result.words.first?.word == truth { top1 += 1 }
    if result.words.contains(where: { $0.word == truth }) { topN += 1 }
    let bare = variantKey(truth)
    if result.words.first.map({ variantKey($0.word) }) == bare { foldedTop1 += 1 }
    if result.words.contains(where: { variantKey($0.word) == bare }) { foldedTopN += 1 }
  }

  var json: JSONValue {
    var fields: [(String, JSONValue)] = [("swipes", .number(swipes))]
    if withTruth > 0 {
      fields.append(("withTruth", .number(withTruth)))
      // top-1 and top-N (once when N is 1), then the same ignoring case and apostrophes with
      // 95 % Wilson intervals.
      var exact = [("top1", top1)]
      var loose = [("top1Folded", foldedTop1)]
      if resultCount > 1 {
        exact.append(("top\(resultCount)", topN))
        loose.append(("top\(resultCount)Folded", foldedTopN))
      }
      for (name, count) in exact { fields.append((name, .double(rounded(percent(count), places: 2)))) }
      for (name, count) in loose {
        let (low, high) = wilsonInterval(successes: count, trials: withTruth)
        fields.append((name, .double(rounded(percent(count), places: 2))))
        fields.append(
          (
            name + "Interval",
            .array([.double(rounded(low * 100, places: 2)), .double(rounded(high * 100, places: 2))])
          ))
      }
    }
    fields.append(("incomplete", .number(incomplete)))
    fields.append(("skipped", .number(skipped.count)))
    fields.append(
      (
        "skippedLines",
        .array(
          skipped.map {
            .object([
              ("line", .number($0.line)), ("reason", .string($0.reason.rawValue)), ("message", .string($0.message)),
            ])
          })
      ))
    fields.append(("raisedTimes", .number(raisedTimes)))
    fields.append(("waitMs", percentiles(waits)))
    fields.append(("addPointMs", percentiles(addTimes)))
    fields.append(("candidates", percentiles(candidates.map(Double.init))))
    if let heapGrowthKB { fields.append(("heapGrowthKB", .number(heapGrowthKB))) }
    if let frequencyScale { fields.append(("frequencyScale", .double(rounded(frequencyScale, places: 6)))) }
    return .object(fields)
  }

  var text: String {
    var lines = ["\(grouped(swipes)) swipes"]
    if withTruth > 0 {
      let topNExact = resultCount > 1 ? ", top-\(resultCount) \(fixedDecimal(percent(topN), places: 2)) %" : ""
      lines.append(
        "accuracy: top-1 \(fixedDecimal(percent(top1), places: 2)) %\(topNExact) (\(grouped(withTruth)) with a true word)"
      )
      let topNLoose = resultCount > 1 ? ", top-\(resultCount) \(withInterval(foldedTopN))" : ""
      lines.append("ignoring case and apostrophes: top-1 \(withInterval(foldedTop1))\(topNLoose)")
    }
    if incomplete > 0 { lines.append("deadline reached in \(grouped(incomplete)) swipes") }
    if !skipped.isEmpty {
      // Every line, so that each can be found and fixed; the warnings above say what is wrong.
      let named = skipped.map { "\($0.line) (\(Self.describe($0.reason)))" }.joined(separator: ", ")
      lines.append("skipped \(grouped(skipped.count)) invalid \(skipped.count == 1 ? "line" : "lines"): \(named)")
    }
    if raisedTimes > 0 {
      lines.append(
        "times made monotone: \(grouped(raisedTimes)) \(raisedTimes == 1 ? "point" : "points") up to "
          + "\(Int(SwipeFile.timeJitterTolerance)) ms before the point before (jitter)")
    }
    lines.append("wait after lift (ms): " + describe(waits))
    lines.append("per added point (ms): " + describe(addTimes))
    lines.append("candidates after the filters: " + describe(candidates.map(Double.init), integers: true))
    if let heapGrowthKB {
      lines.append("heap grown while decoding: \(grouped(heapGrowthKB)) kB (private dirty, /proc/self/smaps)")
    }
    return lines.joined(separator: "\n")
  }

  /// A few words for a skipped line's problem, for the summary.
  static func describe(_ reason: SwipeFileError.Reason) -> String {
    switch reason {
    case .unreadable: "unreadable"
    case .invalidUTF8: "not UTF-8"
    case .notJSON: "not JSON"
    case .notAnObject: "not an object"
    case .duplicateKey: "a key given twice"
    case .wordNotAString: "word not a string"
    case .previousNotAString: "previous not a string"
    case .missingPoints: "no points"
    case .pointsNotAnArray: "points not an array"
    case .noPoints: "empty point list"
    case .badPoint: "a bad point"
    case .nonFiniteNumber: "a NaN, infinite or huge number"
    case .mixedTimes: "times on some points only"
    case .timeGoesBackwards: "time runs backwards"
    case .lineTooLong: "a line too long"
    case .tooManyPoints: "too many points"
    }
  }

  /// "87.24 % (95 % interval 84.6–89.5)".
  private func withInterval(_ count: Int) -> String {
    let (low, high) = wilsonInterval(successes: count, trials: withTruth)
    return
      "\(fixedDecimal(percent(count), places: 2)) % (95 % interval \(fixedDecimal(low * 100, places: 1))–\(fixedDecimal(high * 100, places: 1)))"
  }

  private func percent(_ count: Int) -> Double {
    withTruth > 0 ? Double(count) * 100 / Double(withTruth) : 0
  }

  private func describe(_ values: [Double], integers: Bool = false) -> String {
    guard !values.isEmpty else { return "-" }
    let s = values.sorted()
    func format(_ value: Double) -> String { integers ? grouped(Int(value)) : fixedDecimal(value, places: 2) }
    return "p50 \(format(quantile(s, 0.5))), p90 \(format(quantile(s, 0.9))), "
      + "p99 \(format(quantile(s, 0.99))), max \(format(s[s.count - 1]))"
  }

  private func percentiles(_ values: [Double]) -> JSONValue {
    guard !values.isEmpty else { return .null }
    let s = values.sorted()
    return .object([
      ("p50", .double(rounded(quantile(s, 0.5), places: 4))),
      ("p90", .double(rounded(quantile(s, 0.9), places: 4))),
      ("p99", .double(rounded(quantile(s, 0.99), places: 4))),
      ("max", .double(rounded(s[s.count - 1], places: 4))),
    ])
  }
}
