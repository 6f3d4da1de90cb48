import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix

/// The playground's HTTP/1.1 server, running: Hummingbird's `Server` (NIO's listener and
/// event loops, graceful shutdown) with the connections of ``PlaygroundChannel``.
///
/// The connections' tasks (reading each request whole, the API's handler, writing the
/// answer) run on threads of the server's own (``ServerExecutor``), and NIO's reads, parsing
/// and timers on its event loops: neither on Swift's cooperative pool, which on Linux
/// Dispatch's global queues share, so the server answers and enforces its deadlines while
/// other work holds every thread of that pool.
final class HTTPServer: Sendable {
  /// The port listened on.
  let port: UInt16
  /// The connections, counted against the limit.
  let admission: ConnectionAdmission
  /// Hummingbird's graceful shutdown of the server.
  private let shutDown: @Sendable () async -> Void
  private let task: Task<Void, any Error>
  private let forced = Locked(false)

  /// How long ``stop()`` waits for the connections to end before it cancels them.
  static let stopGrace: Duration = .seconds(5)

  /// Whether ``stop()`` had to cancel the server's tasks: they had not ended within
  /// ``stopGrace``.
  var stopWasForced: Bool { forced.withLock { $0 } }

  private init(
    port: UInt16, admission: ConnectionAdmission, shutDown: @escaping @Sendable () async -> Void,
    task: Task<Void, any Error>
  ) {
    self.port = port
    self.admission = admission
    self.shutDown = shutDown
    self.task = task
  }

  /// Binds `host:port` and serves in the background until ``stop()``.
  /// - Throws: when the address cannot be bound.
  @available(macOS 14, iOS 17, tvOS 17, *)
  static func start(
    host: String, port: UInt16, handler: any APIHandler, limits: PlaygroundServer.HTTPLimits
  ) async throws -> HTTPServer {
    let admission = ConnectionAdmission(capacity: limits.connections)
    let group = MultiThreadedEventLoopGroup.singleton
    let bound = OneShot<Result<Int, any Error>>()
    let server = Server(
      childChannelSetup: PlaygroundChannel(handler: handler, limits: limits, admission: admission),
      configuration: ServerConfiguration(address: .hostname(host, port: Int(port))),
      onServerRunning: { channel in bound.fulfil(.success(channel.localAddress?.port ?? 0)) },
      eventLoopGroup: group,
      logger: Logger(label: "swipedict.serve") { _ in SwiftLogNoOpLogHandler() })
    let run: @Sendable () async throws -> Void = {
      do {
        try await server.run()
        bound.fulfil(.failure(PlaygroundServerError(message: "the server stopped before it listened")))
      } catch {
        bound.fulfil(.failure(error))
        throw error
      }
    }
    let task: Task<Void, any Error>
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
      let executor = ServerExecutor(threads: min(max(2, ProcessInfo.processInfo.activeProcessorCount), 16))
      task = Task(executorPreference: executor) {
        defer { executor.shutDown() }
        try await run()
      }
    } else {
      task = Task { try await run() }
    }
    let port = try await bound.value.get()
    return HTTPServer(port: UInt16(port), admission: admission, shutDown: { try? await server.shutdownGracefully() }, task: task)
  }

  /// Waits until the server stops: returns after ``stop()``, throws when serving failed.
  func wait() async throws {
    try await task.value
  }

  /// Stops listening, closes the connections waiting for a request (or in the middle of
  /// one) and, once answered, those being answered; after ``stopGrace`` cancels what is
  /// left.
  func stop() async {
    admission.stop()
    let task = task
    let timeout = Task {
      try await Task.sleep(for: Self.stopGrace)
      forced.withLock { $0 = true }
      task.cancel()
    }
    await shutDown()
    _ = try? await task.value
    timeout.cancel()
  }
}

/// A value set once, which tasks wait for.
final class OneShot<Value: Sendable>: Sendable {
  private let state = Locked<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

  /// Sets the value (the first call only) and wakes every waiter.
  func fulfil(_ value: Value) {
    let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
      guard state.value == nil else { return [] }
      state.value = value
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume(returning: value) }
  }

  /// The value, once set.
  var value: Value {
    get async {
      await withCheckedContinuation { continuation in
        let now = state.withLock { state -> Value? in
          if let value = state.value { return value }
          state.waiters.append(continuation)
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    }
  }
}
