import CSwipeDict
import SwipeDict

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure on its way to C: a status code of swipedict.h and what to tell in words.
struct Failure: Error {
  var status: Int32
  var message: String

  init(_ status: Int32, _ message: String) {
    self.status = status
    self.message = message
  }

  /// A required pointer argument was NULL.
  static func null(_ argument: String) -> Failure { Failure(SWIPEDICT_E_NULL, "\(argument) is NULL") }

  /// A handle that is not open (or not of its kind).
  static func handle(_ what: String) -> Failure {
    Failure(
      SWIPEDICT_E_HANDLE,
      "the \(what) handle is not open: it was released, was never made, or is a handle of another kind")
  }

  /// A blob that cannot be opened.
  init(_ error: SwipeDictError) {
    switch error {
    case .io: self.init(SWIPEDICT_E_IO, error.description)
    case .invalid: self.init(SWIPEDICT_E_FORMAT, error.description)
    }
  }

  /// A user dictionary that cannot be opened, read or written.
  init(_ error: UserDictionaryError) {
    let status: Int32
    switch error.reason {
    case .io: status = SWIPEDICT_E_IO
    case .notAUserDictionary, .unsupportedVersion, .damagedHeader, .tooLarge: status = SWIPEDICT_E_FORMAT
    case .invalidWord, .invalidUses, .invalidLine, .invalidCapacity: status = SWIPEDICT_E_ARGUMENT
    case .readOnly: status = SWIPEDICT_E_READ_ONLY
    case .busy: status = SWIPEDICT_E_BUSY
    }
    self.init(status, error.description)
  }
}

/// Runs the body of a C entry point: its status, or the failure's status with the thread's
/// message set.
@inline(__always)
func api(_ body: () throws(Failure) -> Int32) -> Int32 {
  do {
    return try body()
  } catch {
    ThreadMessage.set(error.status, error.message)
    return error.status
  }
}

/// Static C strings: the descriptions of the status codes, the version, the empty message.
/// Made once and never freed (`nonisolated(unsafe)`: immutable after their one-time
/// initialization, which the runtime makes thread-safe).
enum StaticText {
  static func make(_ text: String) -> UnsafePointer<CChar> {
    // safe: strdup fails only without memory, where nothing can go on.
    UnsafeRawPointer(strdup(text)!).assumingMemoryBound(to: CChar.self)
  }

  nonisolated(unsafe) static let empty = make("")
  nonisolated(unsafe) static let unknown = make("unknown status")
  nonisolated(unsafe) private static let descriptions: [Int32: UnsafePointer<CChar>] = [
    SWIPEDICT_OK: make("success"),
    SWIPEDICT_NOT_FOUND: make("not found"),
    SWIPEDICT_E_NULL: make("a pointer argument was NULL"),
    SWIPEDICT_E_HANDLE: make("the handle is not open"),
    SWIPEDICT_E_ARGUMENT: make("invalid argument"),
    SWIPEDICT_E_RANGE: make("index out of range"),
    SWIPEDICT_E_IO: make("input/output error"),
    SWIPEDICT_E_FORMAT: make("not a valid file"),
    SWIPEDICT_E_BUFFER: make("the output buffer is too small"),
    SWIPEDICT_E_READ_ONLY: make("the user dictionary is read-only for this process"),
    SWIPEDICT_E_BUSY: make("the user dictionary is locked by another process"),
    SWIPEDICT_E_UNSUPPORTED: make("the blob lacks what the call needs"),
    SWIPEDICT_E_LIMIT: make("too many handles are open"),
  ]

  static func description(of status: Int32) -> UnsafePointer<CChar> { descriptions[status] ?? unknown }
}

/// The message of the last failing call, one per thread (`swipedict_errmsg`): a C string the
/// thread owns in a pthread key, freed when it is replaced or the thread ends.
enum ThreadMessage {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    // A failure here (no key left in the process) leaves every message empty.
    _ = pthread_key_create(&key) { free($0) }
    return key
  }()

  /// Sets this thread's message: the status's description, then the details.
  static func set(_ status: Int32, _ details: String) {
    let text = String(cString: StaticText.description(of: status)) + (details.isEmpty ? "" : ": " + details)
    let old = pthread_getspecific(key)
    guard let copy = strdup(text) else { return }
    if pthread_setspecific(key, copy) == 0 {
      free(old)
    } else {
      free(copy)
    }
  }

  /// This thread's message ("" when none).
  static var current: UnsafePointer<CChar> {
    guard let text = pthread_getspecific(key) else { return StaticText.empty }
    return UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self)
  }
}
