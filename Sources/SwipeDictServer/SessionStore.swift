import Foundation
import SwipeDecoder
import SwipeDictFiles
import SwipeDictSystem
import SwipeDictTools

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
      return try? KeyboardEngine(
        languages: [.init(name: blob.name, dictionary: blob.dictionary)], configuration: configuration)
    }
    guard let engine else {
      throw RequestError(status: .internalServerError, message: "cannot make a session on \(blob.name)")
    }
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

/// Appends labelled swipes to a swipe JSON Lines file, one whole line at a time.
///
/// The file is never changed at startup and never anything but appended to: it must be new,
/// empty, or already a swipe file that ends with a line end (a blob, a half-written line or an
/// unrelated text file is refused), and not one of the server's inputs. A FIFO or a character
/// device (`/dev/stdout`) is written to as a stream, once something reads it.
final class Recorder: Sendable {
  let path: String
  private let descriptor: Locked<FileDescriptor>

  /// Opens (or creates) the record file.
  /// - Parameters:
  ///   - path: the file.
  ///   - inputs: the server's blobs, which the file must not be.
  init(path: String, inputs: [String]) throws {
    self.path = path
    func refuse(_ message: String, _ hint: String) -> PlaygroundServerError {
      PlaygroundServerError(message: "\(path): \(message)\n  hint: \(hint)")
    }
    let newFile = "give a new file, an empty one, or a swipe file that --record wrote"
    let opened: Result<FileDescriptor, Errno>
    if let info = try? FileSystem.status(of: path) {
      for input in inputs {
        if let other = try? FileSystem.status(of: input), other.deviceID == info.deviceID, other.inode == info.inode {
          throw refuse("is the blob \(input), an input of the server", newFile)
        }
      }
      switch info.type {
      case .regular:
        let bytes: [UInt8]
        do {
          bytes = try InputFile(openingForReading: path, kinds: .regularFiles).readAll(
            limit: SwipeFile.maximumFileBytes)
        } catch { throw refuse("cannot read it (\(error.reason))", newFile) }
        if !bytes.isEmpty {
          guard bytes.last == 0x0A else { throw refuse("does not end with a line end, as a swipe file does", newFile) }
          do { _ = try SwipeFile.parse(contents: bytes, file: path) } catch {
            throw refuse("is not a swipe file (line \(error.line): \(error.message))", newFile)
          }
        }
        opened = Result { () throws(Errno) in try .open(path, .writeOnly, options: [.append, .closeOnExec]) }
      case .fifo, .characterSpecial:
        // Without blocking: a FIFO nobody reads yet is refused rather than waited on.
        opened = Result { () throws(Errno) in try .open(path, .writeOnly, options: [.closeOnExec, .nonBlocking]) }
        if case .failure(.noSuchAddressOrDevice) = opened {
          throw refuse("nothing reads the FIFO", "start its reader first")
        }
        if case .success(let fd) = opened { fd.setBlocking() }
      default:
        throw refuse("is not a file, a FIFO or a character device", newFile)
      }
    } else {
      opened = Result { () throws(Errno) in
        try .open(
          path, .writeOnly, options: [.append, .create, .exclusiveCreate, .closeOnExec],
          permissions: FilePermissions(rawValue: 0o644))
      }
    }
    switch opened {
    case .success(let fd): descriptor = Locked(fd)
    case .failure(let error):
      throw refuse("cannot open it for writing (\(error))", "check the path and its permissions")
    }
  }

  deinit { descriptor.withLock { $0.closeIgnoringFailure() } }

  /// Appends one line (its end added), in one write.
  func append(_ line: String) throws {
    let bytes = Array((line + "\n").utf8)
    try descriptor.withLock { fd in
      do throws(Errno) {
        try fd.write(all: bytes)
      } catch {
        throw PlaygroundServerError(message: "\(path): cannot append: \(error)")
      }
    }
  }
}
