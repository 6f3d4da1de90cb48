import ArgumentParser
import SwipeDecoder
import SwipeDict
import SwipeDictCommandLine

/// `--set NAME=VALUE`: one of the decoder's parameters (``SwipeDecoder/Options``) changed for
/// a run, so that a keyboard developer can measure a setting on their own swipes without
/// writing code. Each name maps to one field; each value is range-checked.
struct DecoderSetting {
  /// A settable parameter: its name, its range, and how it is applied
  /// (`nil` for the bounds of a range, which ``apply(_:to:)`` sets together).
  struct Parameter: Sendable {
    var name: String
    var range: ClosedRange<Double>
    var apply: (@Sendable (inout SwipeDecoder.Options, Float) -> Void)?
  }

  /// Every parameter `--set` knows, in the order `decode --help` lists them (its text says
  /// what each means).
  static let parameters: [Parameter] = [
    .init(name: "start-radius", range: 0...20) {
      $0.filter.startRadius = $1
    },
    .init(name: "end-radius", range: 0...20) { $0.filter.endRadius = $1 },
    .init(name: "direction", range: 0...180) {
      $0.filter.directionTolerance = $1 * .pi / 180
    },
    .init(name: "direction-min-length", range: 0...100) { $0.filter.directionMinimumLength = $1 },
    .init(name: "length-low", range: 0...10, apply: nil),
    .init(name: "length-high", range: 0...10, apply: nil),
    .init(name: "length-slack", range: 0...100) {
      $0.filter.lengthSlack = $1
    },
    .init(name: "max-point-cost", range: 0.01...1_000_000) {
      $0.maximumPointCost = $1
    },
    .init(name: "frequency-weight", range: 0...1000) {
      $0.frequencyWeight = $1
    },
    .init(name: "pool", range: 1...1000) { $0.candidatePool = Int($1) },
    .init(name: "location-weight", range: 0...1000) { $0.ranking?.locationWeight = $1 },
    .init(name: "shape-weight", range: 0...1000) { $0.ranking?.shapeWeight = $1 },
    .init(name: "length-weight", range: -1000...1000) { $0.ranking?.lengthWeight = $1 },
    .init(name: "noise-floor", range: 0.0001...100) { $0.ranking?.noiseFloor = $1 },
    .init(name: "context-weight", range: 0...100) {
      $0.contextWeight = $1
    },
  ]

  /// The names, for help texts.
  static var names: String { parameters.map(\.name).joined(separator: ", ") }

  let parameter: Parameter
  let value: Float

  /// Parses `NAME=VALUE`.
  /// - Throws: a `ValidationError` naming the known parameters or the allowed range.
  init(parsing text: String) throws {
    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let parameter = Self.parameters.first(where: { $0.name == parts[0] }) else {
      throw ValidationError("--set takes NAME=VALUE with NAME one of \(Self.names), not \"\(text)\"")
    }
    guard let value = Double(parts[1]) else {
      throw ValidationError("--set \(parameter.name) needs a number, not \"\(parts[1])\"")
    }
    try checkRange("--set \(parameter.name)", value, in: parameter.range)
    self.parameter = parameter
    self.value = Float(value)
  }

  /// Applies every setting in order to `options` (the last of a name wins); the two bounds
  /// of a range are set together.
  /// - Throws: a `ValidationError` when a range's lower bound would exceed its upper one.
  static func apply(_ settings: [DecoderSetting], to options: inout SwipeDecoder.Options) throws {
    var last: [String: Float] = [:]
    for setting in settings {
      setting.parameter.apply?(&options, setting.value)
      last[setting.parameter.name] = setting.value
    }
    func range(_ low: String, _ high: String, _ current: ClosedRange<Float>) throws -> ClosedRange<Float> {
      let (a, b) = (last[low] ?? current.lowerBound, last[high] ?? current.upperBound)
      guard a <= b else {
        throw ValidationError("--set \(low)=\(a) is above \(high)=\(b): give a lower bound below the upper one")
      }
      return a...b
    }
    options.filter.lengthRatio = try range("length-low", "length-high", options.filter.lengthRatio)
  }
}
