import ArgumentParser
import SwipeDecoder
import SwipeDict
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

      Swipe lines are {"word": "duck", "points": [[x, y, t_ms], ...]} in the blob's layout \
      units ("word" and t_ms optional); `swipedict synth` writes them.

      Examples:
        swipedict synth build/en.swipedict --sample 1000 -o swipes.jsonl
        swipedict decode build/en.swipedict --swipes swipes.jsonl
        swipedict decode build/en.swipedict --swipes swipes.jsonl --json --deadline 50
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
      "A fixed weight of ln(count) against the mean squared distance (key widths²; 0…1000), instead of the default's weight that grows with the swipe's noise (0.02…0.08).",
      valueName: "w"))
  var frequencyWeight: Float?

  @Flag(name: .long, help: "Print JSON Lines, the summary as the last line.")
  var json = false

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
  }

  func run() throws {
    let dictionary = try blob.open()
    let input: [Swipe]
    do {
      input = try SwipeFile.read(path: swipes)
    } catch {
      throw failure(error)
    }
    guard dictionary.contents.section(.features) != nil else {
      throw failure(
        "\(blob.blob) has no swipe features (format \(dictionary.formatVersion)); rebuild it "
          + "with this version of swipedict build")
    }
    var options = SwipeDecoder.Options()
    options.resultCount = top
    if let frequencyWeight {
      options.frequencyWeight = frequencyWeight
      options.weightPerDistance = 0
    }
    let decoder = SwipeDecoder(dictionary: dictionary, options: options)
    var session = decoder.makeSession()
    var summary = DecodeSummary(resultCount: top)
    let clock = ContinuousClock()
    for swipe in input {
      for point in swipe.points {
        let start = clock.now
        session.add(point)
        summary.addTimes.append(milliseconds(clock.now - start))
      }
      let lift = clock.now
      let result = session.end(deadline: deadline.map { lift + .microseconds(Int64($0 * 1000)) })
      let wait = milliseconds(clock.now - lift)
      summary.record(result, truth: swipe.word, wait: wait)
      print(json ? jsonLine(swipe, result, wait) : textLine(swipe, result, wait))
    }
    if json {
      print(JSONValue.object([("summary", summary.json)]).text)
    } else {
      print(summary.text)
    }
  }

  private func textLine(_ swipe: Swipe, _ result: SwipeDecoding, _ wait: Double) -> String {
    let words = result.words.map(\.word).joined(separator: " ")
    var line = swipe.word.map { "\($0)\t→ " } ?? ""
    line += words.isEmpty ? "(nothing)" : words
    line += "\t\(fixedDecimal(wait, places: 2)) ms"
    if !result.isComplete { line += " (deadline: \(result.matchedCount) of \(result.candidateCount))" }
    if let truth = swipe.word, result.words.first?.word != truth {
      line += result.words.contains { $0.word == truth } ? "\t(not first)" : "\t(missed)"
    }
    return line
  }

  private func jsonLine(_ swipe: Swipe, _ result: SwipeDecoding, _ wait: Double) -> String {
    JSONValue.object([
      ("word", swipe.word.map { .string($0) } ?? .null),
      ("top", .array(result.words.map { .string($0.word) })),
      ("scores", .array(result.words.map { .double(rounded(Double($0.score), places: 4)) })),
      (
        "distances",
        .array(result.words.map { .double(rounded(Double($0.distance), places: 4)) })
      ),
      ("ms", .double(rounded(wait, places: 3))),
      ("candidates", .number(result.candidateCount)),
      ("complete", .bool(result.isComplete)),
    ]).text
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
  var incomplete = 0
  var waits: [Double] = []
  var addTimes: [Double] = []
  var candidates: [Int] = []

  mutating func record(_ result: SwipeDecoding, truth: String?, wait: Double) {
    swipes += 1
    waits.append(wait)
    candidates.append(result.candidateCount)
    if !result.isComplete { incomplete += 1 }
    guard let truth else { return }
    withTruth += 1
    if result.words.first?.word == truth { top1 += 1 }
    if result.words.contains(where: { $0.word == truth }) { topN += 1 }
  }

  var json: JSONValue {
    var fields: [(String, JSONValue)] = [("swipes", .number(swipes))]
    if withTruth > 0 {
      fields.append(("withTruth", .number(withTruth)))
      fields.append(("top1", .double(rounded(percent(top1), places: 2))))
      fields.append(("top\(resultCount)", .double(rounded(percent(topN), places: 2))))
    }
    fields.append(("incomplete", .number(incomplete)))
    fields.append(("waitMs", percentiles(waits)))
    fields.append(("addPointMs", percentiles(addTimes)))
    fields.append(("candidates", percentiles(candidates.map(Double.init))))
    return .object(fields)
  }

  var text: String {
    var lines = ["\(grouped(swipes)) swipes"]
    if withTruth > 0 {
      lines.append(
        "accuracy: top-1 \(fixedDecimal(percent(top1), places: 2)) %, top-\(resultCount) \(fixedDecimal(percent(topN), places: 2)) % "
          + "(\(grouped(withTruth)) with a true word)")
    }
    if incomplete > 0 { lines.append("deadline reached in \(grouped(incomplete)) swipes") }
    lines.append("wait after lift (ms): " + describe(waits))
    lines.append("per added point (ms): " + describe(addTimes))
    lines.append("candidates after the filters: " + describe(candidates.map(Double.init), integers: true))
    return lines.joined(separator: "\n")
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

/// A duration in milliseconds.
private func milliseconds(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}
