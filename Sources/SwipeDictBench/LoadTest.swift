import Foundation
import SwipeDictTools

/// The playground server's load test: sessions that stream swipe points at a fixed rate,
/// one point per request on a keep-alive connection each, as a page does while fingers
/// move, then lift and wait for the top words.
///
/// Each session runs on its own thread and loops over swipes of the blob's frequent words
/// (their perfect paths from `GET /api/path`, resampled every quarter key width with a
/// little seeded wobble). Points are sent on a fixed schedule (`rate` per second from the
/// session's start), so a slow answer delays the next point but not the schedule.
struct LoadTest: Sendable {
  /// The server's port on 127.0.0.1.
  var port: UInt16
  /// The blob to swipe on.
  var blob: String
  /// Concurrent sessions.
  var sessions = 20
  /// Points per second per session.
  var rate = 120.0
  /// How long to stream.
  var duration: Duration = .seconds(10)

  /// A load test of the server at `port` on `blob`.
  init(port: UInt16, blob: String) {
    self.port = port
    self.blob = blob
  }

  /// What the load test measured (times in milliseconds).
  struct Report: Sendable {
    /// Points sent (one request each).
    var points: Int
    /// Swipes ended.
    var swipes: Int
    /// Swipes whose word was in the top 4.
    var topFour: Int
    /// Per-point request latency (send to full response): median, 99th percentile, max.
    var pointMedian: Double, pointP99: Double, pointMax: Double
    /// Lift to top 4 as the client sees it (the `end` request's round trip): median, p99.
    var liftMedian: Double, liftP99: Double
    /// The server's own wait in `end` (`waitMs`): median, p99.
    var waitMedian: Double, waitP99: Double
    /// Points per second achieved, all sessions together.
    var throughput: Double
    /// Requests that failed (non-2xx or a broken connection).
    var errors: Int
  }

  /// Runs the test.
  /// - Throws: ``LoopbackClient/Failure`` when the server cannot be reached or the blob has
  ///   no words to swipe.
  func run() throws -> Report {
    let paths = try wordPaths()
    guard !paths.isEmpty else { throw LoopbackClient.Failure(description: "no words to swipe in blob \(blob)") }
    let results = SessionResults()
    let group = DispatchGroup()
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    let started = Date()
    for session in 0..<sessions {
      group.enter()
      let thread = Thread { [self] in
        let result = self.runSession(session, paths: paths, seconds: seconds)
        results.append(result)
        group.leave()
      }
      thread.start()
    }
    group.wait()
    let elapsed = Date().timeIntervalSince(started)
    let all = results.all
    let points = all.flatMap(\.pointLatencies).sorted()
    let lifts = all.flatMap(\.liftLatencies).sorted()
    let waits = all.flatMap(\.waits).sorted()
    func q(_ values: [Double], _ p: Double) -> Double { values.isEmpty ? .nan : quantile(values, p) }
    return Report(
      points: points.count, swipes: lifts.count, topFour: all.reduce(0) { $0 + $1.topFour },
      pointMedian: q(points, 0.5), pointP99: q(points, 0.99), pointMax: points.last ?? .nan,
      liftMedian: q(lifts, 0.5), liftP99: q(lifts, 0.99), waitMedian: q(waits, 0.5), waitP99: q(waits, 0.99),
      throughput: Double(points.count) / elapsed, errors: all.reduce(0) { $0 + $1.errors })
  }

  /// The sessions' results, appended by their threads.
  private final class SessionResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [SessionResult] = []

