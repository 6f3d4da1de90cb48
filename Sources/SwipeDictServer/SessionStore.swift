import Foundation
import SwipeDecoder

/// One live session: a keyboard engine on one blob, as a keyboard holds one (its swipes, the
/// previous word). The engine belongs to the main actor, like a keyboard's; requests hop there
/// for the moment they touch it, and a swipe's decoding runs off it.
final class SessionSlot: Sendable {
  let blob: LoadedBlob
  let engine: KeyboardEngine
  private let lastUse = Locked(ContinuousClock.now)
  /// The points the client sent for the swipe under way (the engine hands them to its decoder
  /// one event late, and drops stray ones).
  let received = Locked(0)

  init(blob: LoadedBlob, engine: KeyboardEngine) {
    self.blob = blob
    self.engine = engine
  }

  /// Marks the session used now.
  func touch() { lastUse.withLock { $0 = .now } }

  /// Whether it has been unused for `idleTime` or longer.
  func isIdle(for idleTime: Duration, now: ContinuousClock.Instant) -> Bool {
    lastUse.withLock { now - $0 >= idleTime }
  }
}

/// The live sessions by ID: at most ``PlaygroundServer/Limits/sessions``, the idle ones
/// dropped.
final class SessionStore: Sendable {
  private let slots = Locked<[String: SessionSlot]>([:])
  private let limits: PlaygroundServer.Limits

  init(limits: PlaygroundServer.Limits) {
    self.limits = limits
  }

  /// A new session on `blob` (an engine with `deadline`), or 429 when the limit is reached.
  func create(on blob: LoadedBlob, deadline: Duration) async throws(RequestError) -> String {
    let id = Self.makeID()
    let engine = await MainActor.run { () -> KeyboardEngine? in
      var configuration = KeyboardEngine.Configuration()
      configuration.deadline = deadline
      return try? KeyboardEngine(languages: [.init(name: blob.name, dictionary: blob.dictionary)], configuration: configuration)
    }
    guard let engine else { throw RequestError(status: .internalServerError, message: "cannot make a session on \(blob.name)") }
    let now = ContinuousClock.now
    let slot = SessionSlot(blob: blob, engine: engine)
    let created = slots.withLock { slots -> Bool in
      slots = slots.filter { !$0.value.isIdle(for: limits.idleTime, now: now) }
      guard slots.count < limits.sessions else { return false }
      slots[id] = slot
      return true
    }
    guard created else {
      throw RequestError(
        status: .tooManyRequests,
        message: "there are \(limits.sessions) live sessions, the most the server keeps: delete one or wait")
    }
    return id
  }

  /// The session `id`, or 404 (also when it has been idle too long).
  func slot(_ id: String) throws(RequestError) -> SessionSlot {
    let now = ContinuousClock.now
    let slot = slots.withLock { slots -> SessionSlot? in
      guard let slot = slots[id] else { return nil }
      if slot.isIdle(for: limits.idleTime, now: now) {
        slots[id] = nil
        return nil
      }
      return slot
    }
    guard let slot else { throw .notFound("no session \"\(id)\" (it may have expired after 5 minutes unused)") }
    slot.touch()
    return slot
  }

  /// Ends session `id`; 404 when there is none.
  func remove(_ id: String) throws(RequestError) {
    let removed = slots.withLock { $0.removeValue(forKey: id) }
    guard removed != nil else { throw .notFound("no session \"\(id)\"") }
  }

  /// The number of live sessions (idle ones included until they are swept).
  var count: Int { slots.withLock { $0.count } }

  /// 128 random bits in hex.
  private static func makeID() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<2).map { _ in
      let s = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - s.count) + s
    }.joined()
  }
}

/// Appends labelled swipes to a swipe JSON Lines file, one at a time.
final class Recorder: Sendable {
  let path: String
  private let handle: Locked<FileHandle>

  init(path: String) throws {
    self.path = path
    if !FileManager.default.fileExists(atPath: path) {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw PlaygroundServerError(message: "\(path): cannot create the record file")
      }
    }
    guard let handle = FileHandle(forUpdatingAtPath: path) else {
      throw PlaygroundServerError(message: "\(path): cannot open the record file for writing")
    }
    // A file whose last line lacks its end gets one, so that the next line stands alone.
    let end = handle.seekToEndOfFile()
    if end > 0 {
      handle.seek(toFileOffset: end - 1)
      if handle.readData(ofLength: 1) != Data([0x0A]) {
        handle.seekToEndOfFile()
        handle.write(Data([0x0A]))
      }
    }
    self.handle = Locked(handle)
  }

  /// Appends one line (its end added).
  func append(_ line: String) throws {
    try handle.withLock { handle in
      handle.seekToEndOfFile()
      try handle.write(contentsOf: Data((line + "\n").utf8))
    }
  }
}
