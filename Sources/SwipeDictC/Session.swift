import CSwipeDict
import SwipeDecoder
import SwipeDict

/// What a session handle names: the keyboard engine's path for one swipe at a time, without
/// the engine's main actor: a `TouchTrace` (view coordinates to layout units, stray points,
/// clamping, times, the bound on points) in front of a `SwipeSession`; or, unfiltered
/// (`SWIPEDICT_SESSION_UNFILTERED`), the points as given, only mapped, as `swipedict decode`
/// feeds a recorded swipe to its session.
///
/// The session follows its dictionary handle: at the start of each swipe it takes the
/// state the handle names then (the user's words given since), and keeps the state it has
/// when the handle is closed.
final class SessionState: @unchecked Sendable {
  // @unchecked: every stored property but `lock` and `dictionaryHandle` is read and written
  // under `lock` only.
  let lock = Lock()
  /// The dictionary handle it was made from (possibly closed since).
  let dictionaryHandle: OpaquePointer
  private var dictionary: DictionaryState
  private var decoder: SwipeDecoder
  private var session: SwipeSession
  private var trace: TouchTrace
  /// Whether points skip the trace (`SWIPEDICT_SESSION_UNFILTERED`).
  private let isUnfiltered: Bool
  /// The mapping of an unfiltered session with a key area (`nil`: the points are in layout
  /// units, handed over unchanged), and its count of points.
  private var unfilteredMapping: KeyboardViewMapping?
  private var unfilteredCount = 0
  /// The mapping of the key area, for the next swipe (the blob's layout is the same in
  /// every state of the handle: only the user's words change).
  private var mapping: KeyboardViewMapping
  private var previousWord: String?
  private var context: WordContext
  private var resultCount = 4
  private var isSwiping = false

  init(
    dictionary: DictionaryState, handle: OpaquePointer, keyArea: UnsafePointer<swipedict_rect>?, flags: UInt32
  ) throws(Failure) {
    guard flags & ~SWIPEDICT_SESSION_UNFILTERED == 0 else {
      throw Failure(SWIPEDICT_E_ARGUMENT, "unknown flags 0x\(String(flags & ~SWIPEDICT_SESSION_UNFILTERED, radix: 16))")
    }
    guard dictionary.dictionary.contents.section(.features) != nil else {
      throw Failure(
        SWIPEDICT_E_UNSUPPORTED,
        "the blob has no swipe features (format \(dictionary.dictionary.formatVersion)); rebuild it with this "
          + "version of swipedict build")
    }
    dictionaryHandle = handle
    self.dictionary = dictionary
    mapping = try dictionary.mapping(keyArea)
    trace = TouchTrace(mapping: mapping)
    isUnfiltered = flags & SWIPEDICT_SESSION_UNFILTERED != 0
    unfilteredMapping = keyArea == nil ? nil : mapping
    decoder = Self.decoder(dictionary, resultCount: resultCount)
    session = decoder.makeSession()
    context = .empty
  }

  private static func decoder(_ state: DictionaryState, resultCount: Int) -> SwipeDecoder {
    var options = SwipeDecoder.Options()
    options.resultCount = resultCount
    return SwipeDecoder(dictionary: state.dictionary, options: options)
  }

  /// The session state `handle` names.
  @inline(__always)
  static func named(_ handle: OpaquePointer?) throws(Failure) -> SessionState {
    guard handle != nil else { throw .null("session") }
    guard let object = HandleTable.shared.object(handle, kind: .session) else { throw .handle("session") }
    // safe: the table holds only SessionState objects under the session kind.
    return unsafeDowncast(object, to: SessionState.self)
  }

  // The methods below run under `lock` (the entry points take it).

  func setKeyArea(_ area: UnsafePointer<swipedict_rect>?) throws(Failure) {
    mapping = try dictionary.mapping(area)
    unfilteredMapping = area == nil ? nil : mapping
  }

  func setPreviousWord(_ word: String?) {
    previousWord = word
    context = dictionary.context(after: word)
  }

  func setResultCount(_ count: Int) { resultCount = count }

  func add(_ x: Double, _ y: Double, _ time: Double) {
    if !isSwiping { begin() }
    if isUnfiltered {
      // As given (the session ignores non-finite points); times are not used by the decoder.
      let point = unfilteredMapping?.layoutPoint(for: ViewPoint(x: x, y: y)) ?? LayoutPoint(x: Float(x), y: Float(y))
      session.add(SwipePoint(x: point.x, y: point.y, time: time.isFinite ? Float(time * 1000) : nil))
      if point.x.isFinite, point.y.isFinite { unfilteredCount += 1 }
      return
    }
    for point in trace.add(ViewPoint(x: x, y: y), time: time.isNaN ? nil : time) { session.add(point) }
  }

  /// Starts a swipe: the dictionary handle's current state, and the result count and the
  /// key area set since the last one.
  private func begin() {
    isSwiping = true
    var rebuild = decoder.options.resultCount != resultCount
    if let current = HandleTable.shared.object(dictionaryHandle, kind: .dictionary), current !== dictionary {
      // safe: the table holds only DictionaryState objects under the dictionary kind.
      dictionary = unsafeDowncast(current, to: DictionaryState.self)
      context = dictionary.context(after: previousWord)
      rebuild = true
    }
    if rebuild {
      decoder = Self.decoder(dictionary, resultCount: resultCount)
      session = decoder.makeSession()
    }
    trace = TouchTrace(mapping: mapping)
    unfilteredCount = 0
  }