    func append(_ result: SessionResult) { lock.withLock { results.append(result) } }
    var all: [SessionResult] { lock.withLock { results } }
  }

  private struct SessionResult {
    var pointLatencies: [Double] = []
    var liftLatencies: [Double] = []
    var waits: [Double] = []
    var topFour = 0
    var errors = 0
  }

  /// The swipes to send: each word with its points.
  private func wordPaths() throws -> [(word: String, points: [[Double]])] {
    let client = LoopbackClient(port: port)
    let blobs = try json(client.request("GET", "/api/blobs"))
    guard let list = blobs["blobs"] as? [[String: Any]],
      let entry = list.first(where: { $0["name"] as? String == blob }),
      let layout = entry["layout"] as? [String: Any], let keyWidth = layout["keyWidth"] as? Double,
      let keys = layout["keys"] as? [[String: Any]]
    else { throw LoopbackClient.Failure(description: "the server has no blob \(blob)") }
    var words: [String] = []
    for letter in Set(keys.compactMap { $0["char"] as? String }).sorted() {
      let query = letter.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? letter
      let found = try json(client.request("GET", "/api/complete?blob=\(blob)&prefix=\(query)&limit=8"))
      for suggestion in found["suggestions"] as? [[String: Any]] ?? [] {
        if let word = suggestion["word"] as? String, word.count >= 3 { words.append(word) }
      }
    }
    var generator = SeededGenerator(seed: 15)
    var result: [(word: String, points: [[Double]])] = []
    for word in words {
      let query = word.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? word
      let path = try json(client.request("GET", "/api/path?blob=\(blob)&word=\(query)"))
      guard let centers = path["points"] as? [[Double]], let first = centers.first else { continue }
      var points = [first]
      for (a, b) in zip(centers, centers.dropFirst()) {
        let length = hypot(b[0] - a[0], b[1] - a[1])
        let pieces = max(1, Int((length / (keyWidth / 4)).rounded(.up)))
        for k in 1...pieces {
          let t = Double(k) / Double(pieces)
          let wobble = { (Double(generator.next() % 1000) / 1000 - 0.5) * keyWidth * 0.15 }
          points.append([a[0] + t * (b[0] - a[0]) + wobble(), a[1] + t * (b[1] - a[1]) + wobble()])
        }
      }
      result.append((word, points))
    }
    return result
  }

  private func runSession(_ index: Int, paths: [(word: String, points: [[Double]])], seconds: Double) -> SessionResult {
    var result = SessionResult()
    let client = LoopbackClient(port: port)
    let clock = ContinuousClock()
    let start = clock.now
    let interval = Duration.seconds(1 / rate)
    var tick = 0
    var swipe = index
    guard let created = try? json(client.request("POST", "/api/sessions", json: #"{"blob":"\#(blob)"}"#)),
      let id = created["session"] as? String
    else {
      result.errors += 1
      return result
    }
    defer { _ = try? client.request("DELETE", "/api/sessions/\(id)") }
    while clock.now - start < .seconds(seconds) {
      let (word, points) = paths[swipe % paths.count]
      swipe += sessions
      for (i, point) in points.enumerated() {
        let due = start + interval * tick
        tick += 1
        if due > clock.now { Thread.sleep(forTimeInterval: Self.seconds(due - clock.now)) }
        let t = Self.seconds(interval * i) * 1000
        let body = "{\"points\":[[\(point[0]),\(point[1]),\(t)]]}"
        let sent = clock.now
        let response = try? client.request("POST", "/api/sessions/\(id)/points", json: body)
        result.pointLatencies.append(Self.seconds(clock.now - sent) * 1000)
        if response?.status != 200 { result.errors += 1 }
      }
      let lifted = clock.now
      let ended = try? json(client.request("POST", "/api/sessions/\(id)/end", json: "{}"))
      result.liftLatencies.append(Self.seconds(clock.now - lifted) * 1000)
      guard let ended else {
        result.errors += 1
        continue
      }
      if let wait = ended["waitMs"] as? Double { result.waits.append(wait) }
      let top = (ended["words"] as? [[String: Any]] ?? []).prefix(4).compactMap { $0["word"] as? String }
      if top.contains(word) { result.topFour += 1 }
      // A pause between words, as a person lifts and moves on.
      tick += Int(rate / 10)
    }
    return result
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  private func json(_ response: LoopbackClient.Response) throws -> [String: Any] {
    guard (200..<300).contains(response.status),
      let value = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
    else { throw LoopbackClient.Failure(description: "HTTP \(response.status): \(response.text.prefix(200))") }
    return value
  }
}
