import Foundation
import SwipeDecoder
import SwipeDict
import SwipeDictCompiler
import SwipeDictServer
import SwipeDictTestSupport
import SwipeDictTools
import Testing

/// A small English dictionary on qwerty-en: "hello" and its neighbors on the keyboard.
let serverWords: [(word: String, count: Double)] = [
  ("hello", 50_000), ("hell", 30_000), ("jello", 2_000), ("help", 40_000), ("gel", 1_000), ("world", 20_000),
  ("hold", 9_000), ("held", 8_000), ("yellow", 7_000), ("bell", 6_000), ("he", 90_000), ("hero", 3_000),
  ("the", 100_000), ("there", 30_000), ("her", 60_000), ("here", 25_000), ("word", 15_000), ("would", 50_000),
  ("good", 30_000), ("food", 8_000), ("Hello", 500), ("helo", 100),
]

let serverDictionary: SwipeDictionary = {
  do {
    return try SwipeDictionary(
      bytes: DictionaryCompiler.compile(words: serverWords, layout: repositoryLayout("qwerty-en")).bytes)
  } catch {
    fatalError("cannot build the server tests' dictionary: \(error)")
  }
}()

/// A server on a free loopback port for one test, stopped at the end.
func withServer<T>(
  recordPath: String? = nil, limits: PlaygroundServer.Limits = .init(),
  _ body: (UInt16) async throws -> T
) async throws -> T {
  let german = try SwipeDictionary(
    bytes: DictionaryCompiler.compile(
      words: [("hallo", 1000), ("welt", 500), ("haus", 800)], layout: repositoryLayout("qwertz-de")
    ).bytes)
  // A keyboard's 50 ms would cut debug builds' decodings short: the tests wait for the whole.
  var limits = limits
  limits.swipeDeadline = .seconds(60)
  let server = try PlaygroundServer(
    blobs: [.init(name: "en", dictionary: serverDictionary), .init(name: "de", dictionary: german)],
    recordPath: recordPath, limits: limits)
  let port = try await server.start(host: "127.0.0.1", port: 0)
  do {
    let result = try await body(port)
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}

/// Runs blocking client calls on a thread of their own, off the cooperative pool that the
/// in-process server runs on.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
  }
}

/// A response's body as a JSON object.
func object(_ response: LoopbackClient.Response) throws -> [String: Any] {
  let value = try JSONSerialization.jsonObject(with: Data(response.body))
  return try #require(value as? [String: Any], "not an object: \(response.text)")
}

/// The points of a swipe as the API's JSON.
func pointsJSON(_ points: [SwipePoint]) -> String {
  "[" + points.map { p in "[\(p.x),\(p.y)" + (p.time.map { ",\($0)" } ?? "") + "]" }.joined(separator: ",") + "]"
}

/// A synthetic swipe of `word` on qwerty-en.
func syntheticSwipe(_ word: String, seed: UInt64 = 7) throws -> [SwipePoint] {
  try SwipeSynthesizer(layout: repositoryLayout("qwerty-en"), noise: 0.2).swipe(for: word, seed: seed).points
}

