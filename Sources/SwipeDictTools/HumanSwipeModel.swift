import Foundation
import SwipeDecoder
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat

/// The parameters of human-like swipes, fitted to real swipes (``fit(to:layout:source:command:)``)
/// and drawn by ``SwipeSynthesizer`` when its ``SwipeSynthesizer/humanModel`` is set.
///
/// Lengths are in key widths, times in milliseconds, angles in degrees, probabilities 0…1.
/// The file form is JSON (``jsonText``, ``read(path:)``), one group per line:
///
/// ```json
/// {
///   "format": "swipedict-human-swipe-model", "version": 1,
///   "source": "../shared/swipes/hws-dev.jsonl: 721 swipes …",
///   "command": "swipedict swipestats build/en.swipedict --swipes … --fit-model …",
///   "start": {"biasX": 0.04, "biasY": -0.02, "sigmaX": 0.24, "sigmaY": 0.23},
///   …
/// }
/// ```
///
/// How a swipe over a key path of `n ≥ 2` keys is drawn with it (the rest is the default
/// model's: corner cuts, the speed profile, sampling):
///
/// 1. **Aim.** The first key's target is its center plus ``start`` (a bias and a Gaussian
///    σ per axis), the last key's plus ``end``, the others' plus ``middle``; no target is
///    farther than ``aimLimit`` from its center.
/// 2. **Hook.** With probability ``Hook-swift.struct/probability`` the finger first moves
///    ``Hook-swift.struct/length`` away at about ``Hook-swift.struct/angle`` to either side of
///    the direction of the second key, then turns towards it; otherwise it leaves within a
///    Gaussian ``Hook-swift.struct/wobble`` of that direction.
/// 3. **Loops.** At a doubled letter ("ll" in "hello") the finger draws a full circle with
///    probability ``Loop-swift.struct/probability``, of diameter about
///    ``Loop-swift.struct/size`` (log-normal, σ ``Loop-swift.struct/sizeSpread``).
/// 4. **Stretches.** The finger cuts each corner by up to ``cornerCut`` of the adjoining
///    stretches, as the default model does by 0.35. Each stretch between targets bends
///    sideways by a Gaussian fraction (σ ``bow``) of its length at its middle, and with
///    probability ``Detour-swift.struct/probability`` by ``Detour-swift.struct/size`` more
///    (a detour around a key), but never farther than ``bendLimit`` key widths.
/// 5. **Overshoot.** With probability ``Overshoot-swift.struct/probability`` the finger runs
///    on past the last target, along its last direction, by an exponentially distributed
///    length of mean ``Overshoot-swift.struct/length``.
/// 6. **Time.** A swipe lasts (``Timing-swift.struct/baseDuration`` +
///    ``Timing-swift.struct/perKeyDuration`` × (keys + loops) ^
///    ``Timing-swift.struct/keyExponent``) × e^(σ·N(0,1)), σ =
///    ``Timing-swift.struct/durationSpread``; it is sampled at
///    ``Timing-swift.struct/sampleRate``, each inner sample's time moved by a Gaussian
///    ``Timing-swift.struct/intervalJitter`` (at most 0.45 of a frame) and dropped with
///    probability ``Timing-swift.struct/dropRate`` (touch screens send nothing while the
///    finger rests); every point moves by the Gaussian sensor noise ``jitter``.
public struct HumanSwipeModel: Codable, Sendable, Hashable {
  /// The value of ``format`` in every model file.
  public static let formatName = "swipedict-human-swipe-model"
  /// The version this code reads and writes.
  public static let currentVersion = 1

  /// An aim: where a finger lands around a key's center.
  public struct Aim: Codable, Sendable, Hashable {
    /// The mean horizontal offset (positive to the right).
    public var biasX: Double
    /// The mean vertical offset (positive downwards).
    public var biasY: Double
    /// σ of the horizontal offset.
    public var sigmaX: Double
    /// σ of the vertical offset.
    public var sigmaY: Double

    /// An aim.
    public init(biasX: Double, biasY: Double, sigmaX: Double, sigmaY: Double) {
      self.biasX = biasX
      self.biasY = biasY
      self.sigmaX = sigmaX
      self.sigmaY = sigmaY
    }
  }

