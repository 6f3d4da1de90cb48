import Foundation
import SwipeDecoder
@_spi(SwipeDictInternals) import SwipeDictFormat

extension HumanSwipeModel {
  /// Fits a model to real swipes: first from their statistics directly (the aims' medians
  /// and spreads, the hook, loop and overshoot shares and sizes, the duration line, the
  /// sampling interval), then by calibration: it draws swipes of the same words with the
  /// model, measures them the same way, and moves each parameter by the gap between the two
  /// measurements of the statistic it drives, `rounds` times: the aims' medians and spreads
  /// (at middle keys the median distance, which also sets the corner cut), the stretches'
  /// median and detour share and size for the bows and detours (the bend limit is the real
  /// stretches' p90 distance from their chord), the shares and sizes of
  /// hooks, loops and overshoots, the roughness for the sensor noise, the durations and the
  /// long sampling intervals. The hook's length is the real hooks' size as measured.
  /// Deterministic: the same swipes give the same model.
  ///
  /// The statistics the calibration cannot move (the speed, the point count, the share of
  /// swipes ending off the keyboard) follow from the others; compare them with
  /// ``SwipeStatistics`` to see how close the model comes.
  /// - Parameters:
  ///   - real: the real swipes' statistics (with their measurements).
  ///   - layout: the layout they were measured on.
  ///   - source: where the swipes come from, recorded in the model.
  ///   - command: the command that fits, recorded in the model.
  ///   - rounds: calibration rounds (0 keeps the direct estimates; default 8).
  ///   - draws: swipes drawn per real swipe in each round (default 4).
  /// - Returns: the model, every number within its range.
  public static func fit(
    to real: SwipeStatistics, layout: KeyboardLayout, source: String, command: String,
    rounds: Int = 8, draws: Int = 4
  ) -> HumanSwipeModel {
    var model = directEstimate(from: real)
    model.source = source
    model.command = command
    model = model.clamped()
    let words = real.measurements.map(\.word)
    guard !words.isEmpty else { return model }
    for _ in 0..<max(0, rounds) {
      let synthesizer = SwipeSynthesizer(layout: layout, humanModel: model)
      var swipes: [Swipe] = []
      for draw in 0..<max(1, draws) {
        // The labels were measured, so each has a key path on the layout.
        swipes += (try? synthesizer.swipes(for: words, seed: UInt64(draw) &+ 0x5EED)) ?? []
      }
      model.calibrate(toward: real.summary, from: SwipeStatistics(layout: layout, swipes: swipes).summary)
      model = model.clamped()
    }
    return model
  }

  /// The model straight from the real swipes' statistics: the aims' medians and spreads,
  /// the shares and sizes of detours, hooks, loops and overshoots, the duration line and the
  /// sampling (not yet clamped).
  private static func directEstimate(from real: SwipeStatistics) -> HumanSwipeModel {
    let r = real.summary
    var model = HumanSwipeModel.neutral
    func aim(_ o: SwipeStatistics.OffsetSpread, _ fallback: Aim) -> Aim {
      guard o.dx.count > 0 else { return fallback }
      return Aim(biasX: o.dx.median, biasY: o.dy.median, sigmaX: o.dx.sigma, sigmaY: o.dy.sigma)
    }
    model.start = aim(r.start, model.start)
    model.middle = aim(r.middle, model.middle)
    model.end = aim(r.end, model.end)
    model.cornerCut = 0.2
    model.bow = 0.05
    if r.stretchRatio.count > 0 {
      model.detour.probability = r.detoured.fraction
      // A half-sine bend of b × the chord makes the stretch about 1 + 2.47 b² long.
      model.detour.size = (max(0, r.detourRatio.median - 1) / 2.47).squareRoot()
      // Bends stay within the real stretches' p90 distance from their chord.
      model.bendLimit = r.stretchDeviation.p90
    }
    let hookedAngles = real.measurements.compactMap { m in m.hookAngle.flatMap { $0 > 60 ? $0 : nil } }
    if r.hookAngle.count > 0 {
      model.hook.probability = r.hooked.fraction
      model.hook.wobble = r.hookAngle.median / 0.674  // a half-normal's median is 0.674 σ
      if !hookedAngles.isEmpty { model.hook.angle = SwipeStatistics.Spread(hookedAngles).median }
      if r.hookSize.count > 0 { model.hook.length = r.hookSize.median }
    }
    if r.loopsAtDoubledLetters.count > 0 {
      model.loop.probability = r.loopsAtDoubledLetters.fraction
      if r.loopSize.count > 0 {
        model.loop.size = r.loopSize.median
        let logs = SwipeStatistics.Spread(real.measurements.flatMap(\.doubledLetterLoops).compactMap { $0.map(log) })
        model.loop.sizeSpread = logs.count >= 3 ? logs.sigma : 0.3
      }
    }
    if r.overshoot.count > 0 {
      model.overshoot.probability = r.overshooting.fraction
      if r.overshootLength.count > 0 { model.overshoot.length = r.overshootLength.median }
    }
    if r.duration.count > 0 {
      model.timing.baseDuration = 0
      model.timing.perKeyDuration = r.durationPerKey
      model.timing.keyExponent = r.durationExponent
      model.timing.durationSpread = r.durationLogResidual.sigma
      if r.interval.median > 0 { model.timing.sampleRate = 1000 / r.interval.median }
      model.timing.intervalJitter = r.interval.sigma
      model.timing.dropRate = r.longIntervals.fraction
    }
    return model
  }

