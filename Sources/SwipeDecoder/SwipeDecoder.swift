import SwipeDict

/// The reference swipe decoder: turns the points of a swipe into the words it most likely
/// spells, using only the public API of a ``SwipeDictionary``.
///
/// ```swift
/// let decoder = SwipeDecoder(dictionary: dictionary)
/// let result = decoder.decode(points)                  // a whole swipe at once
/// result.words.map(\.word)                             // ["hello", "hell", "jello", "hells"]
///
/// var session = decoder.makeSession()                        // or point by point, as the finger moves
/// for point in points { session.add(point) }
/// let same = session.end(deadline: .now + .milliseconds(50))
/// ```
///
/// The pipeline follows the swipe thesis (see `docs/decoder.md` for the measurements):
///
/// 1. **Input reduction** while the finger moves: a point is kept where it adds shape
///    (a bend, a sharp turn, or a long straight run); see ``Options/reduction``.
/// 2. **Filters.** Once the swipe is a key width long, the start-point and start-direction
///    filters scan the dictionary (``SwipeDictionary/makeCandidateScan(for:)``), a slice per
///    point, still while the finger moves; when it lifts, the end-point and length filters
///    narrow that list (``SwipeDictionary/candidates(for:among:)``). The tolerances are
///    ``Options/filter``'s.
/// 3. **Segment DTW** of the reduced swipe against each candidate's perfect swipe (key center
///    to itself, to the next, …), with a monotone position along each segment and a locality
///    band (``Options/band``). Candidates are visited in ID order, so consecutive ones share
///    key-path prefixes and the DTW columns of the shared keys are reused
///    (``SwipeDictionary/makeKeyPathReader()``).
/// 4. **Search.** `w × ln(count) − distance`, where `distance` is the DTW cost per point
///    (mean squared distance in key widths², each point's share capped at
///    ``Options/maximumPointCost``) and `count` what the word's frequency byte stands for —
///    or, given the previous word (a ``WordContext``), its count in that context. The
///    search keeps the ``Options/candidatePool`` best words by it
///    (``Options/frequencyWeight``); a candidate stops being matched as soon as a lower bound
///    of its cost shows it cannot enter them — from its first, second and last key before
///    its key path is read, then column by column — which changes no result. Words that
///    differ only by case or apostrophes take one place (the more frequent form).
/// 5. **Ranking.** The words kept are ranked by the likelihood of the swipe given each
///    (``SwipeRanking``: the DTW's location channel, a scale- and translation-free shape
///    channel, the swipe's length against the word's) plus its log count (ties: the more
///    frequent, then the lower ID).
///
/// With a deadline, matching stops when it passes and the best words so far are returned;
/// to make those good ones, the most frequent candidates are matched first.
///
/// `SwipeDecoder` is an immutable value: share it between threads; each swipe runs in its
/// own ``SwipeSession``.
public struct SwipeDecoder: Sendable {
  /// The decoder's tunable parameters. The defaults were chosen on synthetic swipes at
  /// several noise levels (see `docs/decoder.md`).
  public struct Options: Sendable, Hashable {
    /// Input reduction: a point is kept when the path since the last kept point is at least
    /// `maxGap` key widths long, or it makes a triangle of at least `minArea` key widths²
    /// with the last kept point and the next point, or the angle there is at most `maxAngle`
    /// radians.
    public var reduction = Reduction()
    /// The filters' tolerances; its measured fields (start, direction, end, length) are
    /// replaced by each swipe's. Wider than the thesis's (``SwipeFilter``'s defaults) so that
    /// real swipes keep their word (measured on the How-We-Swipe dev set in
    /// `docs/decoder.md`): start radius 1.25 and end radius 1.75 key widths, direction
    /// within 80° (hooks at touch-down) for words whose perfect swipe is 5 key widths long
    /// or more (a hook turns a short word's start around), expected length 0.5…1.8 times the
    /// swiped length (loops and overshoot make people's swipes long) or within 2 key widths.
    public var filter: SwipeFilter = {
      var filter = SwipeFilter(start: LayoutPoint(x: 0, y: 0))
      filter.startRadius = 1.25
      filter.endRadius = 1.75
      filter.directionTolerance = 80 * .pi / 180
      filter.directionMinimumLength = 5
      filter.lengthRatio = 0.5...1.8
      filter.lengthSlack = 2
      return filter
    }()
    /// The DTW locality band: a point whose swipe length so far is ℓ may match a segment of
    /// the perfect swipe spanning lengths e₀…e₁ (key widths) only if
    /// `ratio.lowerBound × e₀ − slack ≤ ℓ ≤ ratio.upperBound × e₁ + slack`.
    public var band = Band()
    /// How much one e-fold of a word's count is worth, in key widths² of mean squared
    /// distance, while searching: the search keeps the ``candidatePool`` best words by
    /// `frequencyWeight × ln(count) − distance`, a score whose bound prunes the matching. 0
    /// searches by shape alone.
    public var frequencyWeight: Float = 0.05
    /// How the words the search kept are ranked: the likelihood model of ``SwipeRanking``
    /// (location and shape channels, the swipe's length, the word's log count). `nil` ranks
    /// them by the search's score, the thesis's `frequencyWeight × ln(count) − distance`.
    public var ranking: SwipeRanking? = SwipeRanking()
    /// How many words the search keeps for the ranking (at least ``resultCount``): the more,
    /// the more a word the search's linear score put low can still be ranked up, and the
    /// weaker the bound that prunes the matching.
    public var candidatePool = 12
    /// The most one swipe point adds to the distance, in key widths²: a point farther than
    /// √2 key widths from the perfect swipe (a hook, an overshoot off the keyboard, a detour)
    /// counts as that far. `.infinity` (or any value that is not a positive number) counts
    /// every point's full distance.
    public var maximumPointCost: Float = 2
    /// How much the previous word counts (a decoding given a ``WordContext``), in key
    /// widths² of mean squared distance per e-fold: a word's search score gains
    /// `contextWeight ×` its ``WordContext/boost(of:)``; in the ranking, each e-fold of boost
    /// counts `contextWeight / frequencyWeight` e-folds of count (0.8 by default). 0 ignores
    /// the context.
    public var contextWeight: Float = 0.04
    /// How many words a decoding returns.
    public var resultCount = 4

