import Foundation
import SwipeDecoder

extension SwipeSynthesizer {
  /// The swipe's samples along a non-empty key path with a human model (see
  /// ``HumanSwipeModel`` for the steps); `doubled` are the key path's indices of doubled
  /// letters. Every random draw happens in a fixed order, so a seed gives one swipe.
  func points(
    along path: [Int], doubled: [Int], model raw: HumanSwipeModel, random: inout SeededGenerator
  ) -> [SwipePoint] {
    let model = raw.clamped()
    let unit = Double(layout.keyWidth)
    var frame = 1000 / model.timing.sampleRate
    let count = path.count

    var targets = aimedTargets(along: path, model: model, random: &random)
    var shape = TrackShape()
    shape.bendLimit = model.bendLimit * unit
    var loopCount = 0
    if count >= 2 {
      Self.addHook(to: &targets, model: model, unit: unit, random: &random)
      let shift = targets.count - count  // 1 with a hook target, else 0
      (shape.loops, loopCount) = Self.loops(at: doubled, shift: shift, model: model, unit: unit, random: &random)
      Self.addOvershoot(to: &targets, model: model, unit: unit, random: &random)
      shape.bows = Self.bows(stretches: targets.count - 1, model: model, random: &random)
    }

    // 6. Time.
    let keys = Double(count + loopCount)
    let median =
      model.timing.baseDuration + model.timing.perKeyDuration * pow(keys, model.timing.keyExponent)
    let duration = Self.clamp(
      median * exp(model.timing.durationSpread * random.gaussian()), 0...60_000)
    var cutting = self
    cutting.cornerCut = (0.4 * model.cornerCut)...model.cornerCut
    cutting.maxCornerCut = 0.6 * model.cornerCut / 0.35
    let track =
      count >= 2
      ? Track(targets: targets, synthesizer: cutting, unit: unit, random: &random, shape: shape)
      : nil
    let samples = Self.sample(
      track, duration: duration, from: targets[0], unit: unit, frame: &frame, random: &random)
    return Self.sensed(samples, frame: frame, model: model, unit: unit, random: &random)
  }

  /// 1. Aim: each key's target, off its center by the model's aim at the start, middle or
  /// end keys, at most `aimLimit` key widths.
  private func aimedTargets(
    along path: [Int], model: HumanSwipeModel, random: inout SeededGenerator
  ) -> [Vector] {
    let unit = Double(layout.keyWidth)
    let limit = model.aimLimit * unit
    let count = path.count
    return path.enumerated().map { i, index -> Vector in
      let aim = i == 0 ? model.start : i == count - 1 ? model.end : model.middle
      let key = layout.keys[index]
      var offset = Vector(
        x: aim.biasX + aim.sigmaX * random.gaussian(), y: aim.biasY + aim.sigmaY * random.gaussian())
      offset = offset * unit
      if offset.length > limit { offset = offset * (limit / offset.length) }
      return Vector(x: Double(key.x), y: Double(key.y)) + offset
    }
  }

  /// 2. Hook: a first target between the first key's and the second's (turned by the
  /// hook's angle when hooked, by a small wobble otherwise).
  private static func addHook(
    to targets: inout [Vector], model: HumanSwipeModel, unit: Double, random: inout SeededGenerator
  ) {
    let toSecond = targets[1] - targets[0]
    let hooked = random.unit() < model.hook.probability
    let side = random.unit() < 0.5 ? -1.0 : 1.0
    let spread = random.uniform(-1...1)
    let stretch = random.uniform(0.7...1.3)
    let wobble = random.gaussian() * model.hook.wobble
    guard toSecond.length > 1e-6 * unit else { return }
    let angle: Double
    let length: Double
    if hooked {
      angle = side * min(180, max(0, model.hook.angle + 20 * spread))
      length = model.hook.length * stretch * unit
    } else {
      angle = wobble
      length = min(0.4 * unit, 0.4 * toSecond.length)
    }
    let radians = angle * Double.pi / 180
    let heading = toSecond * (1 / toSecond.length)
    let turned = Vector(
      x: heading.x * cos(radians) - heading.y * sin(radians),
      y: heading.x * sin(radians) + heading.y * cos(radians))
    if length > 1e-6 * unit { targets.insert(targets[0] + turned * length, at: 1) }
  }