  /// The hook at touch-down.
  public struct Hook: Codable, Sendable, Hashable {
    /// How often a swipe starts with a hook.
    public var probability: Double
    /// The hook's angle from the direction of the second key, degrees (each hook ±20°).
    public var angle: Double
    /// How far the finger moves before it turns, key widths (each hook 0.7…1.3 ×).
    public var length: Double
    /// σ of the first direction's angle from the second key when there is no hook, degrees.
    public var wobble: Double

    /// A hook model.
    public init(probability: Double, angle: Double, length: Double, wobble: Double) {
      self.probability = probability
      self.angle = angle
      self.length = length
      self.wobble = wobble
    }
  }

  /// Loops at doubled letters.
  public struct Loop: Codable, Sendable, Hashable {
    /// How often a doubled letter gets a loop.
    public var probability: Double
    /// The loop's median diameter, key widths.
    public var size: Double
    /// σ of the natural logarithm of the diameter.
    public var sizeSpread: Double

    /// A loop model.
    public init(probability: Double, size: Double, sizeSpread: Double) {
      self.probability = probability
      self.size = size
      self.sizeSpread = sizeSpread
    }
  }

  /// Detours: stretches between keys that bend far off the straight line.
  public struct Detour: Codable, Sendable, Hashable {
    /// How often a stretch makes a detour.
    public var probability: Double
    /// How far its middle leaves the chord, as a fraction of the chord's length (each
    /// detour 0.5…1.5 ×, to either side).
    public var size: Double

    /// A detour model.
    public init(probability: Double, size: Double) {
      self.probability = probability
      self.size = size
    }
  }

  /// Running on past the last key.
  public struct Overshoot: Codable, Sendable, Hashable {
    /// How often a swipe overshoots.
    public var probability: Double
    /// The mean overshoot, key widths (exponentially distributed, at most 5 ×).
    public var length: Double

    /// An overshoot model.
    public init(probability: Double, length: Double) {
      self.probability = probability
      self.length = length
    }
  }

  /// Durations and sampling.
  public struct Timing: Codable, Sendable, Hashable {
    /// The fixed part of a swipe's median duration, ms.
    public var baseDuration: Double
    /// The median duration of a one-key swipe above the fixed part, ms: a swipe over `n`
    /// keys (loops count as keys) lasts about `baseDuration + perKeyDuration × n ^ keyExponent`.
    public var perKeyDuration: Double
    /// How the duration grows with the keys (1: in proportion).
    public var keyExponent: Double
    /// σ of the natural logarithm of a swipe's duration around that median.
    public var durationSpread: Double
    /// Samples per second.
    public var sampleRate: Double
    /// σ of each inner sample's time around its frame, ms.
    public var intervalJitter: Double
    /// How often an inner sample is missing.
    public var dropRate: Double

    /// A timing model.
    public init(
      baseDuration: Double, perKeyDuration: Double, keyExponent: Double, durationSpread: Double,
      sampleRate: Double, intervalJitter: Double, dropRate: Double
    ) {
      self.baseDuration = baseDuration
      self.perKeyDuration = perKeyDuration
      self.keyExponent = keyExponent
      self.durationSpread = durationSpread
      self.sampleRate = sampleRate
      self.intervalJitter = intervalJitter
      self.dropRate = dropRate
    }
  }

  /// Always ``formatName``.
  public var format: String
  /// The format's version (``currentVersion``).
  public var version: Int
  /// Where the fitted numbers come from (the swipes, how many).
  public var source: String
  /// The command that wrote the model.
  public var command: String
  /// The aim at the first key.
  public var start: Aim
  /// The aim at the keys between the first and the last.
  public var middle: Aim
  /// The aim at the last key.
  public var end: Aim
  /// The farthest a target may be from its key's center, key widths.
  public var aimLimit: Double
  /// The largest fraction of each stretch next to a corner that the finger cuts off
  /// (each cut 0.4…1 × this, at most 0.6 × this / 0.35 key widths): 0 turns sharply on
  /// the target, the default model cuts 0.35.
  public var cornerCut: Double
  /// σ of each stretch's sideways bend at its middle, as a fraction of its length.
  public var bow: Double
  /// Detours between keys.
  public var detour: Detour
  /// The farthest a bow or detour takes a stretch's middle off its chord, key widths
  /// (people's detours stay within about a key of the line however long the stretch).
  public var bendLimit: Double
  /// The hook at touch-down.
  public var hook: Hook
  /// Loops at doubled letters.
  public var loop: Loop
  /// Running on past the last key.
  public var overshoot: Overshoot
  /// Durations and sampling.
  public var timing: Timing
  /// σ of the per-sample sensor noise, key widths.
  public var jitter: Double

