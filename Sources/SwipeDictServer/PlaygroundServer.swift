import FlyingSocks
import Foundation
import SwipeDecoder
import SwipeDict
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTools

/// The playground's HTTP server (`swipedict serve`): the page, and a JSON API that decodes
/// swipes point by point in a ``KeyboardEngine`` per session, as a keyboard runs it, explains words,
/// completes and corrects typed text, and records labelled swipes. `docs/serve.md` is the
/// API's reference.
///
/// ```swift
/// let server = try PlaygroundServer(blobs: [.init(name: "en", dictionary: english)])
/// let port = try await server.start(host: "127.0.0.1", port: 0)
/// // … http://127.0.0.1:\(port)/ …
/// await server.stop()
/// ```
public final class PlaygroundServer: Sendable {
  /// One dictionary the page can swipe on: a language.
  public struct Blob: Sendable {
    /// Its name in the API and on the page (the blob's file name without its extension).
    public var name: String
    /// The dictionary.
    public var dictionary: SwipeDictionary

    /// A blob named `name`.
    public init(name: String, dictionary: SwipeDictionary) {
      self.name = name
      self.dictionary = dictionary
    }
  }

  /// The limits of the server.
  public struct Limits: Sendable {
    /// The most live sessions (more are refused with 429).
    public var sessions = 64
    /// How long a session may stay unused before it is dropped.
    public var idleTime: Duration = .seconds(300)
    /// The most points one swipe may hold (more are refused with 400).
    public var pointsPerSwipe = 20_000
    /// How long a swipe's answer may take from the lift, as in a keyboard
    /// (``KeyboardEngine/Configuration/deadline``): 50 ms.
    public var swipeDeadline: Duration = .milliseconds(50)
    /// The bounds of HTTP requests and connections (sizes, times, connections).
    public var http = HTTPLimits()
    /// The defaults: 64 sessions, 5 minutes, 20,000 points, 50 ms, and ``HTTPLimits``' defaults.
    public init() {}
  }

  let blobs: [String: LoadedBlob]
  let blobOrder: [String]
  let sessions: SessionStore
  let recorder: Recorder?
  let limits: Limits
  /// The HTTP server once started (internal for the tests).
  let http: Locked<BoundedHTTPServer?> = Locked(nil)

  /// A server over `blobs`.
  /// - Parameters:
  ///   - blobs: the languages, in the order the page lists them; their names must differ.
  ///   - recordPath: the swipe JSON Lines file that `POST /api/record` appends to (created
  ///     when missing); `nil` refuses recording with 409.
  ///   - limits: the limits.
  /// - Throws: ``PlaygroundServerError`` when two blobs share a name, or the record file
  ///   cannot be opened.
  /// - Parameter blobPaths: the files the blobs come from, which the record file must not be.
  public init(blobs: [Blob], recordPath: String? = nil, blobPaths: [String] = [], limits: Limits = Limits()) throws {
    var loaded: [String: LoadedBlob] = [:]
    for blob in blobs {
      guard loaded[blob.name] == nil else {
        throw PlaygroundServerError(message: "two blobs are named \"\(blob.name)\"")
      }
      loaded[blob.name] = LoadedBlob(name: blob.name, dictionary: blob.dictionary)
    }
    self.blobs = loaded
    blobOrder = blobs.map(\.name)
    self.limits = limits
    sessions = SessionStore(limits: limits)
    recorder = try recordPath.map { try Recorder(path: $0, inputs: blobPaths) }
  }

  /// Binds `host:port` and serves in the background until ``stop()``.
  /// - Parameters:
  ///   - host: an IPv4 or IPv6 address to listen on (`127.0.0.1`, `::1`, `0.0.0.0`…).
  ///   - port: the port; 0 picks a free one.
  /// - Returns: the port listened on.
  /// - Throws: when the address is not valid or cannot be bound.
  public func start(host: String, port: UInt16) async throws -> UInt16 {
    let address: any SocketAddress
    if host.contains(":") {
      address = try sockaddr_in6.inet6(ip6: host, port: port)
    } else {
      address = try sockaddr_in.inet(ip4: host, port: port)
    }
    let server = try await BoundedHTTPServer.start(address: address, handler: Router(server: self), limits: limits.http)
    http.withLock { $0 = server }
    return server.port
  }

  /// Waits until the server stops (``stop()``, or an error of its listening socket).
  public func wait() async throws {
    guard let server = http.withLock({ $0 }) else { return }
    try await server.wait()
  }

  /// Stops listening and closes the connections.
  public func stop() async {
    guard let server = http.withLock({ $0 }) else { return }
    await server.stop()
  }
}

/// Why the server cannot start.
public struct PlaygroundServerError: Error, CustomStringConvertible, Sendable {
  /// What is wrong.
  public var message: String
  /// The message.
  public var description: String { message }
}

/// A blob with what the API serves of it, made once.
struct LoadedBlob: Sendable {
  var name: String
  var dictionary: SwipeDictionary
  var decoder: SwipeDecoder
  var keyPaths: KeyPathReader
  /// Its entry in `GET /api/blobs`.
  var summary: JSON

  init(name: String, dictionary: SwipeDictionary) {
    self.name = name
    self.dictionary = dictionary
    decoder = SwipeDecoder(dictionary: dictionary)
    keyPaths = dictionary.makeKeyPathReader()
    let layout = dictionary.layout
    let right = layout.keys.map { $0.x + $0.width / 2 }.max() ?? 0
    let bottom = layout.keys.map { $0.y + $0.height / 2 }.max() ?? 0
    let keys: [JSON] = layout.keys.map { key in
      .object([
        ("char", .string(String(key.character))), ("x", number(key.x)), ("y", number(key.y)),
        ("w", number(key.width)), ("h", number(key.height)),
      ])
    }
    summary = .object([
      ("name", .string(name)), ("words", .number(dictionary.wordCount)),
      ("hasPairs", .bool(dictionary.hasBigrams)),
      (
        "layout",
        .object([
          ("name", .string(layout.name)), ("keyWidth", number(layout.keyWidth)), ("width", number(right)),
          ("height", number(bottom)), ("keys", .array(keys)),
        ])
      ),
    ])
  }

  /// The word's stored forms' first ID: the word itself, else a case, accent or apostrophe
  /// variant.
  func id(of word: String) -> Int? {
    dictionary.id(of: word) ?? dictionary.ids(matchingFolded: word, limit: 1).first
  }

  /// The perfect path of word `id`: its key path's key centers.
  func path(of id: Int) -> [LayoutPoint] {
    let centers = dictionary.keyCenters
    return (keyPaths.keyPath(of: id) ?? []).compactMap { Int($0) < centers.count ? centers[Int($0)] : nil }
  }

  /// The context of the word before the swipe (none when `nil` or empty).
  func context(after previous: String?) -> WordContext {
    guard let previous, !previous.isEmpty else { return .empty }
    return dictionary.context(after: previous)
  }
}
