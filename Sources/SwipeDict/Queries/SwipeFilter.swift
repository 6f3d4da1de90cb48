@_spi(SwipeDictInternals) import SwipeDictFormat

/// The swipe thesis's four filters, which cut the dictionary down to the words a swipe can
/// mean before any expensive matching.
///
/// 1. **Start point**: the word's first key center lies within ``startRadius`` of the
///    swipe's first point, or within half a key width more than the nearest key center
///    (a swipe that starts off the keyboard).
/// 2. **Start direction**: the direction from the first key to the second is within
///    ``directionTolerance`` of the swipe's start direction — unless the two keys are
///    neighbors (users make a tiny stroke and turn: "salt"), the word has one key, or its
///    perfect swipe is shorter than ``directionMinimumLength`` (a hook at touch-down turns a
///    short swipe's start around: "to").
/// 3. **End point**: the last key center lies within ``endRadius`` of the last point, or
///    within half a key width more than the nearest key center (an overshoot off the
///    keyboard).
/// 4. **Length**: the expected length ℓ(w) satisfies `A·ℓ ≤ ℓ(w) ≤ B·ℓ` or `|ℓ(w) − ℓ| ≤ C`,
///    with ℓ the swipe's length (``lengthRatio`` = A…B, ``lengthSlack`` = C).
///
/// Radii and the slack are in key widths; points and lengths in the layout's unit. A filter
/// whose input is `nil` is off (before the finger lifts, say, only the start filters apply).
/// The defaults keep the true word for over 99 % of the synthetic swipes in the tests while
/// dropping most of the dictionary.
///
/// ```swift
/// let filter = SwipeFilter(path: points, keyWidth: dictionary.keyWidth)
/// let ids = dictionary.candidates(for: filter)   // ascending IDs
/// ```
public struct SwipeFilter: Sendable, Hashable {
  /// The swipe's first point.
  public var start: LayoutPoint
  /// The swipe's start direction (radians, counterclockwise from +x as seen on screen), or
  /// `nil` to turn the direction filter off.
  public var startDirection: Float?
  /// The swipe's last point, or `nil` to turn the end filter off.
  public var end: LayoutPoint?
  /// The swipe's length in the layout's unit, or `nil` to turn the length filter off.
  public var length: Float?

  /// Start keys: centers within this many key widths of ``start``.
  public var startRadius: Float = 1.1
  /// End keys: centers within this many key widths of ``end``.
  public var endRadius: Float = 1.6
  /// The largest accepted difference between the word's start angle and the swipe's start
  /// direction, in radians (default 40°).
  public var directionTolerance: Float = 40 * .pi / 180
  /// A…B: the accepted ratio of expected length to swipe length (thesis: 0.75…1.5).
  public var lengthRatio: ClosedRange<Float> = 0.75...1.5
  /// C: a length difference accepted whatever the ratio, in key widths (short words).
  public var lengthSlack: Float = 1.5
  /// The direction filter applies only to words whose perfect swipe (expected length) is
  /// at least this many key widths long; shorter words pass it. 0 (the thesis): every word.
  public var directionMinimumLength: Float = 0

  /// A filter from explicit swipe measurements.
  public init(start: LayoutPoint, startDirection: Float? = nil, end: LayoutPoint? = nil, length: Float? = nil) {
    self.start = start
    self.startDirection = startDirection
    self.end = end
    self.length = length
  }

  /// A filter measured from a swipe's points (see ``SwipeFilterMeasurement``): the first point,
  /// the direction from it to the first point one key width along the path (the thesis's
  /// "following point"), the last point and the path length. The direction is `nil` (off)
  /// when the whole path is shorter than half a key width: a tap, or a one-key word.
  /// - Precondition: `path` is not empty.
  public init(path: [LayoutPoint], keyWidth: Float) {
    precondition(!path.isEmpty, "a swipe has at least one point")
    var measurement = SwipeFilterMeasurement(keyWidth: keyWidth)
    for point in path { measurement.add(point) }
    self = measurement.filter(SwipeFilter(start: path[0]))
  }
}

