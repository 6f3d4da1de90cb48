import SwipeDict

/// The one object a keyboard holds: it takes the keyboard's events — touches in the view's
/// coordinates, what the user typed, committed, deleted and blocked — and answers the
/// suggestions: the swipe's top words, completions, corrections and next words, in every
/// language at once, with the user's words, blocks and the previous word applied everywhere.
///
/// ```swift
/// let engine = try KeyboardEngine(languages: [.init(name: "en", dictionary: english)],
///                                 userDictionary: store)
/// engine.keyArea = ViewRect(x: 0, y: 0, width: 390, height: 180)   // where the keys are drawn
/// engine.touchBegan(at: ViewPoint(x: 230, y: 95), time: touch.timestamp)
/// engine.touchMoved(to: ViewPoint(x: 96, y: 30), time: touch.timestamp)
/// let swipe = await engine.touchEnded(at: ViewPoint(x: 330, y: 32), time: touch.timestamp)
/// engine.commit(swipe.words[0].word)        // learned; it becomes the previous word
/// engine.completions(for: "wor")            // world, work, … after it
/// ```
///
/// **Threads.** The engine belongs to the main actor, where UIKit delivers touches: its
/// events and queries are synchronous there and bounded (a touch event does a slice of the
/// start filters' scan, a fraction of a millisecond; completion and correction a few
/// milliseconds on large dictionaries). The work after the lift, the filters' end and the
/// matching, runs off the main actor: ``touchEnded(at:time:)`` is `async`, its deadline
/// (``Configuration/deadline``) starts at the lift and covers all of it, and it answers on
/// the main actor. The compiler checks all this: the engine is isolated to the main actor,
/// and what it hands to other threads is `Sendable` values.
///
/// **Keeping things in step.** Every change the user makes (``commit(_:)``, ``retract(_:)``,
/// ``block(_:)``, ``add(_:)``) is written to the user dictionary and applied to every
/// language's dictionary, decoder and corrector at once: the next touch, completion and
/// correction see it. Another process's writes (the app's settings) arrive with
/// ``refreshUserWords()``; an installed update or another language with
/// ``setLanguages(_:)``. A store this process may not write (a keyboard without Full Access,
/// ``UserDictionary/isReadOnly``) or whose lock is busy keeps the changes in memory: they
/// count at once, and are written when the store can take them (``pendingChangeCount``).
///
/// **Limits.** A swipe hands at most ``TouchTrace/maximumPointCount`` points to the decoder;
/// typed text longer than ``maximumTypedLength`` characters is neither completed nor corrected;
/// every answer holds at most the count asked for.
@MainActor
public final class KeyboardEngine {
  /// One language: its name, its dictionary and its weight among the languages.
  public struct Language: Sendable {
    /// The language's name, as the keyboard shows it ("en").
    public var name: String
    /// Its dictionary.
    public var dictionary: SwipeDictionary
    /// The factor on its words' counts (positive): 1 treats the languages alike.
    public var weight: Double

    /// A language.
    public init(name: String, dictionary: SwipeDictionary, weight: Double = 1) {
      self.name = name
      self.dictionary = dictionary
      self.weight = weight
    }
  }

  /// How the engine decodes, corrects and answers.
  public struct Configuration: Sendable {
    /// How long the answer to a swipe may take from the lift: the decoder returns the best
    /// words found by then (50 ms; a keyboard's whole budget is about 100 ms).
    public var deadline: Duration = .milliseconds(50)
    /// The decoder's parameters (``SwipeDecoder/Options``); `resultCount` is how many words a
    /// swipe answers (4).
    public var decoder = SwipeDecoder.Options()
    /// The corrector's model and costs.
    public var correction: CorrectionModel = .typing()
    /// Leave words marked possibly offensive out of every suggestion (they stay words: a
    /// user who types one keeps it), as AOSP keyboards do by default.
    public var blocksOffensiveWords = true

    /// The defaults.
    public init() {}
  }

  /// Where a suggestion comes from.
  public enum Source: Sendable, Hashable {
    /// The swipe decoder.
    case swipe
    /// Completion of the typed prefix.
    case completion
    /// Correction of the typed word.
    case correction
    /// Prediction of the next word from the previous one.
    case nextWord
  }