  /// 3. Loops at doubled letters (key path indices `doubled`, targets `shift` further on).
  /// - Returns: the loops by target index, and how many there are.
  private static func loops(
    at doubled: [Int], shift: Int, model: HumanSwipeModel, unit: Double, random: inout SeededGenerator
  ) -> (loops: [Int: TrackShape.Loop], count: Int) {
    var loops: [Int: TrackShape.Loop] = [:]
    var count = 0
    for i in doubled {
      let looped = random.unit() < model.loop.probability
      let size = model.loop.size * exp(model.loop.sizeSpread * random.gaussian())
      let clockwise = random.unit() < 0.5
      if looped {
        let radius = min(2.5, size / 2) * unit
        loops[i == 0 ? 0 : i + shift] = TrackShape.Loop(radius: radius, clockwise: clockwise, slowdown: 0.5)
        count += 1
      }
    }
    return (loops, count)
  }

  /// 5. Overshoot: a target past the last one, along the last stretch with a swerve.
  private static func addOvershoot(
    to targets: inout [Vector], model: HumanSwipeModel, unit: Double, random: inout SeededGenerator
  ) {
    let overshoots = random.unit() < model.overshoot.probability
    let exponential = -log(1 - random.unit())  // 1 - unit() is in (0, 1]
    let swerve = random.gaussian() * 10 * Double.pi / 180
    let last = targets[targets.count - 1] - targets[targets.count - 2]
    guard overshoots, last.length > 1e-6 * unit else { return }
    let length = min(5, exponential) * model.overshoot.length * unit
    let heading = last * (1 / last.length)
    let turned = Vector(
      x: heading.x * cos(swerve) - heading.y * sin(swerve),
      y: heading.x * sin(swerve) + heading.y * cos(swerve))
    if length > 1e-6 * unit { targets.append(targets[targets.count - 1] + turned * length) }
  }

  /// 4. Bows and detours: each stretch's bend off its chord, as a fraction of its length.
  /// The first stretch leaves straight (people's first stroke heads for the second key).
  private static func bows(stretches: Int, model: HumanSwipeModel, random: inout SeededGenerator) -> [Double] {
    (0..<stretches).map { i in
      let bend = model.bow * random.gaussian()
      let detours = random.unit() < model.detour.probability
      let detour = model.detour.size * random.uniform(0.5...1.5) * (random.unit() < 0.5 ? -1 : 1)
      return i == 0 ? 0 : min(0.75, max(-0.75, bend + (detours ? detour : 0)))
    }
  }

  /// The samples as a sensor reports them: each off by the model's jitter, inner ones
  /// dropped at its drop rate and their times shaken by its interval jitter.
  private static func sensed(
    _ samples: [Vector], frame: Double, model: HumanSwipeModel, unit: Double, random: inout SeededGenerator
  ) -> [SwipePoint] {
    let sigma = model.jitter * unit
    let shake = min(model.timing.intervalJitter, 0.45 * frame)
    var points: [SwipePoint] = []
    points.reserveCapacity(samples.count)
    for (k, sample) in samples.enumerated() {
      let inner = k > 0 && k < samples.count - 1
      let dropped = inner && random.unit() < model.timing.dropRate
      let delay = inner ? min(0.45 * frame, max(-0.45 * frame, random.gaussian() * shake)) : 0
      let point = sample + Vector(x: random.gaussian(), y: random.gaussian()) * sigma
      if dropped { continue }
      points.append(
        SwipePoint(x: Float(point.x), y: Float(point.y), time: Float(Double(k) * frame + delay)))
    }
    return points
  }
}
