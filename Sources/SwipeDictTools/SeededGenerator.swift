import Foundation

/// A small seeded random number generator (SplitMix64) with the few draws the synthesizer
/// and the samplers need, all computed here so that the same seed gives the same numbers on
/// every Swift version (the standard library's `random(in:using:)` algorithms are not
/// promised to stay the same).
///
/// SplitMix64 (Steele, Lea and Flood, 2014) passes BigCrush, needs 8 bytes of state and
/// accepts any seed, 0 included. `stream` selects one of 2^64 independent sequences for the
/// same seed: the synthesizer gives word `i` of a batch stream `i`, so a word's swipe does
/// not depend on the words before it.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64
  /// The second normal deviate of the last Box–Muller pair, not yet used.
  private var spareGaussian: Double?

  private static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15

  /// A generator for `seed` and `stream`.
  package init(seed: UInt64, stream: UInt64 = 0) {
    state = Self.mix(seed ^ Self.mix(stream &+ Self.golden))
  }

  /// A generator whose SplitMix64 state starts at `state`, as the reference implementation
  /// seeds it (no mixing, no stream): the sequence the tests and benchmarks were written
  /// with, kept so that their samples stay the same.
  package init(state: UInt64) {
    self.state = state
  }

  /// The SplitMix64 output function: a bijective 64-bit mixer.
  package static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The next 64 random bits.
  package mutating func next() -> UInt64 {
    state &+= Self.golden
    return Self.mix(state)
  }

  /// A uniform double in `0..<1` (53 random bits).
  package mutating func unit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// A uniform double in `range`.
  package mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + (range.upperBound - range.lowerBound) * unit()
  }

  /// A uniform integer in `0..<bound` without modulo bias (Lemire's multiply-and-reject).
  /// - Precondition: `bound > 0`.
  package mutating func below(_ bound: UInt64) -> UInt64 {
    precondition(bound > 0, "bound must be positive")
    var product = next().multipliedFullWidth(by: bound)
    if product.low < bound {
      let threshold = (0 &- bound) % bound
      while product.low < threshold { product = next().multipliedFullWidth(by: bound) }
    }
    return product.high
  }

  /// A uniform integer in `range`.
  package mutating func integer(in range: ClosedRange<Int>) -> Int {
    // safe: the span of a ClosedRange<Int> fits UInt64 after the bit-pattern conversion.
    let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
    if span == 0 { return Int(Int64(bitPattern: next())) }  // the whole Int range
    return range.lowerBound &+ Int(Int64(bitPattern: below(span)))
  }

  /// A standard normal deviate (Box–Muller; the pair's second value is kept for the next call).
  package mutating func gaussian() -> Double {
    if let spare = spareGaussian {
      spareGaussian = nil
      return spare
    }
    // 1 - unit() is in (0, 1]: the logarithm is finite.
    let radius = (-2 * log(1 - unit())).squareRoot()
    let angle = 2 * Double.pi * unit()
    spareGaussian = radius * sin(angle)
    return radius * cos(angle)
  }
}