  /// A word to offer.
  public struct Suggestion: Sendable, Hashable {
    /// The word, as the dictionary (or the user) spells it.
    public var word: String
    /// The name of its language (``Language/name``).
    public var language: String
    /// What found it.
    public var source: Source
    /// The score it was ranked by (higher is better; comparable within one answer only).
    public var score: Double
  }

  /// What a swipe decoded to.
  public struct SwipeResult: Sendable, Hashable {
    /// The best words, best first (at most `resultCount` of the decoder options).
    public var words: [Suggestion]
    /// Whether the decoder matched every candidate before the deadline.
    public var isComplete: Bool
    /// The points the decoder got.
    public var pointCount: Int
    /// Points dropped as stray, or for a non-finite coordinate (``TouchTrace``).
    public var droppedPointCount: Int
    /// Whether points past ``TouchTrace/maximumPointCount`` were ignored.
    public var isTruncated: Bool
    /// The decoder's own answer, for tools that show its work (the playground's funnel).
    package var decoding: MultilingualDecoding?

    /// No swipe.
    public static let empty = SwipeResult(
      words: [], isComplete: true, pointCount: 0, droppedPointCount: 0, isTruncated: false)
  }

  /// Typed text longer than this many characters is neither completed nor corrected: 128, the
  /// longest word a blob holds (``SwipeDictionary/maximumWordLength``). Correction's time grows
  /// with the typed length.
  public static let maximumTypedLength = SwipeDictionary.maximumWordLength

  /// The languages, in the order given.
  public private(set) var languages: [Language]
  /// The configuration.
  public let configuration: Configuration
  /// The user dictionary the engine writes to and reads from, if any.
  public let userDictionary: UserDictionary?

  /// Where the view draws the layout's keys (see ``KeyboardViewMapping``): set it whenever the
  /// view lays out (rotation, a new size). By default the layout's own rectangle, so that
  /// points in the layout's units map to themselves. An invalid rectangle (empty, not finite)
  /// is ignored.
  public var keyArea: ViewRect {
    get { mapping.keyArea }
    set {
      if let mapping = KeyboardViewMapping(layout: layout, keyArea: newValue) { self.mapping = mapping }
    }
  }

  /// The mapping of ``keyArea`` onto the layout.
  public private(set) var mapping: KeyboardViewMapping

  /// The previous word: the last one committed, which completion, correction, next-word
  /// prediction and the decoder rank by; `nil` at the start of a text (``resetContext()``).
  public private(set) var previousWord: String?

  /// The user's words as every query sees them: the store's, with the changes it could not
  /// take yet.
  public private(set) var userWords: UserWords

  /// How many of the user's changes wait to be written (the store is read-only or was busy).
  public var pendingChangeCount: Int { pending.count }

  /// Why the last write to the user dictionary failed, or `nil` when it succeeded.
  public private(set) var lastStoreError: UserDictionaryError?

  private let layout: KeyboardLayout
  private var dictionary: MultilingualDictionary
  private var decoder: MultilingualDecoder
  private var corrector: MultilingualCorrector
  private var context: MultilingualDictionary.Context = .empty
  private var pending: [(change: UserEntryChange, word: String)] = []
  /// The swipe under way, and a session to reuse (made by the current decoder).
  private var trace: TouchTrace?
  private var session: MultilingualSession?
  private var spareSession: MultilingualSession?
  /// Counts the decoders installed, so that a session comes back only to the decoder that made it.
  private var decoderGeneration = 0
  /// The previous word before the last commit, for ``retract(_:)``.
  private var contextBeforeCommit: String??