/// A swipe through a session: points one request each (or all in one), then the lift.
func decodeOverHTTP(_ client: LoopbackClient, points: [SwipePoint], oneByOne: Bool = true, blob: String = "en") throws
  -> [String: Any]
{
  let created = try client.request("POST", "/api/sessions", json: #"{"blob":"\#(blob)"}"#)
  guard created.status == 201 else { throw LoopbackClient.Failure(description: "create: \(created.text)") }
  let id = try object(created)["session"] as? String ?? ""
  let batches = oneByOne ? points.map { [$0] } : [points]
  for batch in batches {
    let response = try client.request("POST", "/api/sessions/\(id)/points", json: #"{"points":\#(pointsJSON(batch))}"#)
    guard response.status == 200 else { throw LoopbackClient.Failure(description: "points: \(response.text)") }
  }
  let ended = try client.request("POST", "/api/sessions/\(id)/end", json: "{}")
  guard ended.status == 200 else { throw LoopbackClient.Failure(description: "end: \(ended.text)") }
  _ = try client.request("DELETE", "/api/sessions/\(id)")
  return try object(ended)
}

func topWords(_ result: [String: Any]) -> [String] {
  (result["words"] as? [[String: Any]] ?? []).compactMap { $0["word"] as? String }
}

@Suite("Playground server", .serialized)
struct ServerTests {
  @Test("the page is HTML; the blobs list each language with its layout's keys and bounding box")
  func pageAndBlobs() async throws {
    try await withServer { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        let page = try client.request("GET", "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.text.contains("<html"))
        let blobs = try client.request("GET", "/api/blobs")
        #expect(blobs.status == 200)
        #expect(blobs.headers["content-type"] == "application/json")
        let json = try object(blobs)
        #expect(json["recording"] as? Bool == false)
        let list = try #require(json["blobs"] as? [[String: Any]])
        #expect(list.compactMap { $0["name"] as? String } == ["en", "de"])
        let en = list[0]
        #expect(en["words"] as? Int == serverDictionary.wordCount)
        #expect(en["hasPairs"] as? Bool == false)
        let layout = try #require(en["layout"] as? [String: Any])
        #expect(layout["name"] as? String == "qwerty-en")
        #expect(layout["keyWidth"] as? Double == 37.5)
        let keys = try #require(layout["keys"] as? [[String: Any]])
        #expect(keys.count == serverDictionary.layout.keys.count)
        let q = try #require(keys.first { $0["char"] as? String == "q" })
        #expect(
          q["x"] as? Double == 18.75 && q["y"] as? Double == 27 && q["w"] as? Double == 37.5 && q["h"] as? Double == 54)
        let right = keys.map { ($0["x"] as? Double ?? 0) + ($0["w"] as? Double ?? 0) / 2 }.max()
        let bottom = keys.map { ($0["y"] as? Double ?? 0) + ($0["h"] as? Double ?? 0) / 2 }.max()
        #expect(layout["width"] as? Double == right)
        #expect(layout["height"] as? Double == bottom)
      }
    }
  }

  @Test("a synthetic swipe of hello streamed point by point decodes to hello in the top 4, as the decoder does")
  func swipeDecodesOverHTTP() async throws {
    let points = try syntheticSwipe("hello")
    let local = SwipeDecoder(dictionary: serverDictionary).decode(points).words.map(\.word)
    try await withServer { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        let created = try object(try client.request("POST", "/api/sessions", json: #"{"blob":"en"}"#))
        let id = try #require(created["session"] as? String)
        var sawCandidates = false
        for (i, point) in points.enumerated() {
          let response = try client.request(
            "POST", "/api/sessions/\(id)/points", json: #"{"points":\#(pointsJSON([point]))}"#)
          #expect(response.status == 200)
          let json = try object(response)
          #expect(json["count"] as? Int == i + 1)
          // The engine hands each point to the decoder when the next shows it is no stray.
          #expect((json["reduced"] as? [[Double]])?.isEmpty == (i == 0))
          if let candidates = json["candidates"] as? Int {
            sawCandidates = true
            #expect(candidates > 0 && candidates <= serverDictionary.wordCount)
          }
        }
        #expect(sawCandidates)
        let ended = try client.request("POST", "/api/sessions/\(id)/end", json: #"{"previous":"say"}"#)
        #expect(ended.status == 200)
        let result = try object(ended)
        let words = topWords(result)
        #expect(words.prefix(4).contains("hello"))
        #expect(words == local)
        #expect(result["complete"] as? Bool == true)
        #expect((result["waitMs"] as? Double).map { $0 >= 0 } == true)
        let word = try #require((result["words"] as? [[String: Any]])?.first)
        #expect(word["score"] is Double && word["distance"] is Double && word["frequency"] is Int)
        let funnel = try #require(result["funnel"] as? [String: Int])
        let stages = ["words", "start", "direction", "end", "length", "matched"].compactMap { funnel[$0] }
        #expect(stages.count == 6)
        #expect(stages[0] == serverDictionary.wordCount)
        #expect(zip(stages, stages.dropFirst()).allSatisfy { $0 >= $1 }, "the funnel narrows: \(stages)")
        #expect(stages[5] > 0)
        // The session is empty again: the next swipe starts from nothing.
        let next = try object(try client.request("POST", "/api/sessions/\(id)/points", json: #"{"points":[[225,81]]}"#))
        #expect(next["count"] as? Int == 1)
        #expect(next["candidates"] is NSNull)
        #expect(try client.request("DELETE", "/api/sessions/\(id)").status == 204)
        #expect(try client.request("POST", "/api/sessions/\(id)/end", json: "{}").status == 404)
      }
    }
  }

  @Test("paths, explanations, completion and correction")
  func queries() async throws {
    let points = try syntheticSwipe("hello")
    try await withServer { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        let path = try object(try client.request("GET", "/api/path?blob=en&word=hello"))
        #expect(path["word"] as? String == "hello")
        let centers = serverDictionary.layout.keyPath(for: "hello")!.map { serverDictionary.keyCenters[$0] }
        #expect((path["points"] as? [[Double]])?.count == 4)
        #expect((path["points"] as? [[Double]])?.first == [Double(centers[0].x), Double(centers[0].y)])
        #expect(try client.request("GET", "/api/path?blob=en&word=zzzq").status == 404)
        #expect(try client.request("GET", "/api/path?blob=xx&word=hello").status == 404)
        #expect(try client.request("GET", "/api/path?blob=en").status == 400)

        let explained = try client.request(
          "POST", "/api/explain", json: #"{"blob":"en","word":"world","points":\#(pointsJSON(points))}"#)
        #expect(explained.status == 200)
        let explanation = try object(explained)
        let form = try #require((explanation["forms"] as? [[String: Any]])?.first)
        #expect(form["word"] as? String == "world")
        #expect(form["verdict"] as? String == "filtered")
        #expect(form["stage"] as? String == "start")
        #expect((form["filters"] as? [[String: Any]])?.first?["passes"] as? Bool == false)
        #expect((explanation["path"] as? [[Double]])?.count == 5)
        #expect(topWords(explanation).contains("hello"))
        let shown = try object(
          try client.request(
            "POST", "/api/explain", json: #"{"blob":"en","word":"hello","points":\#(pointsJSON(points))}"#))
        #expect(((shown["forms"] as? [[String: Any]]) ?? []).contains { $0["verdict"] as? String == "shown" })

        let completed = try object(try client.request("GET", "/api/complete?blob=en&prefix=he&limit=3"))
        let completions = try #require(completed["suggestions"] as? [[String: Any]])
        #expect(
          completions.compactMap { $0["word"] as? String }
            == serverDictionary.completions(prefix: "he", limit: 3).map(\.word))
        #expect(completions.first?["frequency"] is Int && completions.first?["score"] is Int)
        let corrected = try object(try client.request("GET", "/api/correct?blob=en&input=helo&limit=10"))
        let corrections = (corrected["suggestions"] as? [[String: Any]] ?? []).compactMap { $0["word"] as? String }
        #expect(corrections == serverDictionary.corrections(for: "helo", limit: 10).map(\.word))
        #expect(corrections.contains("hello"))
        // Query values are percent-decoded; each blob answers from its own words.
        let german = try object(try client.request("GET", "/api/complete?blob=de&prefix=h%61&limit=5"))
        let germanWords = (german["suggestions"] as? [[String: Any]] ?? []).compactMap { $0["word"] as? String }
        #expect(Set(germanWords) == ["hallo", "haus"])
        #expect(try client.request("GET", "/api/complete?blob=en&prefix=he&limit=0").status == 400)
        #expect(try client.request("GET", "/api/correct?blob=en&input=he&limit=x").status == 400)
      }
    }
  }

  @Test("HEAD answers a GET route's head: its status and Content-Length, no body")
  func headAnswersTheHead() async throws {
    try await withServer { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        let get = try client.request("GET", "/api/blobs")
        let head = try client.request("HEAD", "/api/blobs")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["content-length"] == String(get.body.count))
        #expect(try client.request("HEAD", "/api/sessions").status == 405)  // POST only
      }
    }
  }

  @Test("recording appends lines that swipedict decode reads back; without --record it is refused with 409")
  func recording() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("swipes.jsonl").path
    let blobPath = directory.appendingPathComponent("en.swipedict").path
    try Data(DictionaryCompiler.compile(words: serverWords, layout: repositoryLayout("qwerty-en")).bytes)
      .write(to: URL(fileURLWithPath: blobPath))
    let hello = try syntheticSwipe("hello")
    let world = try syntheticSwipe("world", seed: 3)
    try await withServer(recordPath: file) { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        #expect(try object(try client.request("GET", "/api/blobs"))["recording"] as? Bool == true)
        let first = try client.request(
          "POST", "/api/record", json: #"{"blob":"en","word":"hello","points":\#(pointsJSON(hello))}"#)
        #expect(first.status == 204)
        let second = try client.request(
          "POST", "/api/record",
          json: #"{"blob":"en","word":"world","previous":"hello","points":\#(pointsJSON(world))}"#)
        #expect(second.status == 204)
        #expect(try client.request("POST", "/api/record", json: #"{"blob":"en","points":[[1,2]]}"#).status == 400)
        #expect(try client.request("POST", "/api/record", json: #"{"blob":"en","word":"x","points":[]}"#).status == 400)
      }
    }
    let swipes = try SwipeFile.read(path: file)
    #expect(swipes.map(\.word) == ["hello", "world"])
    #expect(swipes.map(\.previous) == [nil, "hello"])
    #expect(swipes[0].points.count == hello.count)
    let decoded = try CLI.run(["decode", blobPath, "--swipes", file, "--json"])
    #expect(decoded.status == 0, "\(decoded.stderr)")
    #expect(decoded.stdout.split(separator: "\n").count == 3)
    #expect(decoded.stdout.contains(#""word":"hello""#))

    try await withServer { port in
      try await offPool {
        let refused = try LoopbackClient(port: port).request(
          "POST", "/api/record", json: #"{"blob":"en","word":"hello","points":[[1,2]]}"#)
        #expect(refused.status == 409)
        #expect(try object(refused)["error"] is String)
      }
    }
  }

  @Test("bad requests get a 4xx with an error, and the server answers the next request")
  func badRequests() async throws {
    var limits = PlaygroundServer.Limits()
    // After a refusal the server reads and drops what the client still sends (the rest of a
    // 1 MB body) for the linger time: long here, so that a client kept waiting by a loaded
    // machine is not reset before it has written it all.
    limits.http.lingerTime = .seconds(60)
    try await withServer(limits: limits) { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        let id =
          try object(try client.request("POST", "/api/sessions", json: #"{"blob":"en"}"#))["session"] as? String ?? ""
        let points = "/api/sessions/\(id)/points"
        let cases: [(String, String, String?, Int)] = [
          ("POST", points, "{bad json", 400),
          ("POST", points, "[1,2]", 400),
          ("POST", points, #"{"points":"no"}"#, 400),
          ("POST", points, #"{"points":[[1]]}"#, 400),
          ("POST", points, #"{"points":[["a",2]]}"#, 400),
          ("POST", points, #"{"points":[[1,2,3,4]]}"#, 400),
          ("POST", points, #"{"points":[[1e999,2]]}"#, 400),
          ("POST", points, #"{"points":[[NaN,2]]}"#, 400),
          ("POST", points, #"{"points":[[1,2,5],[3,4,1]]}"#, 400),
          ("POST", points, #"{"points":[[1,2,5],[3,4]]}"#, 400),
          ("POST", points, #"{"points":[[1,2]],"points":[[1,2]]}"#, 400),
          ("POST", points, "", 400),
          ("POST", "/api/sessions", #"{"blob":5}"#, 400),
          ("POST", "/api/sessions", #"{"blob":"xx"}"#, 404),
          ("POST", "/api/sessions", "{}", 400),
          ("POST", "/api/sessions/nope/points", #"{"points":[[1,2]]}"#, 404),
          ("POST", "/api/sessions/nope/end", "{}", 404),
          ("POST", "/api/sessions/\(id)/end", #"{"previous":7}"#, 400),
          ("DELETE", "/api/sessions/nope", nil, 404),
          ("GET", "/api/nothing", nil, 404),
          ("GET", "/nothing", nil, 404),
          ("GET", "/api/sessions", nil, 405),
          ("PUT", "/api/blobs", nil, 405),
          ("GET", points, nil, 405),
          ("POST", "/api/explain", #"{"blob":"en","word":"hello"}"#, 400),
          ("POST", "/api/explain", #"{"blob":"en","points":[[1,2]]}"#, 400),
        ]
        for (method, path, body, status) in cases {
          let response = try client.request(method, path, body: body.map { Array($0.utf8) })
          #expect(response.status == status, "\(method) \(path) \(body ?? "")")
          #expect((try? object(response))?["error"] is String, "\(method) \(path): \(response.text)")
          #expect(try client.request("GET", "/api/blobs").status == 200)
        }
        // The bad requests added nothing to the session.
        let fine = try object(try client.request("POST", points, json: #"{"points":[[225,81]]}"#))
        #expect(fine["count"] as? Int == 1)
        // Over 1 MiB: 413 (answered from the declared length); the server goes on.
        let huge = "{\"points\":[" + String(repeating: "[1,2],", count: 300_000) + "[1,2]]}"
        let tooLarge = try client.request("POST", points, json: huge)
        #expect(tooLarge.status == 413)
        #expect(try LoopbackClient(port: port).request("GET", "/api/blobs").status == 200)
        // A chunked body is refused (411: send a Content-Length), and read and dropped so
        // that the client reads the answer.
        let chunked = LoopbackClient(port: port)
        var raw = Array("POST \(points) HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let piece = [UInt8](repeating: 0x20, count: 256 * 1024)
        for _ in 0..<5 { raw += Array("40000\r\n".utf8) + piece + Array("\r\n".utf8) }
        raw += Array("0\r\n\r\n".utf8)
        let refusedChunks = try chunked.send(raw)
        #expect(refusedChunks.status == 411)
        #expect(refusedChunks.headers["connection"] == "close")
        #expect((try? object(refusedChunks))?["error"] is String)
        #expect(try LoopbackClient(port: port).request("GET", "/api/blobs").status == 200)
        // Garbage that is not HTTP closes that connection only.
        let garbage = LoopbackClient(port: port)
        _ = try? garbage.send(Array("\u{1}\u{2} nonsense\r\n\r\n".utf8))
        #expect(try client.request("GET", "/api/blobs").status == 200)
      }
    }
  }

  @Test("at most the limit of sessions live at once (429 beyond); deleting one makes room; idle ones expire")
  func sessionLimit() async throws {
    var limits = PlaygroundServer.Limits()
    limits.sessions = 5
    try await withServer(limits: limits) { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        var ids: [String] = []
        for _ in 0..<5 {
          let response = try client.request("POST", "/api/sessions", json: #"{"blob":"de"}"#)
          #expect(response.status == 201)
          ids.append(try object(response)["session"] as? String ?? "")
        }
        #expect(Set(ids).count == 5)
        let refused = try client.request("POST", "/api/sessions", json: #"{"blob":"en"}"#)
        #expect(refused.status == 429)
        #expect(try object(refused)["error"] is String)
        #expect(try client.request("DELETE", "/api/sessions/\(ids[0])").status == 204)
        #expect(try client.request("POST", "/api/sessions", json: #"{"blob":"en"}"#).status == 201)
      }
    }
    limits.idleTime = .milliseconds(200)
    try await withServer(limits: limits) { port in
      try await offPool {
        let client = LoopbackClient(port: port)
        // Five sessions fill the limit; once they have been idle past 200 ms they are gone
        // and a new one has room (without expiry it would get 429). Whether one is still
        // live before then depends on the machine's load, so that is not checked.
        let id =
          try object(try client.request("POST", "/api/sessions", json: #"{"blob":"en"}"#))["session"] as? String ?? ""
        for _ in 0..<4 { #expect(try client.request("POST", "/api/sessions", json: #"{"blob":"en"}"#).status == 201) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try client.request("POST", "/api/sessions/\(id)/points", json: #"{"points":[[1,2]]}"#).status == 404)
        #expect(try client.request("POST", "/api/sessions", json: #"{"blob":"en"}"#).status == 201)
      }
    }
  }

  @Test("concurrent sessions from several tasks give the answers of one at a time")
  func concurrentSessions() async throws {
    let words = ["hello", "world", "there", "yellow"]
    let swipes = try words.enumerated().map { try syntheticSwipe($0.element, seed: UInt64($0.offset + 1)) }
    try await withServer { port in
      let alone = try await offPool {
        let client = LoopbackClient(port: port)
        return try swipes.map { topWords(try decodeOverHTTP(client, points: $0)) }
      }
      #expect(alone.enumerated().filter { $0.element.prefix(4).contains(words[$0.offset]) }.count >= 3)
      let together = try await withThrowingTaskGroup(of: (Int, [[String]]).self) { group in
        for worker in 0..<4 {
          group.addTask {
            let answers = try await offPool {
              let client = LoopbackClient(port: port)
              // Each worker runs every swipe, starting at its own one.
              return try (0..<swipes.count).map { k in
                let i = (k + worker) % swipes.count
                return topWords(try decodeOverHTTP(client, points: swipes[i], oneByOne: worker % 2 == 0))
              }
            }
            return (worker, answers)
          }
        }
        var all: [Int: [[String]]] = [:]
        for try await (worker, answers) in group { all[worker] = answers }
        return all
      }
      for (worker, answers) in together {
        for (k, answer) in answers.enumerated() {
          #expect(answer == alone[(k + worker) % swipes.count], "worker \(worker), swipe \(k)")
        }
      }
    }
  }
}