  /// The lift: the decoding, and the trace's counts (an unfiltered session's count of points).
  func end(deadline microseconds: Int64) -> (SwipeDecoding, points: Int, dropped: Int, truncated: Bool)? {
    guard isSwiping else { return nil }
    isSwiping = false
    // From the lift, as the keyboard engine counts it; at most an hour, so that the instant
    // is always representable.
    let deadline =
      microseconds < 0 ? nil : ContinuousClock.now.advanced(by: .microseconds(min(microseconds, 3_600_000_000)))
    for point in trace.finish() { session.add(point) }
    let decoding = session.end(context: context, deadline: deadline)
    defer { trace.reset() }
    if isUnfiltered { return (decoding, unfilteredCount, 0, false) }
    return (decoding, trace.count, trace.droppedCount, trace.isTruncated)
  }

  func cancel() {
    guard isSwiping else { return }
    isSwiping = false
    trace.reset()
    session = decoder.makeSession()  // a fresh one: ending this one would decode it
  }
}

@_cdecl("swipedict_session_create")
public func swipedictSessionCreate(
  _ dict: OpaquePointer?, _ keyArea: UnsafePointer<swipedict_rect>?, _ flags: UInt32,
  _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  api { () throws(Failure) in
    out?.pointee = nil
    let state = try DictionaryState.named(dict)
    guard let out, let dict else { throw .null("out") }
    let session = try SessionState(dictionary: state, handle: dict, keyArea: keyArea, flags: flags)
    guard let handle = HandleTable.shared.insert(session, kind: .session) else {
      throw Failure(SWIPEDICT_E_LIMIT, "\(HandleTable.capacity) handles are open")
    }
    out.pointee = handle
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_session_free")
public func swipedictSessionFree(_ session: OpaquePointer?) -> Int32 {
  api { () throws(Failure) in
    guard session != nil else { return SWIPEDICT_OK }
    guard let state = HandleTable.shared.remove(session, kind: .session) else { throw .handle("session") }
    withExtendedLifetime(state) {}  // let go of here, outside the table's lock
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_session_set_key_area")
public func swipedictSessionSetKeyArea(_ session: OpaquePointer?, _ keyArea: UnsafePointer<swipedict_rect>?) -> Int32 {
  api { () throws(Failure) in
    let state = try SessionState.named(session)
    try state.lock.withLock { () throws(Failure) in try state.setKeyArea(keyArea) }
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_session_set_previous_word")
public func swipedictSessionSetPreviousWord(_ session: OpaquePointer?, _ word: UnsafePointer<CChar>?) -> Int32 {
  api { () throws(Failure) in
    let state = try SessionState.named(session)
    let word = try CText.optionalString(word, "word")
    state.lock.withLock { state.setPreviousWord(word) }
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_session_set_result_count")
public func swipedictSessionSetResultCount(_ session: OpaquePointer?, _ count: Int) -> Int32 {
  api { () throws(Failure) in
    let state = try SessionState.named(session)
    guard count >= 1, count <= Int(SWIPEDICT_MAX_RESULTS) else {
      throw Failure(
        SWIPEDICT_E_RANGE, "a result count of \(UInt(bitPattern: count)) is not in 1...\(SWIPEDICT_MAX_RESULTS)")
    }
    state.lock.withLock { state.setResultCount(count) }
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_session_add")
public func swipedictSessionAdd(_ session: OpaquePointer?, _ x: Double, _ y: Double, _ time: Double) -> Int32 {
  api { () throws(Failure) in
    let state = try SessionState.named(session)
    state.lock.withLock { state.add(x, y, time) }
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_session_add_points")
public func swipedictSessionAddPoints(
  _ session: OpaquePointer?, _ points: UnsafePointer<swipedict_point>?, _ count: Int
) -> Int32 {
  api { () throws(Failure) in
    let state = try SessionState.named(session)
    guard count >= 0 else { throw Failure(SWIPEDICT_E_ARGUMENT, "a count of \(UInt(bitPattern: count)) points") }
    guard let points else {
      guard count == 0 else { throw .null("points") }
      return SWIPEDICT_OK
    }
    state.lock.withLock {
      for i in 0..<count { state.add(points[i].x, points[i].y, points[i].time) }
    }
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_session_end")
public func swipedictSessionEnd(
  _ session: OpaquePointer?, _ deadline: Int64, _ out: UnsafeMutablePointer<swipedict_suggestion>?, _ capacity: Int,
  _ count: UnsafeMutablePointer<Int>?, _ info: UnsafeMutablePointer<swipedict_swipe_info>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try SessionState.named(session)
    let output = try Output(out, capacity: capacity, count: count)
    let ended = state.lock.withLock { state.end(deadline: deadline) }
    var record = swipedict_swipe_info()
    record.is_complete = 1
    if let (decoding, points, dropped, truncated) = ended {
      output.write(decoding.words) {
        swipedict_suggestion(
          id: $0.id, word: $0.word, score: Double($0.score), distance: Double($0.distance), frequency: $0.frequency)
      }
      record.point_count = UInt32(clamping: points)
      record.dropped_point_count = UInt32(clamping: dropped)
      record.candidate_count = UInt32(clamping: decoding.candidateCount)
      record.matched_count = UInt32(clamping: decoding.matchedCount)
      record.is_complete = decoding.isComplete ? 1 : 0
      record.is_truncated = truncated ? 1 : 0
    } else {
      output.write([SwipeDecoding.Candidate](), { _ in swipedict_suggestion() })
    }
    info?.pointee = record
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_session_cancel")
public func swipedictSessionCancel(_ session: OpaquePointer?) -> Int32 {
  api { () throws(Failure) in
    let state = try SessionState.named(session)
    state.lock.withLock { state.cancel() }
    return SWIPEDICT_OK
  }
}
