import SwipeDict

/// One swipe being decoded, fed point by point as the finger moves.
///
/// ```swift
/// var session = decoder.makeSession()
/// session.add(SwipePoint(x: 131, y: 80))     // touch down
/// session.add(SwipePoint(x: 120, y: 62))     // each move
/// let result = session.end(deadline: .now + .milliseconds(50))   // lift
/// ```
///
/// ``add(_:)`` does the work that needs only the points so far: it reduces the input and,
/// once the swipe is a key width long, scans the dictionary for the words that start near
/// the first point in the start direction, a slice per point. ``end(context:deadline:)`` applies
/// the end and length filters to those words and matches the survivors; that is the wait
/// the user feels. The result is the same whichever way the points arrive:
/// ``SwipeDecoder/decode(_:context:deadline:)`` feeds a session.
///
/// After ``end(context:deadline:)`` the session is empty again, ready for the next swipe (it keeps
/// its buffers).
public struct SwipeSession: Sendable {
  private let decoder: SwipeDecoder
  private var reducer: PointReducer
  /// Start, direction, end and length for the filters.
  private var measurement: SwipeFilterMeasurement
  /// The start filters' scan, once the direction is known, and what it found so far
  /// (then, at the lift, the candidates): a bit per word, a fixed size.
  private var startScan: CandidateScan?
  private var candidates = IDBitmap()

  /// Words the start scan tests per added point: a fraction of a millisecond, so that no
  /// touch event waits for a whole large dictionary; the lift finishes what is left.
  static let scanStep = 65_536

  init(decoder: SwipeDecoder) {
    self.decoder = decoder
    reducer = PointReducer(options: decoder.options.reduction, keyWidth: decoder.dictionary.keyWidth)
    measurement = SwipeFilterMeasurement(keyWidth: decoder.dictionary.keyWidth)
    candidates.reset(limit: decoder.dictionary.wordCount)
  }

  /// Forgets the swipe, keeping the buffers for the next one.
  private mutating func reset() {
    reducer.reset()
    measurement = SwipeFilterMeasurement(keyWidth: decoder.dictionary.keyWidth)
    startScan = nil
    candidates.reset(limit: decoder.dictionary.wordCount)
  }

  /// The number of points added so far.
  public var count: Int { measurement.count }

  /// What the session knows of the swipe so far, while the finger moves: its reduced
  /// points and how many words the start filters kept. Builds the arrays on each call
  /// (``add(_:)`` does not): for tools that show the decoder at work, not a keyboard's
  /// hot path.
  public var progress: SwipeProgress {
    let unit = decoder.dictionary.keyWidth
    return SwipeProgress(
      pointCount: measurement.count,
      reducedPoints: reducer.points.map { SwipePoint(x: $0.x * unit, y: $0.y * unit) },
      startCandidates: startScan == nil ? nil : candidates.count,
      isStartScanFinished: startScan?.isFinished ?? false)
  }

  /// The four filters as measured from the points so far, with the decoder's tolerances
  /// (``SwipeDecoder/Options/filter``): what ``end(context:deadline:)`` would filter by if
  /// the finger lifted now. `nil` before the first point.
  public var filter: SwipeFilter? {
    guard measurement.count > 0 else { return nil }
    return measurement.filter(decoder.options.filter)
  }

  /// Adds the next point of the swipe (layout units). Non-finite points are ignored.
  ///
  /// Takes bounded time: the input reduction looks at the points since the last kept one
  /// (at most 64), and from when the path first reaches a key width each point tests up to
  /// 65,536 more words whose first key is near the first point.
  public mutating func add(_ point: SwipePoint) {
    guard point.x.isFinite, point.y.isFinite else { return }
    let hadDirection = measurement.startDirection != nil
    measurement.add(LayoutPoint(x: point.x, y: point.y))
    reducer.add(x: point.x, y: point.y)
    if !hadDirection, measurement.startDirection != nil {
      var filter = measurement.filter(decoder.options.filter)
      filter.end = nil
      filter.length = nil
      startScan = decoder.dictionary.makeCandidateScan(for: filter)
    }
    if startScan?.isFinished == false {
      startScan?.advance(by: Self.scanStep) { candidates.insert($0) }
    }
  }