  /// A model; ``format`` and ``version`` are the current ones.
  public init(
    source: String, command: String, start: Aim, middle: Aim, end: Aim, aimLimit: Double,
    cornerCut: Double, bow: Double, detour: Detour, bendLimit: Double, hook: Hook, loop: Loop,
    overshoot: Overshoot, timing: Timing, jitter: Double
  ) {
    format = Self.formatName
    version = Self.currentVersion
    self.source = source
    self.command = command
    self.start = start
    self.middle = middle
    self.end = end
    self.aimLimit = aimLimit
    self.cornerCut = cornerCut
    self.bow = bow
    self.detour = detour
    self.bendLimit = bendLimit
    self.hook = hook
    self.loop = loop
    self.overshoot = overshoot
    self.timing = timing
    self.jitter = jitter
  }

  /// The starting point of a fit: the default synthesizer's figures, no hooks, loops or
  /// overshoot.
  public static let neutral = HumanSwipeModel(
    source: "", command: "",
    start: Aim(biasX: 0, biasY: 0, sigmaX: 0.25, sigmaY: 0.25),
    middle: Aim(biasX: 0, biasY: 0, sigmaX: 0.25, sigmaY: 0.25),
    end: Aim(biasX: 0, biasY: 0, sigmaX: 0.25, sigmaY: 0.25), aimLimit: 2, cornerCut: 0.35,
    bow: 0, detour: Detour(probability: 0, size: 0.3), bendLimit: 1,
    hook: Hook(probability: 0, angle: 90, length: 0.5, wobble: 5),
    loop: Loop(probability: 0, size: 0.6, sizeSpread: 0.3),
    overshoot: Overshoot(probability: 0, length: 0.3),
    timing: Timing(
      baseDuration: 150, perKeyDuration: 100, keyExponent: 1, durationSpread: 0, sampleRate: 60,
      intervalJitter: 0, dropRate: 0),
    jitter: 0.02)

  // MARK: - Validation

  /// The allowed range of each number, by its path in the JSON object.
  static var ranges: [(path: String, range: ClosedRange<Double>, value: WritableKeyPath<HumanSwipeModel, Double>)] {
    [
      ("start.biasX", -5...5, \.start.biasX), ("start.biasY", -5...5, \.start.biasY),
      ("start.sigmaX", 0...5, \.start.sigmaX), ("start.sigmaY", 0...5, \.start.sigmaY),
      ("middle.biasX", -5...5, \.middle.biasX), ("middle.biasY", -5...5, \.middle.biasY),
      ("middle.sigmaX", 0...5, \.middle.sigmaX), ("middle.sigmaY", 0...5, \.middle.sigmaY),
      ("end.biasX", -5...5, \.end.biasX), ("end.biasY", -5...5, \.end.biasY),
      ("end.sigmaX", 0...5, \.end.sigmaX), ("end.sigmaY", 0...5, \.end.sigmaY),
      ("aimLimit", 0...10, \.aimLimit), ("cornerCut", 0...0.49, \.cornerCut),
      ("bow", 0...1, \.bow), ("detour.probability", 0...1, \.detour.probability),
      ("detour.size", 0...1, \.detour.size), ("bendLimit", 0...5, \.bendLimit),
      ("hook.probability", 0...1, \.hook.probability), ("hook.angle", 0...180, \.hook.angle),
      ("hook.length", 0...5, \.hook.length), ("hook.wobble", 0...90, \.hook.wobble),
      ("loop.probability", 0...1, \.loop.probability), ("loop.size", 0...5, \.loop.size),
      ("loop.sizeSpread", 0...2, \.loop.sizeSpread),
      ("overshoot.probability", 0...1, \.overshoot.probability),
      ("overshoot.length", 0...5, \.overshoot.length),
      ("timing.baseDuration", 0...60_000, \.timing.baseDuration),
      ("timing.perKeyDuration", 0...60_000, \.timing.perKeyDuration),
      ("timing.keyExponent", 0...3, \.timing.keyExponent),
      ("timing.durationSpread", 0...3, \.timing.durationSpread),
      ("timing.sampleRate", 1...1000, \.timing.sampleRate),
      ("timing.intervalJitter", 0...1000, \.timing.intervalJitter),
      ("timing.dropRate", 0...0.9, \.timing.dropRate), ("jitter", 0...10, \.jitter),
    ]
  }