/// Measures a swipe for the ``SwipeFilter`` as its points arrive: start, start direction,
/// end and length, each available as soon as the points so far decide it.
///
/// The length is that of the path through the points that lie at least ``jitterStep``
/// (a quarter key width) from the previous such point, plus the last point: touch sensors
/// and fingers wobble by a few hundredths of a key width between samples, which adds up
/// over a hundred samples to key widths of length that the swipe did not travel. The start
/// direction is the direction to the first point where that length reaches a key width.
///
/// ```swift
/// var measurement = SwipeFilterMeasurement(keyWidth: dictionary.keyWidth)
/// for point in points {
///   measurement.add(point)
///   if measurement.startDirection != nil { /* the start filters can run now */ }
/// }
/// let filter = measurement.filter(SwipeFilter(start: points[0]))   // takes its tolerances
/// ```
package struct SwipeFilterMeasurement: Sendable, Hashable {
  /// The key width of the layout.
  package let keyWidth: Float
  /// Movements shorter than this from the last counted point are not counted (yet), in
  /// the layout's unit: a quarter key width.
  package var jitterStep: Float { keyWidth / 4 }
  /// The first point, once there is one.
  package private(set) var start: LayoutPoint?
  /// The last point so far.
  package private(set) var end: LayoutPoint?
  /// The start direction, once the path is a key width long (radians, counterclockwise
  /// from +x as seen on screen).
  package private(set) var startDirection: Float?
  /// The points added.
  package private(set) var count = 0
  /// The counted length up to `anchor`.
  private var counted: Float = 0
  /// The last point whose distance was counted.
  private var anchor = LayoutPoint(x: 0, y: 0)

  /// An empty measurement for a layout with keys `keyWidth` wide.
  package init(keyWidth: Float) {
    self.keyWidth = keyWidth
  }

  /// The path length so far (through the counted points and the last point).
  package var length: Float {
    guard let end else { return 0 }
    return counted + anchor.distance(to: end)
  }

  /// Adds the next point. Non-finite points are ignored.
  package mutating func add(_ point: LayoutPoint) {
    guard point.x.isFinite, point.y.isFinite else { return }
    count += 1
    end = point
    guard let start else {
      start = point
      anchor = point
      return
    }
    let step = anchor.distance(to: point)
    guard step >= jitterStep else { return }
    counted += step
    anchor = point
    if startDirection == nil, counted >= keyWidth { startDirection = start.direction(to: point) }
  }

  /// `template` (its radii, tolerance and length bounds) with this swipe's start, direction,
  /// end and length. A swipe that never reached a key width takes its direction from the
  /// last point if it is half a key width long, and has none (a tap) otherwise.
  package func filter(_ template: SwipeFilter) -> SwipeFilter {
    var filter = template
    guard let start, let end else { return filter }
    filter.start = start
    filter.end = end
    filter.length = length
    filter.startDirection = startDirection ?? (length >= keyWidth / 2 ? start.direction(to: end) : nil)
    return filter
  }
}

extension SwipeDictionary {
  /// The IDs of the words that pass every filter that is on, ascending.
  ///
  /// The start filter makes this a scan of the ID ranges of the first letters whose key is
  /// near the first point (IDs are ranks, so each first letter is one range); each word then
  /// costs one 32-bit record read and four table lookups. Empty when the blob has no `FEAT`
  /// section.
  /// - Complexity: O(words with a plausible first letter).
  public func candidates(for filter: SwipeFilter) -> [Int] {
    var result: [Int] = []
    var scan = makeCandidateScan(for: filter)
    scan.advance(by: .max, into: &result)
    return result
  }

  /// The IDs among `ids` that pass every filter that is on, in the order given.
  ///
  /// Narrows an earlier answer: a decoder takes the start filters' candidates while the
  /// finger moves, then applies the end and length filters to them when it lifts, without
  /// scanning the dictionary again. IDs that are not words are dropped.
  /// - Complexity: O(`ids.count`) record reads.
  public func candidates(for filter: SwipeFilter, among ids: [Int]) -> [Int] {
    guard let features = featureView, let tables = FilterTables(filter, dictionary: self) else {
      return []
    }
    var result: [Int] = []
    for id in ids where id >= 0 && id < features.count {
      if tables.accepts(features.uncheckedStored(id)) { result.append(id) }
    }
    return result
  }