  /// Ends the swipe: filters and matches, and returns the best words. Resets the session.
  /// - Parameters:
  ///   - context: the previous word (``SwipeDictionary/context(after:pairWeight:)``, made
  ///     once when the user committed it); none by default.
  ///   - deadline: when to stop matching and return the best words so far; `nil` matches
  ///     every candidate.
  public mutating func end(
    context: WordContext = .empty, deadline: ContinuousClock.Instant? = nil
  ) -> SwipeDecoding {
    end(context: context, deadline: deadline, matchLimit: .max)
  }

  /// `end(context:deadline:)` that also stops after matching `matchLimit` candidates: a
  /// deadline that does not depend on the machine's speed, for tests.
  mutating func end(
    context: WordContext = .empty, deadline: ContinuousClock.Instant?, matchLimit: Int
  ) -> SwipeDecoding {
    defer { reset() }
    guard measurement.count > 0 else { return .empty }
    let filter = measurement.filter(decoder.options.filter)
    // The filters as tables: for the start scan's words and the user's words, once.
    let hasUserWords = !decoder.dictionary.userWords.isEmpty
    let test = startScan != nil || hasUserWords ? decoder.dictionary.makeCandidateTest(for: filter) : nil
    if var scan = startScan, let test {
      scan.advance(by: .max) { candidates.insert($0) }
      candidates.removeAll { !test.accepts($0) }
    } else {
      decoder.dictionary.forEachCandidate(for: filter) { candidates.insert($0) }
    }
    decoder.dictionary.forEachUnsuggestible { candidates.remove($0) }
    let points = reducer.points
    var search = WordSearch(decoder: decoder, points: points, context: context)
    var complete = search.run(candidates, deadline: deadline, matchLimit: matchLimit)
    // The user's words the blob lacks, when there are (and time is left).
    let userWords = test.map { decoder.dictionary.userCandidates(passing: $0) } ?? []
    if !userWords.isEmpty {
      if complete, deadline.map({ ContinuousClock.now < $0 }) ?? true {
        search.run(userWords: userWords)
      } else {
        complete = false
      }
    }
    let words = search.results(swipeLength: measurement.length / decoder.dictionary.keyWidth)
    return SwipeDecoding(
      words: words, candidateCount: candidates.count + userWords.count,
      matchedCount: search.matched,
      isComplete: complete, pointCount: measurement.count, reducedPointCount: points.count)
  }
}

/// A swipe in progress as its ``SwipeSession`` sees it (``SwipeSession/progress``).
public struct SwipeProgress: Sendable, Hashable {
  /// The points added so far (finite ones).
  public var pointCount: Int
  /// The points the input reduction kept so far, in the layout's units, with the newest
  /// point last (it always ends the swipe); no times.
  public var reducedPoints: [SwipePoint]
  /// How many words the start-point and start-direction filters have kept so far; `nil`
  /// until the swipe is a key width long (its start direction unknown). The scan tests a
  /// slice of the dictionary per added point, so on a large dictionary this grows over
  /// the first points until ``isStartScanFinished``.
  public var startCandidates: Int?
  /// Whether the start filters' scan has tested every word whose first key is near the
  /// first point (`false` before it starts).
  public var isStartScanFinished: Bool

  /// Creates a progress report.
  public init(pointCount: Int, reducedPoints: [SwipePoint], startCandidates: Int?, isStartScanFinished: Bool) {
    self.pointCount = pointCount
    self.reducedPoints = reducedPoints
    self.startCandidates = startCandidates
    self.isStartScanFinished = isStartScanFinished
  }
}
