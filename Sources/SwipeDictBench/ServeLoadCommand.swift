import ArgumentParser
import Foundation
import SwipeDictCommandLine
import SwipeDictTools

/// `swipedict serve-load`: the load test of a running `swipedict serve` (bench/serve.sh).
struct ServeLoadCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve-load",
    abstract: "Load-test a running `swipedict serve`: sessions streaming swipe points at a fixed rate.",
    discussion: """
      Opens SESSIONS sessions on 127.0.0.1:PORT, each on its own keep-alive connection and \
      thread, and streams swipes of the blob's frequent words (perfect paths with a little \
      wobble, a point every quarter key width) at RATE points per second, one point per \
      request, for SECONDS seconds; each swipe is then ended. Prints the per-point latency \
      (request to full response), the lift-to-top-4 time as the client sees it and the \
      server's own wait, in milliseconds.

      Examples:
        swipedict serve build/en.swipedict --port 8080 &
        swipedict serve-load --port 8080 --blob en --sessions 20 --rate 120 --seconds 10
      """,
    shouldDisplay: false)

  @Option(name: .long, parsing: .unconditional, help: "The server's port on 127.0.0.1 (1…65535).")
  var port: Int

  @Option(name: .long, help: "The blob to swipe on (its name in the server).")
  var blob: String = "en"

  @Option(name: .long, parsing: .unconditional, help: "Concurrent sessions (1…64).")
  var sessions: Int = 20

  @Option(name: .long, parsing: .unconditional, help: "Points per second per session (1…1000).")
  var rate: Double = 120

  @Option(name: .long, parsing: .unconditional, help: "How long to stream, in seconds (1…600).")
  var seconds: Int = 10

  func validate() throws {
    try checkRange("--port", port, in: 1...65535)
    try checkRange("--sessions", sessions, in: 1...64)
    try checkRange("--seconds", seconds, in: 1...600)
    guard rate.isFinite, rate >= 1, rate <= 1000 else {
      throw ValidationError("--rate must be from 1 to 1000, not \(rate)")
    }
  }

  func run() throws {
    var test = LoadTest(port: UInt16(port), blob: blob)
    test.sessions = sessions
    test.rate = rate
    test.duration = .seconds(seconds)
    let report: LoadTest.Report
    do { report = try test.run() } catch { throw failure("\(error)") }
    func ms(_ value: Double) -> String { String(format: "%.2f", value) }
    print("sessions \(sessions), \(ms(rate)) points/s each, \(seconds) s")
    print(
      "points      \(grouped(report.points)) (\(String(format: "%.0f", report.throughput))/s), errors \(report.errors)")
    print(
      "per point   median \(ms(report.pointMedian)) ms, p99 \(ms(report.pointP99)) ms, max \(ms(report.pointMax)) ms")
    print("lift→top 4  median \(ms(report.liftMedian)) ms, p99 \(ms(report.liftP99)) ms (round trip)")
    print("server wait median \(ms(report.waitMedian)) ms, p99 \(ms(report.waitP99)) ms (waitMs)")
    print("swipes      \(report.swipes), word in the top 4: \(report.topFour)")
    if report.errors > 0 { throw ExitCode.failure }
  }
}