  /// `target / measured`, bounded to 0.5…2 (1 when either is not positive).
  private static func factor(_ target: Double, _ measured: Double, _ counts: (Int, Int) = (5, 5)) -> Double {
    guard target > 1e-9, measured > 1e-9, counts.0 >= 5, counts.1 >= 5 else { return 1 }
    return min(2, max(0.5, target / measured))
  }

  /// Moves an aim's medians by the gap between the real and drawn ones, and scales its
  /// spreads by their ratio.
  private static func calibrate(
    _ aim: inout Aim, _ target: SwipeStatistics.OffsetSpread, _ drawn: SwipeStatistics.OffsetSpread
  ) {
    guard target.dx.count >= 5, drawn.dx.count >= 5 else { return }
    aim.biasX += target.dx.median - drawn.dx.median
    aim.biasY += target.dy.median - drawn.dy.median
    aim.sigmaX *= factor(target.dx.sigma, drawn.dx.sigma)
    aim.sigmaY *= factor(target.dy.sigma, drawn.dy.sigma)
  }

  /// One calibration round: each parameter moved by the gap between the real swipes'
  /// statistic it drives (`r`) and the one measured on swipes drawn with the model (`s`).
  private mutating func calibrate(toward r: SwipeStatistics.Summary, from s: SwipeStatistics.Summary) {
    Self.calibrate(&start, r.start, s.start)
    // The aim at middle keys is heavy-tailed (most passes are close, a few far off): a
    // Gaussian matched to the p10…p90 spread passes too far from most keys, so its σ's are
    // matched to the median distance instead, keeping their ratio.
    if r.middle.radius.count >= 5, s.middle.radius.count >= 5 {
      middle.biasX += r.middle.dx.median - s.middle.dx.median
      middle.biasY += r.middle.dy.median - s.middle.dy.median
      let scale = Self.factor(r.middle.radius.median, s.middle.radius.median)
      middle.sigmaX *= scale
      middle.sigmaY *= scale
    }
    Self.calibrate(&end, r.end, s.end)
    if r.middle.radius.count >= 5, s.middle.radius.count >= 5 {
      cornerCut *= Self.factor(r.middle.radius.median, s.middle.radius.median)
    }
    if r.stretchRatio.count >= 5, s.stretchRatio.count >= 5 {
      // A stretch bent by b × its length at its middle is about 1 + 2.47 b² as long.
      let squared = bow * bow + 0.3 * (r.stretchRatio.median - s.stretchRatio.median)
      bow = max(0, squared).squareRoot()
      detour.probability += r.detoured.fraction - s.detoured.fraction
      detour.size *= Self.factor(
        r.detourRatio.median - 1, s.detourRatio.median - 1, (r.detourRatio.count, s.detourRatio.count))
    }
    if r.hookAngle.count >= 5, s.hookAngle.count >= 5 {
      hook.probability += r.hooked.fraction - s.hooked.fraction
      hook.wobble *= Self.factor(r.hookAngle.median, s.hookAngle.median)
    }
    if r.loopsAtDoubledLetters.count >= 5 {
      loop.probability += r.loopsAtDoubledLetters.fraction - s.loopsAtDoubledLetters.fraction
      loop.size *= Self.factor(r.loopSize.median, s.loopSize.median, (r.loopSize.count, s.loopSize.count))
    }
    if r.overshoot.count >= 5 {
      overshoot.probability += r.overshooting.fraction - s.overshooting.fraction
      overshoot.length *= Self.factor(
        r.overshootLength.median, s.overshootLength.median,
        (r.overshootLength.count, s.overshootLength.count))
    }
    jitter *= Self.factor(r.roughness.median, s.roughness.median, (r.roughness.count, s.roughness.count))
    if r.duration.count >= 5, s.duration.count >= 5 {
      let scale = Self.factor(r.duration.median, s.duration.median)
      timing.baseDuration *= scale
      timing.perKeyDuration *= scale
      timing.keyExponent += r.durationExponent - s.durationExponent
      timing.durationSpread *= Self.factor(r.durationLogResidual.sigma, s.durationLogResidual.sigma)
      timing.dropRate += r.longIntervals.fraction - s.longIntervals.fraction
      timing.intervalJitter *= Self.factor(r.interval.sigma, s.interval.sigma)
    }
  }
}
