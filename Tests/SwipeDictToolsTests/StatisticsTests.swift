import Testing

@testable import SwipeDictTools

/// The one quantile, rounding rule and fixed-decimal text every figure of the tools uses.
@Suite("Statistics")
struct StatisticsTests {
  @Test("quantile is the nearest rank: the smallest value with at least q of them at or below")
  func quantileIsNearestRank() {
    let values = (1...10).map(Double.init)
    #expect(quantile(values, 0.5) == 5)
    #expect(quantile(values, 0.9) == 9)
    #expect(quantile(values, 0.99) == 10)
    #expect(quantile(values, 0) == 1)
    #expect(quantile(values, 1) == 10)
    #expect(quantile([7], 0.5) == 7)
    #expect(quantile([1, 2, 3], 0.5) == 2)
    #expect(quantile([], 0.5) == 0)
    // Out-of-range and NaN quantiles are clamped instead of trapping.
    #expect(quantile(values, -3) == 1)
    #expect(quantile(values, 1e300) == 10)
    #expect(quantile(values, .nan) == 1)
  }

  @Test("rounded rounds half away from zero, never gives -0, and passes huge values through")
  func roundedToPlaces() {
    #expect(rounded(1.005, places: 1) == 1.0)
    #expect(rounded(2.25, places: 1) == 2.3)
    #expect(rounded(-2.25, places: 1) == -2.3)
    #expect(rounded(123.456, places: 2) == 123.46)
    #expect(rounded(0.4, places: 0) == 0)
    #expect(rounded(-0.001, places: 2).sign == .plus)
    #expect(rounded(1e300, places: 4) == 1e300)
    #expect(rounded(.infinity, places: 2) == .infinity)
    #expect(rounded(.nan, places: 2).isNaN)
  }

  @Test("fixedDecimal writes exactly the places asked, bounded and finite")
  func fixedDecimalText() {
    #expect(fixedDecimal(3.14159, places: 2) == "3.14")
    #expect(fixedDecimal(-0.5, places: 2) == "-0.50")
    #expect(fixedDecimal(-0.001, places: 2) == "0.00")
    #expect(fixedDecimal(12, places: 1) == "12.0")
    #expect(fixedDecimal(0.05, places: 3) == "0.050")
    #expect(fixedDecimal(1e300, places: 2) == "1000000000000.00")
    #expect(fixedDecimal(-.infinity, places: 2) == "0.00")
    #expect(fixedDecimal(.nan, places: 1) == "0.0")
  }

  @Test("the smaps parser adds up the mapped file's pages and the anonymous dirty pages")
  func smapsParser() {
    let smaps = """
      55d0c0a00000-55d0c0a21000 rw-p 00000000 00:00 0                          [heap]
      Rss:                 132 kB
      Private_Dirty:       120 kB
      7f0000000000-7f0000100000 r--p 00000000 08:01 1234                       /tmp/en.swipedict
      Rss:                  64 kB
      Private_Dirty:         0 kB
      7f0000200000-7f0000300000 r--p 00100000 08:01 1234                       /tmp/en.swipedict
      Rss:                  16 kB
      Private_Dirty:         4 kB
      7f0000400000-7f0000500000 rw-p 00000000 00:00 0 
      Rss:                   8 kB
      Private_Dirty:         8 kB
      7f0000600000-7f0000700000 r-xp 00000000 08:01 99                         /usr/lib/libc.so.6
      Rss:                 900 kB
      Private_Dirty:        12 kB
      """
    let memory = ProcessMemory.parse(smaps: smaps, mappingsOf: "/tmp/en.swipedict")
    #expect(memory.isMapped)
    #expect(memory.mappedResident == 80)
    #expect(memory.mappedDirty == 4)
    #expect(memory.anonymousDirty == 128)
    #expect(!ProcessMemory.parse(smaps: smaps, mappingsOf: "/tmp/other.swipedict").isMapped)
  }
}