  /// An engine over `languages`, with the user's words of `userDictionary`.
  /// - Parameters:
  ///   - languages: one or more languages built for the same layout.
  ///   - userDictionary: the user's words (``UserDictionary``), or `nil` for none; the engine
  ///     reads it at once and writes to it from then on.
  ///   - configuration: deadline, decoder and corrector options.
  /// - Throws: ``MultilingualDictionary/Error`` for no language, a repeated name, a weight
  ///   that is not positive, or languages built for different layouts.
  public init(
    languages: [Language], userDictionary: UserDictionary? = nil, configuration: Configuration = Configuration()
  ) throws(MultilingualDictionary.Error) {
    self.languages = languages
    self.configuration = configuration
    self.userDictionary = userDictionary
    userWords = userDictionary?.words ?? UserWords()
    let dictionary = try Self.dictionary(of: languages, configuration: configuration, userWords: userWords)
    self.dictionary = dictionary
    layout = dictionary.members[0].dictionary.layout
    // A layout with no keys makes no blob: the compiler refuses it.
    mapping = KeyboardViewMapping(layout: layout) ?? Self.unitMapping
    decoder = MultilingualDecoder(dictionary: dictionary, options: configuration.decoder)
    corrector = dictionary.makeCorrector(model: configuration.correction)
  }

  private static let unitMapping: KeyboardViewMapping = {
    let unit = KeyboardLayout(
      name: "unit", unit: "pt", keyWidth: 1, keys: [.init(character: "a", x: 0.5, y: 0.5, width: 1, height: 1)])
    // safe: a one-key layout of unit size has a mapping.
    return KeyboardViewMapping(layout: unit)!
  }()

  private static func dictionary(
    of languages: [Language], configuration: Configuration, userWords: UserWords
  ) throws(MultilingualDictionary.Error) -> MultilingualDictionary {
    var dictionary = try MultilingualDictionary(
      languages.map { language in
        var blob = language.dictionary
        blob.blocksOffensiveWords = configuration.blocksOffensiveWords
        return .init(language: language.name, dictionary: blob, weight: language.weight)
      })
    if !userWords.isEmpty { dictionary.userWords = userWords }
    return dictionary
  }

  // MARK: Swapping

  /// Uses other languages from now on: an installed update of a blob, a language added or
  /// removed. The user's words and the previous word carry over; a swipe under way finishes
  /// on the languages it began with.
  /// - Throws: ``MultilingualDictionary/Error`` as ``init(languages:userDictionary:configuration:)``
  ///   does, or ``MultilingualDictionary/Error/layoutMismatch(language:layout:expected:)``
  ///   for languages of another layout than the engine's (make a new engine for a new
  ///   layout); the engine is then unchanged.
  public func setLanguages(_ languages: [Language]) throws(MultilingualDictionary.Error) {
    let dictionary = try Self.dictionary(of: languages, configuration: configuration, userWords: userWords)
    let first = dictionary.members[0]
    guard first.dictionary.layout == layout else {
      throw .layoutMismatch(language: first.language, layout: first.dictionary.layout.name, expected: layout.name)
    }
    self.languages = languages
    install(dictionary)
  }

  /// Picks up what other processes wrote to the user dictionary (the app's settings, another
  /// keyboard instance), and writes the changes that were waiting.
  /// - Returns: whether the user's words changed.
  @discardableResult
  public func refreshUserWords() -> Bool {
    guard let store = userDictionary else { return false }
    let before = userWords
    do {
      try store.refresh()
      lastStoreError = nil
    } catch {
      lastStoreError = error
    }
    writePending()
    updateUserWords()
    return userWords != before
  }

  // MARK: Touches

  /// The finger touched the keyboard: a swipe (or a tap) begins. A swipe under way is dropped.
  /// - Parameters:
  ///   - point: where, in the view's coordinates (``keyArea``).
  ///   - time: when, in seconds (`UITouch.timestamp`), or `nil`.
  public func touchBegan(at point: ViewPoint, time: Double? = nil) {
    trace = TouchTrace(mapping: mapping)
    session = spareSession ?? decoder.makeSession()
    spareSession = nil
    add(point, time: time)
  }

  /// The finger moved.
  public func touchMoved(to point: ViewPoint, time: Double? = nil) {
    add(point, time: time)
  }