    /// The thresholds of the input reduction.
    public struct Reduction: Sendable, Hashable {
      /// Keep a point when the path since the last kept point is this long (key widths).
      public var maxGap: Float = 1
      /// Keep a point that makes a triangle of this area with its neighbors (key widths²).
      public var minArea: Float = 0.05
      /// Keep a point where the swipe turns back this sharply: the angle between the
      /// directions to the last kept point and to the next point, at most (radians).
      public var maxAngle: Float = .pi / 2
      /// The defaults.
      public init() {}
    }

    /// The locality band of the DTW.
    public struct Band: Sendable, Hashable {
      /// The accepted ratio of swipe length to perfect-swipe length at each point.
      public var ratio: ClosedRange<Float> = 0.5...2
      /// A length difference always accepted (key widths).
      public var slack: Float = 1.5
      /// The defaults.
      public init() {}
    }

    /// The defaults.
    public init() {}
  }

  /// The dictionary the decoder searches.
  public let dictionary: SwipeDictionary
  /// The parameters.
  public let options: Options
  let reader: KeyPathReader
  /// Key centers in key widths.
  let centers: [(x: Float, y: Float)]

  /// A decoder over `dictionary`, whose layout gives the key geometry.
  /// - Parameters:
  ///   - dictionary: a blob with swipe features (format 1.1); on one without, every
  ///     decoding is empty.
  ///   - options: the parameters.
  public init(dictionary: SwipeDictionary, options: Options = Options()) {
    self.dictionary = dictionary
    self.options = options
    reader = dictionary.makeKeyPathReader()
    let unit = 1 / dictionary.keyWidth
    centers = dictionary.keyCenters.map { (x: $0.x * unit, y: $0.y * unit) }
  }

  /// Starts decoding a swipe point by point.
  public func makeSession() -> SwipeSession {
    SwipeSession(decoder: self)
  }

  /// Decodes a whole swipe: the same as feeding its points to a session one by one.
  /// - Parameters:
  ///   - points: the swipe, in the layout's units.
  ///   - context: the previous word (``SwipeDictionary/context(after:pairWeight:)``): each
  ///     word's count is its count in that context; none by default.
  ///   - deadline: when to stop matching and return the best words so far (`nil`: never).
  public func decode(
    _ points: some Sequence<SwipePoint>, context: WordContext = .empty, deadline: ContinuousClock.Instant? = nil
  ) -> SwipeDecoding {
    var session = makeSession()
    for point in points { session.add(point) }
    return session.end(context: context, deadline: deadline)
  }
}

/// The words a swipe most likely spells, and what it took to find them.
public struct SwipeDecoding: Sendable, Hashable {
  /// One decoded word: a candidate that made the top list.
  public struct Candidate: Sendable, Hashable {
    /// The word's ID in the dictionary.
    public var id: Int
    /// The word.
    public var word: String
    /// The ranking score (higher is better): ``SwipeRanking/score(logCount:distance:shapeDistance:lengthRatio:)``,
    /// in e-folds of count (or the search's score, `frequencyWeight × ln(count) − distance`,
    /// when ``SwipeDecoder/Options/ranking`` is `nil`). The words are in this order.
    public var score: Float
    /// The DTW cost per point of the swipe: the mean squared distance, in key widths²,
    /// between the swipe and the word's perfect swipe (the location channel).
    public var distance: Float
    /// The shape channel's distance between the swipe and the word's perfect swipe, each
    /// resampled, centered and scaled to size 1 (``SwipeRanking``).
    public var shapeDistance: Float
    /// ln(swiped ÷ expected length), within −1…1: how much longer the swipe is than the
    /// word's perfect swipe.
    public var lengthRatio: Float
    /// The word's frequency byte (0…255, log scale).
    public var frequency: UInt8
  }

  /// The best words, best first.
  public var words: [Candidate]
  /// How many words passed the four filters.
  public var candidateCount: Int
  /// How many of them were matched (all of them unless the deadline passed).
  public var matchedCount: Int
  /// Whether every candidate was matched: `false` when the deadline cut the search short.
  public var isComplete: Bool
  /// The swipe's points, as given and after the input reduction.
  public var pointCount: Int
  /// The points the DTW matched.
  public var reducedPointCount: Int

  /// An empty decoding (no points, or no candidates).
  static let empty = SwipeDecoding(
    words: [], candidateCount: 0, matchedCount: 0, isComplete: true, pointCount: 0,
    reducedPointCount: 0)
}