  /// The filters as a test of one word at a time: for narrowing candidates kept in a
  /// structure of the caller's own (a bitmap, a heap) without building arrays of IDs.
  ///
  /// ```swift
  /// let test = dictionary.makeCandidateTest(for: filter)
  /// if test.accepts(id) { … }
  /// ```
  package func makeCandidateTest(for filter: SwipeFilter) -> CandidateTest {
    guard let features = featureView, let tables = FilterTables(filter, dictionary: self) else {
      return CandidateTest(owner: region, features: nil, tables: nil)
    }
    return CandidateTest(owner: region, features: features, tables: tables)
  }

  /// Calls `body` with the ID of every word that passes the filters, in ascending order,
  /// without collecting them.
  package func forEachCandidate(for filter: SwipeFilter, _ body: (Int) -> Void) {
    var scan = makeCandidateScan(for: filter)
    scan.advance(by: .max, body)
  }

  /// The scan behind ``candidates(for:)``, to run in pieces: a keyboard can spread it over
  /// the touch events of a swipe so that no event waits for the whole dictionary.
  ///
  /// ```swift
  /// var scan = dictionary.makeCandidateScan(for: startFilter)
  /// var found: [Int] = []
  /// scan.advance(by: 50_000, into: &found)    // on each touch event, until scan.isFinished
  /// ```
  package func makeCandidateScan(for filter: SwipeFilter) -> CandidateScan {
    guard let features = featureView, let tables = FilterTables(filter, dictionary: self) else {
      return CandidateScan(owner: region, features: nil, tables: nil, ranges: [])
    }
    return CandidateScan(
      owner: region, features: features, tables: tables, ranges: startRanges(tables.startOK))
  }

  /// The ID ranges of the first labels whose words can start on a key in `startOK`: a label
  /// typed with such a key, or one without a key (an apostrophe: the word's first key is a
  /// later character's). Ascending and disjoint.
  func startRanges(_ startOK: [Bool]) -> [Range<Int>] {
    let layout = self.layout
    var ranges: [Range<Int>] = []
    for (label, range) in dawg.firstLabelRanges() where Int(label) < alphabet.count {
      switch layout.classify(alphabet.scalars[Int(label)]) {
      case .key(let k) where startOK[k]: break
      case .skipped: break
      default: continue
      }
      if let last = ranges.last, last.upperBound == range.lowerBound {
        ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
      } else {
        ranges.append(range)
      }
    }
    return ranges
  }
}

/// A scan of the dictionary for the words that pass a ``SwipeFilter``, in ascending ID
/// order, that can stop and resume (see ``SwipeDictionary/makeCandidateScan(for:)``).
///
/// The scan keeps the blob's bytes alive: it may outlive the dictionary value it came from.
package struct CandidateScan: Sendable {
  /// Keeps `features` alive.
  private let owner: MappedRegion
  private let features: FeatureView?
  private let tables: FilterTables?
  /// The ID ranges left to scan (the start filter's first letters), ascending.
  private var ranges: [Range<Int>]
  private var next = 0

  init(owner: MappedRegion, features: FeatureView?, tables: FilterTables?, ranges: [Range<Int>]) {
    self.owner = owner
    self.features = features
    self.tables = tables
    self.ranges = ranges
    // safe: start ranges lie in 0..<wordCount (`firstLabelRanges`), the records' count
    // (checked at open); drop any range that would say otherwise, so the loads below need
    // no check.
    if let features {
      self.ranges = ranges.filter { $0.lowerBound >= 0 && $0.upperBound <= features.count }
    }
  }

  /// The number of words still to test.
  package var remaining: Int { ranges.dropFirst(next).reduce(0) { $0 + $1.count } }

  /// Whether every word has been tested.
  package var isFinished: Bool { next == ranges.count }

  /// Tests up to `count` more words, appending those that pass to `result` (ascending).
  package mutating func advance(by count: Int, into result: inout [Int]) {
    advance(by: count) { result.append($0) }
  }

  /// Tests up to `count` more words, calling `body` with each one that passes.
  package mutating func advance(by count: Int, _ body: (Int) -> Void) {
    guard let features, let tables else {
      next = ranges.count
      return
    }
    var budget = max(0, count)
    while budget > 0, next < ranges.count {
      let range = ranges[next]
      let end = range.count <= budget ? range.upperBound : range.lowerBound + budget
      // One loop per record size, so that each reads its fields at constant places.
      if tables.isNarrow {
        for id in range.lowerBound..<end where tables.acceptsNarrow(features.uncheckedStored(id)) { body(id) }
      } else {
        for id in range.lowerBound..<end where tables.acceptsWide(features.uncheckedStored(id)) { body(id) }
      }
      budget -= end - range.lowerBound
      if end == range.upperBound {
        next += 1
      } else {
        ranges[next] = end..<range.upperBound
      }
    }
  }
}

