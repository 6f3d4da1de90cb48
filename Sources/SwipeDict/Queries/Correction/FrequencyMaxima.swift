@_spi(SwipeDictInternals) import SwipeDictFormat

/// The most frequent word of an ID range in O(1)-ish: maxima of 16-ID blocks and of 1,024-ID
/// superblocks over the frequency bytes (n/16 + n/1,024 bytes, built in one pass). It keeps
/// no view of the bytes: ``max(in:of:)`` reads the ones it was built from (the blob's, or
/// the user's personal copy, ``UserLayer/personalFrequencies``).
struct FrequencyMaxima: Sendable {
  static let blockShift = 4
  static let superShift = 10

  private let count: Int
  private let blocks: [UInt8]
  private let supers: [UInt8]

  init(_ frequencies: UnsafeByteView, count: Int) {
    let count = min(count, frequencies.count)
    self.count = count
    let blockSize = 1 << Self.blockShift
    var blocks = [UInt8](repeating: 0, count: (count + blockSize - 1) >> Self.blockShift)
    frequencies.withUnsafeBytes { bytes in
      for b in blocks.indices {
        let lo = b << Self.blockShift
        let hi = Swift.min(lo + blockSize, count)
        var m: UInt8 = 0
        for i in lo..<hi { m = Swift.max(m, bytes[i]) }
        blocks[b] = m
      }
    }
    let perSuper = 1 << (Self.superShift - Self.blockShift)
    supers = stride(from: 0, to: blocks.count, by: perSuper).map {
      blocks[$0..<Swift.min($0 + perSuper, blocks.count)].max() ?? 0
    }
    self.blocks = blocks
  }

  /// The largest frequency byte of IDs `range` (0 for an empty range or outside the words),
  /// reading `frequencies`, the bytes the maxima were built from, at the range's ends.
  func max(in range: Range<Int>, of frequencies: UnsafeByteView) -> UInt8 {
    var lo = Swift.max(range.lowerBound, 0)
    let hi = Swift.min(range.upperBound, count, frequencies.count)
    var m: UInt8 = 0
    guard lo < hi else { return 0 }
    // safe: 0 <= lo < hi <= frequencies.count in each loop below.
    func scan(_ to: Int) {
      while lo < to {
        m = Swift.max(m, frequencies.uncheckedByte(at: lo))
        lo += 1
      }
    }
    let blockSize = 1 << Self.blockShift
    let superSize = 1 << Self.superShift
    if hi - lo <= 2 * blockSize {
      scan(hi)
      return m
    }
    scan(Swift.min(hi, (lo + blockSize - 1) & ~(blockSize - 1)))
    while lo + blockSize <= hi, lo & (superSize - 1) != 0 {
      m = Swift.max(m, blocks[lo >> Self.blockShift])
      lo += blockSize
    }
    while lo + superSize <= hi {
      m = Swift.max(m, supers[lo >> Self.superShift])
      lo += superSize
    }
    while lo + blockSize <= hi {
      m = Swift.max(m, blocks[lo >> Self.blockShift])
      lo += blockSize
    }
    scan(hi)
    return m
  }
}