  /// The first number outside its range, as `(path, range, value)`; `nil` when all are in
  /// range. A NaN is out of every range.
  public func firstValueOutOfRange() -> (path: String, range: ClosedRange<Double>, value: Double)? {
    for (path, range, value) in Self.ranges {
      let v = self[keyPath: value]
      if !(v.isFinite && range.contains(v)) { return (path, range, v) }
    }
    return nil
  }

  /// The model with every number clamped to its range (NaN to the range's lower bound).
  public func clamped() -> HumanSwipeModel {
    var model = self
    for (_, range, value) in Self.ranges {
      model[keyPath: value] = SwipeSynthesizer.clamp(model[keyPath: value], range)
    }
    return model
  }

  // MARK: - Files

  /// The model as JSON text: one group per line, keys in a fixed order, numbers rounded to
  /// 4 decimals (durations to 1), ending in a line end. The same model gives the same bytes.
  public var jsonText: String {
    func n(_ value: Double, _ places: Int = 4) -> JSONValue {
      .double(rounded(value, places: places))
    }
    func aim(_ a: Aim) -> JSONValue {
      .object([("biasX", n(a.biasX)), ("biasY", n(a.biasY)), ("sigmaX", n(a.sigmaX)), ("sigmaY", n(a.sigmaY))])
    }
    let members: [(String, JSONValue)] = [
      ("format", .string(format)), ("version", .number(version)), ("source", .string(source)),
      ("command", .string(command)), ("start", aim(start)), ("middle", aim(middle)),
      ("end", aim(end)), ("aimLimit", n(aimLimit)), ("cornerCut", n(cornerCut)), ("bow", n(bow)),
      ("detour", .object([("probability", n(detour.probability)), ("size", n(detour.size))])),
      ("bendLimit", n(bendLimit)),
      (
        "hook",
        .object([
          ("probability", n(hook.probability)), ("angle", n(hook.angle, 1)),
          ("length", n(hook.length)), ("wobble", n(hook.wobble, 1)),
        ])
      ),
      (
        "loop",
        .object([
          ("probability", n(loop.probability)), ("size", n(loop.size)),
          ("sizeSpread", n(loop.sizeSpread)),
        ])
      ),
      (
        "overshoot",
        .object([("probability", n(overshoot.probability)), ("length", n(overshoot.length))])
      ),
      (
        "timing",
        .object([
          ("baseDuration", n(timing.baseDuration, 1)),
          ("perKeyDuration", n(timing.perKeyDuration, 1)), ("keyExponent", n(timing.keyExponent)),
          ("durationSpread", n(timing.durationSpread)), ("sampleRate", n(timing.sampleRate, 2)),
          ("intervalJitter", n(timing.intervalJitter, 2)), ("dropRate", n(timing.dropRate)),
        ])
      ),
      ("jitter", n(jitter)),
    ]
    var text = "{\n"
    for (i, (key, value)) in members.enumerated() {
      text += "  " + JSONValue.object([(key, value)]).text.dropFirst().dropLast()
      text += i == members.count - 1 ? "\n" : ",\n"
    }
    return text + "}\n"
  }

  /// Reads a model file.
  /// - Parameter path: the file.
  /// - Returns: the model.
  /// - Throws: ``HumanSwipeModelError`` naming the file, the line and what to do, when the
  ///   file cannot be read, is not JSON, misses or mistypes a field, or has a number out of
  ///   range.
  public static func read(path: String) throws(HumanSwipeModelError) -> HumanSwipeModel {
    let bytes: [UInt8]
    do {
      bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw HumanSwipeModelError(
        file: path, line: 0, message: "cannot read the model (\(error.localizedDescription))",
        hint: "check the path; `swipedict swipestats BLOB --swipes REAL.jsonl --fit-model FILE` writes one")
    }
    return try parse(bytes, file: path)
  }

  /// The largest model file read (1 MB; a model is about 1 KB).
  static let maxBytes = 1 << 20