/// A ``SwipeFilter`` as a test of one word at a time
/// (``SwipeDictionary/makeCandidateTest(for:)``): one record read and three table lookups.
///
/// The test keeps the blob's bytes alive: it may outlive the dictionary value it came from.
package struct CandidateTest: Sendable {
  /// Keeps `features` alive.
  private let owner: MappedRegion
  private let features: FeatureView?
  private let tables: FilterTables?

  init(owner: MappedRegion, features: FeatureView?, tables: FilterTables?) {
    self.owner = owner
    self.features = features
    self.tables = tables
  }

  /// Whether word `id` passes every filter that is on; `false` for an ID that is not a word
  /// (or a blob without `FEAT`).
  @inline(__always)
  package func accepts(_ id: Int) -> Bool {
    guard let features, let tables, id >= 0, id < features.count else { return false }
    return tables.accepts(features.uncheckedStored(id))
  }

  /// Whether a packed `FEAT` record (a word the blob lacks) passes every filter that is on.
  func accepts(record: UInt32) -> Bool {
    guard let tables else { return false }
    return tables.accepts(packed: record)
  }
}

extension SwipeDictionary {
  /// The user's words the blob lacks (``userWords``) that can be swiped and pass `test`:
  /// their IDs (``wordCount`` and up), key paths (key indices, repeats collapsed) and
  /// frequency bytes — what a decoder matches beside the blob's candidates.
  package func userCandidates(passing test: CandidateTest) -> [(id: Int, keys: [UInt8], frequency: UInt8)] {
    var found: [(id: Int, keys: [UInt8], frequency: UInt8)] = []
    for (index, extra) in userLayer.extras.enumerated() {
      guard let record = extra.record, test.accepts(record: record) else { continue }
      found.append((wordCount + index, extra.keys, extra.frequency))
    }
    return found
  }
}

/// A filter turned into lookup tables over the fields of a `FEAT` record as stored (32-bit,
/// or narrow: 24-bit, format 1.5), so that testing a word costs three table lookups.
struct FilterTables {
  /// Per key: its center is near the start.
  let startOK: [Bool]
  /// Per (second key × slots + first key), the low 12 bits of a record (narrow: 10): the
  /// start filters pass.
  private let beginningOK: [Bool]
  /// The same, the start point alone: what a word too short for the direction filter needs.
  private let startOnlyOK: [Bool]
  /// Per 9-bit length code: the word is too short for the direction filter
  /// (``SwipeFilter/directionMinimumLength``).
  private let shortOK: [Bool]
  /// Per key: its center is near the end.
  private let endOK: [Bool]
  /// Per 9-bit length code: the length passes.
  private let lengthOK: [Bool]
  /// Whether the tables read narrow records (keys in 5 bits, not 6).
  let isNarrow: Bool