  /// The finger lifted: the swipe's best words. The decoding runs off the main actor within
  /// ``Configuration/deadline`` of this call; the answer comes back here.
  /// - Parameters:
  ///   - point: where the finger lifted, if the event has a point the moves did not.
  ///   - time: when, in seconds.
  /// - Returns: the best words, or ``SwipeResult/empty`` without a swipe under way.
  public func touchEnded(at point: ViewPoint? = nil, time: Double? = nil) async -> SwipeResult {
    let deadline = ContinuousClock.now.advanced(by: configuration.deadline)
    if let point { add(point, time: time) }
    guard var trace, var session else { return .empty }
    self.trace = nil
    self.session = nil  // the local copy is now the session's only owner: no buffer is copied
    for point in trace.finish() { session.add(point) }
    let pointCount = session.count
    let names = decoder.dictionary.members.map(\.language)
    let generation = decoderGeneration
    // Off the main actor, the session handed over whole: the box is its only owner, so ending
    // it copies no buffer, and nothing here touches it meanwhile.
    let handoff = SessionHandoff(consume session)
    let context = self.context
    let (decoding, ended) = await Task.detached(priority: .userInitiated) {
      let decoding = handoff.session.end(context: context, deadline: deadline)
      return (decoding, handoff.session)
    }.value
    // The session is empty again: keep it for the next swipe while its decoder is current.
    if generation == decoderGeneration, spareSession == nil { spareSession = ended }
    return SwipeResult(
      words: decoding.words.map {
        Suggestion(word: $0.word, language: names[$0.language], source: .swipe, score: Double($0.candidate.score))
      },
      isComplete: decoding.isComplete, pointCount: pointCount, droppedPointCount: trace.droppedCount,
      isTruncated: trace.isTruncated, decoding: decoding)
  }

  /// A session on its way to the task that ends it.
  private final class SessionHandoff {
    var session: MultilingualSession
    init(_ session: consuming MultilingualSession) { self.session = session }
  }

  /// The touch was cancelled (a system gesture took it): the swipe is dropped.
  public func touchCancelled() {
    trace = nil
    session = nil
  }

  /// Whether a swipe is under way.
  public var isSwiping: Bool { trace != nil }

  /// What the decoder knows of the swipe under way (its reduced points, the words the start
  /// filters kept): for tools that show the decoder at work.
  package var swipeProgress: SwipeProgress? { session?.progress }

  /// The filters as measured from the swipe's points so far.
  package var swipeFilter: SwipeFilter? { session?.filter }

  private func add(_ point: ViewPoint, time: Double?) {
    // In place (optional chaining): the session's buffers are never copied.
    for mapped in trace?.add(point, time: time) ?? [] { session?.add(mapped) }
  }

  // MARK: Typing

  /// The words that start with `prefix` (case and accents folded), most likely first: by
  /// frequency, the user's uses, and the count after the previous word.
  /// - Returns: at most `limit`; none for an empty prefix or one longer than
  ///   ``maximumTypedLength`` (after a space, ask ``nextWords(limit:)``).
  public func completions(for prefix: String, limit: Int = 3) -> [Suggestion] {
    guard Self.isTypeable(prefix), limit > 0 else { return [] }
    return dictionary.completions(prefix: prefix, context: context, limit: limit).map {
      suggestion(from: $0, .completion)
    }
  }

  /// The words the user most likely meant by `typed`, best first (the typing model: slips to
  /// neighbouring keys, omissions, swaps…, weighed against frequency, the user's uses and
  /// the previous word). The typed word itself comes first when it is a word.
  /// - Returns: at most `limit`; none for an empty word or one longer than
  ///   ``maximumTypedLength``.
  public func corrections(for typed: String, limit: Int = 3) -> [Suggestion] {
    guard Self.isTypeable(typed), limit > 0 else { return [] }
    return corrector.corrections(for: typed, context: context, limit: limit).map { suggestion(from: $0, .correction) }
  }

  /// The words most likely to follow the previous word (from blobs built with word pairs),
  /// best first; none at the start of a text.
  public func nextWords(limit: Int = 3) -> [Suggestion] {
    guard let previousWord, limit > 0 else { return [] }
    return dictionary.nextWords(after: previousWord, limit: limit).map { suggestion(from: $0, .nextWord) }
  }