  /// Parses the bytes of a model file.
  /// - Parameters:
  ///   - bytes: the file's contents (UTF-8 JSON).
  ///   - file: the name to use in errors.
  /// - Returns: the model.
  /// - Throws: ``HumanSwipeModelError`` as ``read(path:)``.
  public static func parse(_ bytes: [UInt8], file: String) throws(HumanSwipeModelError)
    -> HumanSwipeModel
  {
    var options = JSONReader.Options()
    options.maxBytes = maxBytes
    let root: JSONReader.Value
    do {
      root = try JSONReader.parse(bytes, options: options)
    } catch {
      throw HumanSwipeModelError(
        file: file, line: JSONReader.position(of: error.offset, in: bytes).line,
        message: "not JSON: \(error.message)",
        hint: "a model is one JSON object, as `swipestats --fit-model` writes it")
    }
    /// The line of the member at `path` (the deepest one that exists).
    func line(of path: [String]) -> Int {
      var value = root
      for key in path {
        guard case .object(let members) = value.kind,
          let member = members.last(where: { $0.key == key })
        else { break }
        value = member.value
      }
      return JSONReader.position(of: value.offset, in: bytes).line
    }
    guard case .object(let members) = root.kind else {
      throw HumanSwipeModelError(
        file: file, line: line(of: []), message: "the model is \(root.summary), not a JSON object",
        hint: "a model is one JSON object, as `swipestats --fit-model` writes it")
    }
    if let format = members.last(where: { $0.key == "format" })?.value,
      case .string(let name) = format.kind, name != formatName
    {
      throw HumanSwipeModelError(
        file: file, line: line(of: ["format"]),
        message: "\"format\" is \"\(name)\", not \"\(formatName)\"",
        hint: "give a human swipe model written by `swipestats --fit-model`")
    }
    let model: HumanSwipeModel
    do {
      model = try JSONDecoder().decode(HumanSwipeModel.self, from: Data(bytes))
    } catch let error as DecodingError {
      let (path, what) = describe(error)
      throw HumanSwipeModelError(
        file: file, line: line(of: path), message: what,
        hint: "every field of the model is required; compare with corpora/swipe-models/hws-dev.json")
    } catch {
      throw HumanSwipeModelError(
        file: file, line: 0, message: "cannot decode the model (\(error))",
        hint: "compare with corpora/swipe-models/hws-dev.json")
    }
    guard model.version <= currentVersion, model.version >= 1 else {
      throw HumanSwipeModelError(
        file: file, line: line(of: ["version"]),
        message: "model version \(model.version); this swipedict reads version \(currentVersion)",
        hint: "refit the model with this swipedict (`swipestats --fit-model`)")
    }
    if let (path, range, value) = model.firstValueOutOfRange() {
      throw HumanSwipeModelError(
        file: file, line: line(of: path.split(separator: ".").map(String.init)),
        message: "\(path) is \(value), outside \(range.lowerBound)…\(range.upperBound)",
        hint: "fix the value or refit the model (`swipestats --fit-model`)")
    }
    return model
  }

  /// The key path and a sentence for a decoding error.
  private static func describe(_ error: DecodingError) -> (path: [String], message: String) {
    func joined(_ path: [any CodingKey]) -> [String] { path.map(\.stringValue) }
    switch error {
    case .keyNotFound(let key, let context):
      let path = joined(context.codingPath)
      let whole = (path + [key.stringValue]).joined(separator: ".")
      return (path, "\"\(whole)\" is missing")
    case .typeMismatch(let type, let context):
      let path = joined(context.codingPath)
      return (path, "\"\(path.joined(separator: "."))\" is not \(typeName(type))")
    case .valueNotFound(let type, let context):
      let path = joined(context.codingPath)
      return (path, "\"\(path.joined(separator: "."))\" is null, not \(typeName(type))")
    case .dataCorrupted(let context):
      let path = joined(context.codingPath)
      return (path, "\"\(path.joined(separator: "."))\": \(context.debugDescription)")
    @unknown default:
      return ([], "\(error)")
    }
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type: "a number"
    case is Int.Type: "an integer"
    case is String.Type: "a string"
    default: "an object"
    }
  }
}

/// A problem with a model file: where, what is wrong, and what to do.
public struct HumanSwipeModelError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file's path as given.
  public var file: String
  /// The 1-based line, 0 for the whole file.
  public var line: Int
  /// What is wrong.
  public var message: String
  /// What to do about it.
  public var hint: String

  /// Describes a problem.
  public init(file: String, line: Int, message: String, hint: String) {
    self.file = file
    self.line = line
    self.message = message
    self.hint = hint
  }

  /// `file:line: error: message`, then the hint on an indented second line.
  public var description: String {
    "\(file)\(line > 0 ? ":\(line)" : ""): error: \(message)\n  hint: \(hint)"
  }
}