  /// The tables of `filter` on the dictionary's layout for its `FEAT` records, or `nil` when
  /// no key is near the start.
  init?(_ filter: SwipeFilter, dictionary: SwipeDictionary) {
    let centers = dictionary.keyGeometry.centers
    let width = dictionary.keyGeometry.keyWidth
    let keys = centers.count
    isNarrow = dictionary.featureView?.isNarrow ?? false
    // One slot per key index the records can hold, "no second key" (the last) included.
    let slots = isNarrow ? FeatureLayout.maxNarrowKeys + 1 : FeatureLayout.maxKeys + 1

    var startOK = [Bool](repeating: false, count: slots)
    let startReach = Self.reach(filter.startRadius * width, from: filter.start, centers: centers, width: width)
    for k in 0..<keys where centers[k].distance(to: filter.start) <= startReach { startOK[k] = true }
    guard startOK.contains(true) else { return nil }
    self.startOK = startOK

    // A start key and, unless the direction filter is off, a second key in the direction;
    // one-key words (second key 63) and neighboring first keys pass the direction.
    var beginningOK = [Bool](repeating: false, count: slots * slots)
    var startOnlyOK = [Bool](repeating: false, count: slots * slots)
    let layout = filter.startDirection == nil ? nil : dictionary.layout
    for a in 0..<keys where startOK[a] {
      let neighbors = Set(layout?.neighbors(of: a) ?? [])
      for b in 0..<slots {
        startOnlyOK[b * slots + a] = true
        var passes = true
        if let measured = filter.startDirection, b < keys, b != a, !neighbors.contains(b) {
          var delta = abs(centers[a].direction(to: centers[b]) - measured)
          if delta > .pi { delta = 2 * .pi - delta }
          passes = delta <= filter.directionTolerance
        }
        beginningOK[b * slots + a] = passes
      }
    }
    self.beginningOK = beginningOK
    self.startOnlyOK = startOnlyOK
    shortOK = (0..<512).map { FeatureLayout.keyWidths(forLengthCode: $0) < filter.directionMinimumLength }

    var endOK = [Bool](repeating: true, count: slots)
    if let end = filter.end {
      let reach = Self.reach(filter.endRadius * width, from: end, centers: centers, width: width)
      for k in 0..<slots { endOK[k] = k < keys && centers[k].distance(to: end) <= reach }
    }
    self.endOK = endOK

    var lengthOK = [Bool](repeating: true, count: 512)
    if let length = filter.length {
      let swiped = length / width
      let low = filter.lengthRatio.lowerBound * swiped
      let high = filter.lengthRatio.upperBound * swiped
      for code in 0..<512 {
        let expected = FeatureLayout.keyWidths(forLengthCode: code)
        lengthOK[code] = (expected >= low && expected <= high) || abs(expected - swiped) <= filter.lengthSlack
      }
    }
    self.lengthOK = lengthOK
  }

  /// A radius around `point` widened, when needed, to reach half a key width past the
  /// nearest key center: a swipe that starts or ends off the keyboard still has keys.
  static func reach(_ radius: Float, from point: LayoutPoint, centers: [LayoutPoint], width: Float) -> Float {
    let nearest = centers.reduce(Float.infinity) { min($0, $1.distance(to: point)) }
    return max(radius, nearest + width / 2)
  }

  /// Whether a `FEAT` record as stored (`FeatureView.uncheckedStored`) passes every filter.
  @inline(__always)
  func accepts(_ stored: UInt32) -> Bool {
    isNarrow ? acceptsNarrow(stored) : acceptsWide(stored)
  }

  /// ``accepts(_:)`` of a 32-bit record: the fields at constant places, for scans.
  @inline(__always)
  func acceptsWide(_ stored: UInt32) -> Bool {
    let beginning = Int(stored & 0xFFF)
    let length = Int(stored >> 23)
    return (beginningOK[beginning] || shortOK[length] && startOnlyOK[beginning]) && endOK[Int((stored >> 12) & 63)]
      && lengthOK[length]
  }

  /// ``accepts(_:)`` of a narrow record (the low 24 bits; the rest is ignored).
  @inline(__always)
  func acceptsNarrow(_ stored: UInt32) -> Bool {
    let beginning = Int(stored & 0x3FF)
    let length = Int((stored >> 15) & 511)
    return (beginningOK[beginning] || shortOK[length] && startOnlyOK[beginning]) && endOK[Int((stored >> 10) & 31)]
      && lengthOK[length]
  }