  private static func isTypeable(_ text: String) -> Bool {
    !text.isEmpty && text.unicodeScalars.count <= maximumTypedLength
  }

  private func suggestion(from found: MultilingualDictionary.LanguageSuggestion, _ source: Source) -> Suggestion {
    Suggestion(
      word: found.suggestion.word, language: dictionary.members[found.language].language, source: source,
      score: found.score)
  }

  // MARK: The user's words

  /// The user committed `word` (typed, picked or swiped): one more use of it, and it becomes
  /// the previous word.
  public func commit(_ word: String) {
    let before = previousWord
    change(.learn, word)
    useContext(after: word)
    contextBeforeCommit = .some(before)
  }

  /// The user deleted `word` right after committing it (a rejected suggestion): the use is
  /// taken back (a learned word with no use left is forgotten) and the previous word is what
  /// it was before the commit.
  public func retract(_ word: String) {
    change(.unlearn, word)
    if let before = contextBeforeCommit {
      useContext(after: before)
      contextBeforeCommit = nil
    }
  }

  /// Never suggest `word` again (in any language), whatever the dictionaries say.
  public func block(_ word: String) {
    change(.block, word)
  }

  /// Adds `word` as the user's own (a name, slang): it completes, corrects and swipes like a
  /// dictionary word; a blocked word is unblocked.
  public func add(_ word: String) {
    change(.add(uses: nil), word)
  }

  /// Forgets the previous word: a new text field, the cursor moved, a sentence ended.
  public func resetContext() {
    setPreviousWord(nil)
  }

  /// Sets the previous word without learning it: the word before the cursor when the user
  /// moves it, or a text field's content when the keyboard appears (`nil` for none).
  public func setPreviousWord(_ word: String?) {
    contextBeforeCommit = nil
    useContext(after: word)
  }

  private func useContext(after word: String?) {
    previousWord = word
    context = word.map { dictionary.context(after: $0) } ?? .empty
  }

  /// Applies `change` to the user's words: written to the store when it can take it, kept in
  /// memory meanwhile (or for good, without a store); every language sees it at once.
  private func change(_ change: UserEntryChange, _ word: String) {
    guard let word = try? UserWordRules.validate(word) else { return }  // not a user word: nothing to learn
    guard userDictionary != nil else {
      var words = userWords
      words.apply(change, to: word)
      setUserWords(words)
      return
    }
    pending.append((change, word))
    writePending()
    updateUserWords()
  }

  /// Writes the waiting changes in order, until one fails (busy, read-only, …).
  private func writePending() {
    guard let store = userDictionary, !store.isReadOnly else { return }
    while let (change, word) = pending.first {
      do {
        switch change {
        case .learn: try store.learn(word)
        case .unlearn: try store.unlearn(word)
        case .block: try store.block(word)
        case .add(let uses): try store.add(word, uses: uses)
        }
        lastStoreError = nil
      } catch {
        lastStoreError = error
        // A change the store refuses for what it is (it passed the same rules, so this is
        // only a count out of range) is dropped; anything else waits for the next write.
        if error.reason == .invalidWord || error.reason == .invalidUses { pending.removeFirst() }
        return
      }
      pending.removeFirst()
    }
  }

  /// The store's words with the changes still waiting.
  private func updateUserWords() {
    guard let store = userDictionary else { return }
    var words = store.words
    for (change, word) in pending { words.apply(change, to: word) }
    setUserWords(words)
  }

  /// Installs `words` in every language when they differ from the words in use.
  private func setUserWords(_ words: UserWords) {
    guard words != userWords else { return }
    userWords = words
    var dictionary = self.dictionary
    dictionary.userWords = words
    install(dictionary)
  }

  /// Makes `dictionary` the one every query uses: the decoder, the corrector and the context.
  private func install(_ dictionary: MultilingualDictionary) {
    self.dictionary = dictionary
    decoder = MultilingualDecoder(dictionary: dictionary, options: configuration.decoder)
    corrector = dictionary.makeCorrector(model: configuration.correction)
    decoderGeneration += 1
    spareSession = nil
    useContext(after: previousWord)
  }
}
