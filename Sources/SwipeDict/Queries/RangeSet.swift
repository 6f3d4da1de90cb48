/// A few ascending, disjoint ID ranges with a membership test.
struct RangeSet {
  let ranges: [Range<Int>]

  init(_ ranges: [Range<Int>]) { self.ranges = ranges }

  func contains(_ id: Int) -> Bool {
    var lo = 0
    var hi = ranges.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if ranges[mid].upperBound <= id { lo = mid + 1 } else { hi = mid }
    }
    return lo < ranges.count && ranges[lo].contains(id)
  }
}
