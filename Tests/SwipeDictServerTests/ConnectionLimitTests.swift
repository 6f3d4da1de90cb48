import Foundation
import SwipeDictTools
import Testing

@testable import SwipeDictServer

/// How long a test waits for each piece of an answer it expects. Generous: on a loaded
/// machine a thread may wait long for its turn, and a working server never takes it (a
/// broken one makes the test wait this long, then fail).
private let answerTime = Duration.seconds(20)

/// Milliseconds in `duration`.
private func ms(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// The responses in `bytes` (a stream of them, each with a Content-Length), in order.
private func responses(in bytes: [UInt8]) -> [(status: Int, headers: [String: String], body: String)] {
  var found: [(Int, [String: String], String)] = []
  var rest = bytes[...]
  let separator: [UInt8] = [13, 10, 13, 10]
  while let headEnd = rest.indices.first(where: { rest[$0...].starts(with: separator) }) {
    let lines = String(decoding: rest[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
    let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    let bodyStart = headEnd + 4
    guard rest.endIndex - bodyStart >= length else { break }
    found.append((status, headers, String(decoding: rest[bodyStart..<(bodyStart + length)], as: UTF8.self)))
    rest = rest[(bodyStart + length)...]
  }
  return found
}

/// A request's bytes.
private func get(_ target: String, _ extra: String = "") -> [UInt8] {
  Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\(extra)\r\n".utf8)
}

/// One request of ``steadyClient(port:until:)``: when it was sent, when its answer had
/// arrived, and the answer's status.
private struct Exchange: Sendable {
  var sent: ContinuousClock.Instant
  var answered: ContinuousClock.Instant
  var status: Int
}

/// Requests of a well-behaved client, one every 5 ms on one connection, until `done` is
/// set (at least 10 of them; at most for 2 minutes).
private func steadyClient(port: UInt16, until done: Locked<Bool>) throws -> [Exchange] {
  let client = LoopbackClient(port: port)
  try client.openConnection()
  var exchanges: [Exchange] = []
  let end = ContinuousClock.now + .seconds(120)
  while exchanges.count < 10 || !done.withLock({ $0 }), ContinuousClock.now < end {
    let sent = ContinuousClock.now
    let status = try client.request("GET", "/api/complete?blob=en&prefix=he&limit=3").status
    exchanges.append(Exchange(sent: sent, answered: ContinuousClock.now, status: status))
    Thread.sleep(forTimeInterval: 0.005)
  }
  return exchanges
}

/// The longest wait of `exchanges`, in milliseconds.
private func longest(_ exchanges: [Exchange]) -> Double {
  exchanges.map { ms($0.answered - $0.sent) }.max() ?? 0
}

/// ``withServer(recordPath:limits:_:)`` with the HTTP limits `change` makes.
private func withServer<T>(
  http change: (inout PlaygroundServer.HTTPLimits) -> Void, _ body: (UInt16) async throws -> T
) async throws -> T {
  var limits = PlaygroundServer.Limits()
  change(&limits.http)
  return try await withServer(limits: limits, body)
}

/// Runs `body` while a steady client asks on a connection of its own (from before `body`
/// starts until it has ended).
/// - Returns: what `body` returned, and the steady client's exchanges.
private func whileSteadyClient<T>(
  port: UInt16, _ body: () async throws -> T
) async throws -> (result: T, exchanges: [Exchange]) {
  let done = Locked(false)
  async let exchanges = offPool { try steadyClient(port: port, until: done) }
  let result: Result<T, any Error>
  do {
    result = .success(try await body())
  } catch {
    result = .failure(error)
  }
  done.withLock { $0 = true }
  return (try result.get(), try await exchanges)
}

@Suite("HTTP limits of the playground server", .serialized)
struct ConnectionLimitTests {
  @Test("a 1 MB header line gets 431 while another client is answered as usual")
  func hugeHeaderLine() async throws {
    // The server reads and drops the rest of the 1 MB after its answer: long enough for a
    // client that a loaded machine keeps waiting (past the linger time a reset would cut
    // the client's write short).
    try await withServer(http: { $0.lingerTime = .seconds(60) }) { port in
      let ((status, elapsed, saysWhy), exchanges) = try await whileSteadyClient(port: port) {
        try await offPool { () -> (Int?, Double, Bool) in
          Thread.sleep(forTimeInterval: 0.05)
          let client = LoopbackClient(port: port)
          try client.openConnection()
          let start = ContinuousClock.now
          try client.write(raw: get("/api/blobs", "X-Big: " + String(repeating: "a", count: 1_000_000) + "\r\n"))
          let response = try client.response(within: answerTime)
          return (
            response?.status, ms(ContinuousClock.now - start),
            response.map { (try? object($0))?["error"] is String } ?? false
          )
        }
      }
      #expect(status == 431)
      #expect(saysWhy)
      #expect(Set(exchanges.map(\.status)) == [200])
      print(
        "1 MB header line: \(status ?? 0) in \(Int(elapsed)) ms; meanwhile the other client's longest wait: \(String(format: "%.1f", longest(exchanges))) ms"
      )
    }
  }

  @Test("a 1 MB request line gets 414; blank lines alone past the limit get 400")
  func hugeRequestLine() async throws {
    // Lingers as in hugeHeaderLine.
    try await withServer(http: { $0.lingerTime = .seconds(60) }) { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        try client.openConnection()
        try client.write(raw: get("/" + String(repeating: "a", count: 1_000_000)))
        #expect(try client.response(within: answerTime)?.status == 414)
        let blank = LoopbackClient(port: port)
        try blank.openConnection()
        try blank.write(raw: [UInt8](repeating: 0x0A, count: 100_000))
        #expect(try blank.response(within: answerTime)?.status == 400)
        #expect(try LoopbackClient(port: port).request("GET", "/api/blobs").status == 200)
      }
    }
  }

  @Test("half a head then silence gets 408 after the head time, a byte at a time too; others are served meanwhile")
  func stalledHead() async throws {
    try await withServer(http: { $0.headTime = .milliseconds(300) }) { port in
      let (stalled, exchanges) = try await whileSteadyClient(port: port) {
        // A byte every 100 ms: the whole head would take 3.7 s, the head time is 300 ms from
        // its first byte.
        async let dripped = offPool { () -> (Int?, Double) in
          let client = LoopbackClient(port: port)
          try client.openConnection()
          let start = ContinuousClock.now
          var answer: LoopbackClient.Response?
          for byte in get("/api/blobs") {
            do {
              try client.write(raw: [byte])
            } catch {
              break
            }
            if let response = try? client.response(within: .milliseconds(100)) {
              answer = response
              break
            }
          }
          return (answer?.status, ms(ContinuousClock.now - start))
        }
        let (status, elapsed) = try await offPool { () -> (Int?, Double) in
          let client = LoopbackClient(port: port)
          try client.openConnection()
          let start = ContinuousClock.now
          try client.write(raw: Array("GET /api/blobs HTTP/1.1\r\nHost: x\r\n".utf8))
          let response = try client.response(within: answerTime)
          return (response?.status, ms(ContinuousClock.now - start))
        }
        return (status, elapsed, try await dripped)
      }
      let (status, elapsed, (drippedStatus, drippedElapsed)) = stalled
      #expect(status == 408)
      #expect(elapsed >= 250, "\(elapsed) ms")
      #expect(drippedStatus == 408, "after \(drippedElapsed) ms")
      #expect(Set(exchanges.map(\.status)) == [200])
      // A connection that sends nothing is closed after the head time, without an answer.
      try await offPool {
        let silent = LoopbackClient(port: port)
        try silent.openConnection()
        #expect(try silent.readToEnd(within: answerTime).isEmpty)
      }
    }
  }

  @Test("a body that stops short gets 408 after the body time")
  func stalledBody() async throws {
    try await withServer(http: { $0.bodyTime = .milliseconds(300) }) { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        try client.openConnection()
        try client.write(
          raw: Array("POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"blob\"".utf8))
        let start = ContinuousClock.now
        #expect(try client.response(within: answerTime)?.status == 408)
        #expect(ms(ContinuousClock.now - start) >= 250)
      }
    }
  }

  @Test("stop closes the listener and every connection, idle or halfway through a head")
  func stopClosesConnections() async throws {
    let server = try PlaygroundServer(blobs: [.init(name: "en", dictionary: serverDictionary)])
    let port = try await server.start(host: "127.0.0.1", port: 0)
    /// The two clients, used by one thread at a time.
    final class Clients: @unchecked Sendable {
      let idle: LoopbackClient
      let halfway: LoopbackClient
      init(port: UInt16) { (idle, halfway) = (LoopbackClient(port: port), LoopbackClient(port: port)) }
    }
    let clients = Clients(port: port)
    try await offPool { () throws -> Void in
      #expect(try clients.idle.request("GET", "/api/blobs").status == 200)
      // Answered once first, so that its connection is surely accepted before stop(): one
      // the server accepts while it stops gets 503 "the server is stopping" instead.
      #expect(try clients.halfway.request("GET", "/api/blobs").status == 200)
      try clients.halfway.write(raw: Array("GET /api/blobs HTTP/1.1\r\n".utf8))
    }
    let start = ContinuousClock.now
    await server.stop()
    try await server.wait()
    // Not a measure of speed: only that stop() does not wait for the idle connection's
    // keep-alive time (60 s).
    #expect(ms(ContinuousClock.now - start) < 30_000)
    try await offPool { () throws -> Void in
      #expect(try clients.idle.readToEnd(within: answerTime).isEmpty)
      #expect(try clients.halfway.response(within: answerTime) == nil)
      #expect(throws: LoopbackClient.Failure.self) { try LoopbackClient(port: port).request("GET", "/api/blobs") }
    }
  }

  @Test("stop() ends the server without cancelling it, also just after a connection was accepted")
  func stopJustAfterAccept() async throws {
    /// The clients, used by one thread at a time.
    final class Clients: @unchecked Sendable { var all: [LoopbackClient] = [] }
    for _ in 0..<5 {
      let server = try PlaygroundServer(blobs: [.init(name: "en", dictionary: serverDictionary)])
      let port = try await server.start(host: "127.0.0.1", port: 0)
      let http = try #require(server.http.withLock { $0 })
      let clients = Clients()
      try await offPool {
        // One kept-alive connection waits for its next request; a new one sends half a head.
        let idle = LoopbackClient(port: port)
        #expect(try idle.request("GET", "/api/blobs").status == 200)
        let halfway = LoopbackClient(port: port)
        try halfway.write(raw: Array("GET /api/blobs HTTP/1.1\r\n".utf8))
        clients.all = [idle, halfway]
      }
      let giveUp = ContinuousClock.now + answerTime
      while http.table.count < 2, ContinuousClock.now < giveUp { try await Task.sleep(for: .milliseconds(1)) }
      try await Task.sleep(for: .milliseconds(20))
      await server.stop()
      try? await server.wait()
      // Not a speed bound: stop() cancels the server's tasks only when they have not ended
      // 5 s after it shut the listener and the connections down.
      #expect(!http.stopWasForced)
      _ = clients
    }
  }

  @Test("the server answers while every thread of Swift's cooperative pool is busy")
  func busyCooperativePool() async throws {
    try await withServer { port in
      // As many busy tasks as the pool has threads (one per core): each spins until all of
      // them spin, then 2 s more. A server whose tasks ran on the pool could answer nothing
      // while they all spin; this one must answer requests sent and answered meanwhile.
      let cores = ProcessInfo.processInfo.activeProcessorCount
      let started = Locked(0)
      let spins = Locked<[(start: ContinuousClock.Instant, end: ContinuousClock.Instant)]>([])
      let done = Locked(false)
      async let busy: Void = withTaskGroup(of: Void.self) { group in
        for _ in 0..<cores {
          group.addTask {
            started.withLock { $0 += 1 }
            let giveUp = ContinuousClock.now + .seconds(60)
            while started.withLock({ $0 }) < cores, ContinuousClock.now < giveUp {}
            let start = ContinuousClock.now
            let end = start + .seconds(2)
            while ContinuousClock.now < end {}
            spins.withLock { $0.append((start, ContinuousClock.now)) }
            done.withLock { $0 = true }
          }
        }
      }
      let exchanges = try await offPool { try steadyClient(port: port, until: done) }
      await busy
      #expect(Set(exchanges.map(\.status)) == [200])
      let all = spins.withLock { $0 }
      let (busyFrom, busyTo) = (all.map(\.start).max()!, all.map(\.end).min()!)
      guard busyFrom < busyTo else {
        // The tasks never all spun at once: the pool has fewer threads than cores here.
        print("busy pool: the \(cores) tasks never spun at once; nothing to check")
        return
      }
      let meanwhile = exchanges.filter { $0.sent >= busyFrom && $0.answered <= busyTo }
      #expect(
        !meanwhile.isEmpty, "no request sent and answered in the \(ms(busyTo - busyFrom)) ms when every task spun")
      print(
        "busy pool: \(meanwhile.count) requests sent and answered while \(cores) tasks spun for \(Int(ms(busyTo - busyFrom))) ms; longest wait \(String(format: "%.1f", longest(meanwhile))) ms"
      )
    }
  }

  @Test("past the connection limit a new connection gets 503; closing one makes room")
  func tooManyConnections() async throws {
    try await withServer(http: { $0.connections = 3 }) { port in
      try await offPool {
        let open = (0..<3).map { _ in LoopbackClient(port: port) }
        for client in open { try client.openConnection() }
        #expect(try open[0].request("GET", "/api/blobs").status == 200)
        let extra = LoopbackClient(port: port)
        try extra.openConnection()
        let refused = try #require(try extra.response(within: answerTime))
        #expect(refused.status == 503)
        #expect((try? object(refused))?["error"] is String)
        #expect(try open[1].request("GET", "/api/blobs").status == 200)
        open[2].disconnect()
        // Room is made once the server has seen the close: try until then.
        var status = 0
        let giveUp = ContinuousClock.now + answerTime
        while status != 200, ContinuousClock.now < giveUp {
          Thread.sleep(forTimeInterval: 0.02)
          status = (try? LoopbackClient(port: port).request("GET", "/api/blobs").status) ?? 0
        }
        #expect(status == 200)
      }
    }
  }

  @Test(
    "a body over the limit gets 413 (at once when declared, even with Expect: 100-continue); the next client is served")
  func bodyOverLimit() async throws {
    try await withServer(http: { $0.bodyBytes = 1_000 }) { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        let large = try client.request(
          "POST", "/api/sessions", json: #"{"blob":"en","x":""# + String(repeating: "x", count: 5_000) + #""}"#)
        #expect(large.status == 413)
        #expect(large.headers["connection"] == "close")
        #expect(try client.request("POST", "/api/sessions", json: #"{"blob":"en"}"#).status == 201)
        let declared = LoopbackClient(port: port)
        try declared.openConnection()
        try declared.write(
          raw: Array(
            "POST /api/sessions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 10000000000\r\n\r\n".utf8
          ))
        #expect(try declared.response(within: answerTime)?.status == 413)
        // Within the limit, Expect: 100-continue gets 100 Continue, then the answer.
        let polite = LoopbackClient(port: port)
        try polite.openConnection()
        let body = #"{"blob":"en"}"#
        try polite.write(
          raw: Array(
            "POST /api/sessions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
              .utf8))
        #expect(try polite.response(within: answerTime)?.status == 100)
        try polite.write(raw: Array(body.utf8))
        #expect(try polite.response(within: answerTime)?.status == 201)
      }
    }
  }

  @Test("random bytes that are not HTTP get 400, and the server answers the next client")
  func garbage() async throws {
    try await withServer { port in
      try await offPool {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for round in 0..<20 {
          let bytes = (0..<200).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
          }
          let client = LoopbackClient(port: port)
          try client.openConnection()
          try? client.write(raw: bytes)
          let response = try client.response(within: answerTime)
          #expect(response?.status == 400, "round \(round)")
          #expect(try LoopbackClient(port: port).request("GET", "/api/blobs").status == 200)
        }
        // Targets with bytes a URL may not hold are not taken for the page.
        let client = LoopbackClient(port: port)
        for target in ["/a|b", "/api/blobs%zz", "/{x}", "/%", "/%%", "/a?%zz=1"] {
          let status = try client.request("GET", target).status
          #expect((400..<500).contains(status), "\(target): \(status)")
        }
        #expect(try client.request("GET", "/api/blobs").status == 200)
      }
    }
  }

  @Test("keep-alive: many requests on one connection; HTTP/1.0 only with keep-alive; HEAD has no body")
  func keepAlive() async throws {
    try await withServer { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        for _ in 0..<10 { #expect(try client.request("GET", "/api/blobs").status == 200) }
        #expect(try client.request("POST", "/api/sessions", json: #"{"blob":"en"}"#).status == 201)
        let head = try client.request("HEAD", "/")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(try client.request("GET", "/api/blobs").status == 200)
        #expect(client.connections == 1)

        let old = LoopbackClient(port: port)
        try old.openConnection()
        try old.write(raw: Array("GET /api/blobs HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8))
        let kept = try #require(try old.response(within: answerTime))
        #expect(kept.status == 200 && kept.headers["connection"] == "keep-alive")
        try old.write(raw: Array("GET /api/blobs HTTP/1.0\r\n\r\n".utf8))
        let last = responses(in: try old.readToEnd(within: answerTime))
        #expect(last.map(\.status) == [200])
        #expect(last.first?.headers["connection"] == "close")
      }
    }
  }

  @Test("a request split at any byte (inside its final CRLF CRLF, its body) is answered on the same connection")
  func splitRequests() async throws {
    try await withServer { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        let id =
          try object(try client.request("POST", "/api/sessions", json: #"{"blob":"en"}"#))["session"] as? String ?? ""
        let body = #"{"points":[[225,81]]}"#
        let request = Array(
          "POST /api/sessions/\(id)/points HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            .utf8)
        for cut in 1..<request.count {
          try client.write(raw: Array(request[..<cut]))
          Thread.sleep(forTimeInterval: 0.002)
          try client.write(raw: Array(request[cut...]))
          let response = try #require(try client.response(within: answerTime), "cut at \(cut)")
          // Each request's one point, read whole: the session counts them.
          #expect(
            response.status == 200 && (try? object(response))?["count"] as? Int == cut,
            "cut at \(cut): \(response.text)")
        }
        #expect(client.connections == 1)
      }
    }
  }

  @Test("pipelined requests are answered in order; Connection: close ends the connection after its answer")
  func pipelining() async throws {
    try await withServer { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        try client.openConnection()
        let prefixes = ["he", "wo", "th"]
        var bytes = prefixes.flatMap { get("/api/complete?blob=en&limit=1&prefix=\($0)") }
        bytes += get("/api/complete?blob=en&limit=1&prefix=ye", "Connection: close\r\n")
        bytes += get("/api/blobs")  // after the close: never answered
        try client.write(raw: bytes)
        let answers = responses(in: try client.readToEnd(within: answerTime))
        #expect(answers.map(\.status) == [200, 200, 200, 200])
        let words = answers.map { answer in
          ((try? JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [String: Any])
            .flatMap { ($0["suggestions"] as? [[String: Any]])?.first?["word"] as? String } ?? ""
        }
        #expect(zip(words, prefixes + ["ye"]).allSatisfy { $0.hasPrefix($1) }, "\(words)")
        #expect(answers.last?.headers["connection"] == "close")
        #expect(answers.dropLast().allSatisfy { $0.headers["connection"] == nil })
      }
    }
  }

  @Test("an idle kept-alive connection is closed after the keep-alive time")
  func idleConnection() async throws {
    try await withServer(http: { $0.keepAliveTime = .milliseconds(300) }) { port in
      try await offPool { () throws -> Void in
        let client = LoopbackClient(port: port)
        #expect(try client.request("GET", "/api/blobs").status == 200)
        let start = ContinuousClock.now
        #expect(try client.readToEnd(within: answerTime).isEmpty)
        #expect(ms(ContinuousClock.now - start) >= 250)
      }
    }
  }

  @Test("blank lines after a request are not a request: the connection stays kept alive past the head time")
  func blankLinesAfterRequest() async throws {
    try await withServer(http: { $0.headTime = .milliseconds(200) }) { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        try client.openConnection()
        // An extra CRLF after a request (RFC 9112 §2.2: some old clients send one), then idle
        // for longer than the head time: the connection waits for its next request.
        try client.write(raw: get("/api/blobs") + Array("\r\n".utf8))
        #expect(try client.response(within: answerTime)?.status == 200)
        Thread.sleep(forTimeInterval: 1)
        try? client.write(raw: get("/api/blobs"))
        #expect(try client.response(within: answerTime)?.status == 200)
        #expect(client.connections == 1)
      }
    }
  }

  @Test("blank lines alone do not keep an idle connection open past the keep-alive time")
  func blankLinesWhileIdle() async throws {
    try await withServer(http: { $0.keepAliveTime = .milliseconds(300) }) { port in
      try await offPool { () throws -> Void in
        let client = LoopbackClient(port: port)
        #expect(try client.request("GET", "/api/blobs").status == 200)
        let start = ContinuousClock.now
        var closed = false
        var answer: Int?
        while !closed && answer == nil && ContinuousClock.now - start < .seconds(30) {
          do throws(LoopbackClient.Failure) {
            try client.write(raw: Array("\r\n".utf8))
            answer = try client.response(within: .milliseconds(100))?.status
            closed = answer == nil
          } catch {
            // No answer within 100 ms (the connection is open), or the write found it closed.
            closed = error.description.hasPrefix("send")
          }
        }
        #expect(closed)
        #expect(answer == nil)
        #expect(ms(ContinuousClock.now - start) >= 250)
      }
    }
  }

  #if os(Linux)
    @Test("a start that cannot bind its port leaves no descriptor open")
    func failedStartLeaksNothing() async throws {
      /// The process's epoll descriptors (a socket pool each).
      func pollers() -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter {
          ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) ?? "").contains(
            "eventpoll")
        }.count
      }
      try await withServer { port in
        let before = pollers()
        for _ in 0..<20 {
          let other = try PlaygroundServer(blobs: [.init(name: "en", dictionary: serverDictionary)])
          await #expect(throws: (any Error).self) { try await other.start(host: "127.0.0.1", port: port) }
        }
        // 20 when every failed start leaked its pool; other suites' servers come and go.
        #expect(pollers() - before < 10)
      }
    }
  #endif

  @Test("a client that never reads its answers is disconnected after the write time; others are served")
  func neverReads() async throws {
    try await withServer(http: { $0.writeTime = .milliseconds(300) }) { port in
      try await offPool {
        let greedy = LoopbackClient(port: port)
        try greedy.openConnection()
        let count = 2_000
        try greedy.write(raw: (0..<count).flatMap { _ in get("/") })
        Thread.sleep(forTimeInterval: 1)
        #expect(try LoopbackClient(port: port).request("GET", "/api/blobs").status == 200)
        let answered = responses(in: try greedy.readToEnd(within: answerTime)).count
        #expect(answered < count)
      }
    }
  }
}