  /// Whether a record in the 32-bit packed form (a user's word) passes every filter.
  func accepts(packed: UInt32) -> Bool {
    accepts(isNarrow ? FeatureLayout.narrowed(packed) : packed)
  }
}

/// How one word fares against each of a ``SwipeFilter``'s filters, with the values measured:
/// the answer to "why was my word not a candidate?"
/// (``SwipeDictionary/filterReport(for:filter:)``).
public struct SwipeFilterReport: Sendable, Hashable {
  /// One of the four filters.
  public enum Stage: String, Sendable, Hashable, CaseIterable {
    /// The first key's distance from the swipe's first point.
    case start
    /// The angle between the word's first stroke and the swipe's start direction.
    case direction
    /// The last key's distance from the swipe's last point.
    case end
    /// The word's expected length against the swiped length.
    case length
  }

  /// One filter's verdict.
  public struct Check: Sendable, Hashable {
    /// Which filter.
    public var stage: Stage
    /// The word's value: key widths for start, end and length; radians for direction.
    public var value: Float
    /// The values the filter accepts, in the same unit (for length: the span from the
    /// shortest to the longest accepted expected length).
    public var accepted: ClosedRange<Float>
    /// Whether the word passes this filter (decided as the candidate scan decides, in the
    /// layout's unit).
    public var passes: Bool
  }

  /// The filters that apply to the word, in pipeline order. The direction filter is left
  /// out when it is off, when the word has one key, when its second key neighbors the first,
  /// or when the word is shorter than ``SwipeFilter/directionMinimumLength``.
  public var checks: [Check]
  /// Whether the word passes every filter: it is a candidate.
  public var passes: Bool { checks.allSatisfy(\.passes) }
}

extension SwipeDictionary {
  /// How word `id` fares against each filter of `filter` that is on, with the measured
  /// values; `nil` when `id` is not a word or the blob has no `FEAT` section. A word passes
  /// here exactly when ``candidates(for:)`` lists it.
  package func filterReport(for id: Int, filter: SwipeFilter) -> SwipeFilterReport? {
    guard let record = featureRecord(of: id) else { return nil }
    let centers = keyGeometry.centers
    let width = keyGeometry.keyWidth
    var checks: [SwipeFilterReport.Check] = []
    let first = centers[record.firstKey]
    let startReach = FilterTables.reach(filter.startRadius * width, from: filter.start, centers: centers, width: width)
    let startDistance = first.distance(to: filter.start)
    checks.append(
      .init(
        stage: .start, value: startDistance / width, accepted: 0...(startReach / width),
        passes: startDistance <= startReach))
    if let measured = filter.startDirection, let second = record.secondKey, second != record.firstKey,
      !layout.neighbors(of: record.firstKey).contains(second),
      !(record.lengthInKeyWidths < filter.directionMinimumLength)
    {
      var delta = abs(first.direction(to: centers[second]) - measured)
      if delta > .pi { delta = 2 * .pi - delta }
      checks.append(
        .init(
          stage: .direction, value: delta, accepted: 0...filter.directionTolerance,
          passes: delta <= filter.directionTolerance))
    }
    if let end = filter.end {
      let reach = FilterTables.reach(filter.endRadius * width, from: end, centers: centers, width: width)
      let distance = centers[record.lastKey].distance(to: end)
      checks.append(
        .init(stage: .end, value: distance / width, accepted: 0...(reach / width), passes: distance <= reach))
    }
    if let length = filter.length {
      let swiped = length / width
      let expected = record.lengthInKeyWidths
      let ratio =
        expected >= filter.lengthRatio.lowerBound * swiped && expected <= filter.lengthRatio.upperBound * swiped
      let low = min(filter.lengthRatio.lowerBound * swiped, swiped - filter.lengthSlack)
      let high = max(filter.lengthRatio.upperBound * swiped, swiped + filter.lengthSlack)
      checks.append(
        .init(
          stage: .length, value: expected, accepted: max(0, low)...max(0, low, high),
          passes: ratio || abs(expected - swiped) <= filter.lengthSlack))
    }
    return SwipeFilterReport(checks: checks)
  }
}
