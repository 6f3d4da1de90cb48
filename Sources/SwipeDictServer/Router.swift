import Foundation
import SwipeDecoder
import SwipeDict
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTools

/// Dispatches each request to its endpoint; turns every refusal into a JSON error response
/// so that no request can stop the server.
struct Router: HTTPHandler {
  let server: PlaygroundServer

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    do {
      return try await route(request)
    } catch let error as RequestError {
      return .error(error)
    } catch {
      return .error(RequestError(status: .badRequest, message: "the request could not be read: \(error)"))
    }
  }

  /// The playground page.
  private var page: HTTPResponse {
    HTTPResponse(
      status: .ok, headers: ["Content-Type": "text/html; charset=utf-8"], body: PackageResources.playground_html)
  }

  private func route(_ request: HTTPRequest) async throws -> HTTPResponse {
    let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let method = request.method
    func allow(_ allowed: String) throws(RequestError) {
      // HEAD is GET without the body (the server sends the head alone).
      guard method == allowed || (allowed == "GET" && method == "HEAD") else {
        throw RequestError(status: .methodNotAllowed, message: "\(request.path) takes \(allowed), not \(method)")
      }
    }
    switch parts.count {
    case 0:
      try allow("GET")
      return page
    case 1 where parts[0] == "playground.html":
      try allow("GET")
      return page
    default: break
    }
    guard parts.first == "api" else { throw RequestError.notFound("no such page: \(request.path)") }
    switch Array(parts.dropFirst()) {
    case ["blobs"]:
      try allow("GET")
      return .json(blobList())
    case ["sessions"]:
      try allow("POST")
      let body = try JSONObject(request.body)
      let blob = try blob(named: try body.requiredString("blob"))
      let id = try await server.sessions.create(on: blob, deadline: server.limits.swipeDeadline)
      return .json(.object([("session", .string(id))]), status: .created)
    case let path where path.count == 2 && path[0] == "sessions":
      try allow("DELETE")
      try server.sessions.remove(path[1])
      return HTTPResponse(status: .noContent)
    case let path where path.count == 3 && path[0] == "sessions" && path[2] == "points":
      try allow("POST")
      let slot = try server.sessions.slot(path[1])
      let points = try JSONObject(request.body).points()
      return .json(try await addPoints(points, to: slot))
    case let path where path.count == 3 && path[0] == "sessions" && path[2] == "end":
      try allow("POST")
      let slot = try server.sessions.slot(path[1])
      let previous = try JSONObject(request.body).string("previous")
      return .json(await end(slot, previous: previous))
    case ["path"]:
      try allow("GET")
      let blob = try blob(named: try query(request, "blob"))
      let word = try query(request, "word")
      guard let id = blob.id(of: word) else { throw RequestError.notFound("\"\(word)\" is not in \(blob.name)") }
      return .json(
        .object([("word", .string(blob.dictionary.word(for: id) ?? word)), ("points", pointList(blob.path(of: id)))]))
    case ["explain"]:
      try allow("POST")
      let body = try JSONObject(request.body)
      return .json(try await offPool { () throws(RequestError) -> JSON in try explain(body) }.get())
    case ["complete"]:
      try allow("GET")
      let blob = try blob(named: try query(request, "blob"))
      let prefix = try query(request, "prefix", allowEmpty: true)
      let limit = try limitParameter(request)
      let previous = request.parameter("previous")
      let found =
        previous.map { blob.dictionary.completions(prefix: prefix, context: blob.context(after: $0), limit: limit) }
        ?? blob.dictionary.completions(prefix: prefix, limit: limit)
      return .json(suggestions(found))
    case ["correct"]:
      try allow("GET")
      let blob = try blob(named: try query(request, "blob"))
      let input = try query(request, "input", allowEmpty: true)
      let limit = try limitParameter(request)
      let found = blob.dictionary.corrections(
        for: input, context: blob.context(after: request.parameter("previous")), limit: limit)
      return .json(suggestions(found))
    case ["record"]:
      try allow("POST")
      return try record(JSONObject(request.body))
    default:
      throw RequestError.notFound("no such endpoint: \(request.path)")
    }
  }

  // MARK: - Endpoints

  private func blobList() -> JSON {
    .object([
      ("blobs", .array(server.blobOrder.compactMap { server.blobs[$0]?.summary })),
      ("recording", .bool(server.recorder != nil)),
    ])
  }

  private func addPoints(_ points: [SwipePoint], to slot: SessionSlot) async throws(RequestError) -> JSON {
    let limit = server.limits.pointsPerSwipe
    let count = slot.received.withLock { received -> Int? in
      guard received + points.count <= limit else { return nil }
      received += points.count
      return received
    }
    guard let count else { throw .bad("a swipe holds at most \(limit) points; end it first") }
    let engine = slot.engine
    let progress = await MainActor.run { () -> SwipeProgress? in
      for point in points {
        let view = ViewPoint(x: Double(point.x), y: Double(point.y))
        let seconds = point.time.map { Double($0) / 1000 }
        if engine.isSwiping {
          engine.touchMoved(to: view, time: seconds)
        } else {
          engine.touchBegan(at: view, time: seconds)
        }
      }
      return engine.swipeProgress
    }
    return .object([
      ("count", .number(count)),
      ("reduced", pointList((progress?.reducedPoints ?? []).map { LayoutPoint(x: $0.x, y: $0.y) })),
      ("candidates", progress?.startCandidates.map { .number($0) } ?? .null),
    ])
  }

  private func end(_ slot: SessionSlot, previous: String?) async -> JSON {
    let blob = slot.blob
    let engine = slot.engine
    slot.received.withLock { $0 = 0 }
    let (filter, reduced) = await MainActor.run { () -> (SwipeFilter?, [SwipePoint]) in
      engine.setPreviousWord(previous)
      return (engine.swipeFilter, engine.swipeProgress?.reducedPoints ?? [])
    }
    let start = ContinuousClock.now
    let result = await engine.touchEnded()
    let waitMs = ContinuousClock.now - start
    let decoding = result.decoding?.merged
    let ms = Double(waitMs.components.seconds) * 1000 + Double(waitMs.components.attoseconds) / 1e15
    return .object([
      ("words", words(decoding?.words ?? [])),
      ("waitMs", .double((ms * 1000).rounded() / 1000)),
      ("complete", .bool(result.isComplete)),
      ("reduced", pointList(reduced.map { LayoutPoint(x: $0.x, y: $0.y) })),
      ("funnel", funnel(blob, filter: filter, matched: decoding?.matchedCount ?? 0)),
    ])
  }

  /// The words left after each filter in turn, and how many were matched.
  private func funnel(_ blob: LoadedBlob, filter: SwipeFilter?, matched: Int) -> JSON {
    let dictionary = blob.dictionary
    var counts = [0, 0, 0, 0]
    if let filter {
      var stage = filter
      stage.startDirection = nil
      stage.end = nil
      stage.length = nil
      var stages = [stage]
      stage.startDirection = filter.startDirection
      stages.append(stage)
      stage.end = filter.end
      stages.append(stage)
      stage.length = filter.length
      stages.append(stage)
      for (i, stage) in stages.enumerated() {
        var count = 0
        dictionary.forEachCandidate(for: stage) { _ in count += 1 }
        counts[i] = count
      }
    }
    return .object([
      ("words", .number(dictionary.wordCount)), ("start", .number(counts[0])), ("direction", .number(counts[1])),
      ("end", .number(counts[2])), ("length", .number(counts[3])), ("matched", .number(matched)),
    ])
  }

  private func explain(_ body: JSONObject) throws(RequestError) -> JSON {
    let blob = try blob(named: try body.requiredString("blob"))
    let word = try body.requiredString("word")
    let points = try body.points()
    guard points.count <= server.limits.pointsPerSwipe else {
      throw .bad("a swipe holds at most \(server.limits.pointsPerSwipe) points")
    }
    let context = blob.context(after: try body.string("previous"))
    let explanation = blob.decoder.explain(points, word: word, context: context)
    let filter = explanation.filter
    let forms: [JSON] = explanation.forms.map { form in
      var members: [(String, JSON)] = [
        ("id", .number(form.id)), ("word", .string(form.word)), ("frequency", .number(form.frequency)),
      ]
      switch form.verdict {
      case .shown(let place): members += [("verdict", "shown"), ("place", .number(place))]
      case .outranked: members.append(("verdict", "outranked"))
      case .displaced: members.append(("verdict", "displaced"))
      case .merged(let into): members += [("verdict", "merged"), ("into", .string(into))]
      case .filtered(let stage): members += [("verdict", "filtered"), ("stage", .string(stage.rawValue))]
      case .outsideBand: members.append(("verdict", "outsideBand"))
      case .blocked: members.append(("verdict", "blocked"))
      }
      let checks: [JSON] = form.filters.checks.map { check in
        .object([
          ("stage", .string(check.stage.rawValue)), ("value", number(check.value)),
          ("accepted", .array([number(check.accepted.lowerBound), number(check.accepted.upperBound)])),
          ("passes", .bool(check.passes)),
        ])
      }
      members += [
        ("filters", .array(checks)), ("distance", form.distance.map { number($0, places: 4) } ?? .null),
        ("prior", number(form.prior, places: 4)), ("score", form.score.map { number($0, places: 4) } ?? .null),
        ("rank", form.rank.map { .number($0) } ?? .null),
      ]
      return .object(members)
    }
    let decoding = explanation.decoding
    let pathID = explanation.forms.first?.id ?? blob.id(of: word)
    return .object([
      ("word", .string(word)),
      ("forms", .array(forms)),
      (
        "filter",
        .object([
          ("start", point(filter.start)), ("direction", filter.startDirection.map { number($0, places: 4) } ?? .null),
          ("end", filter.end.map(point) ?? .null), ("length", filter.length.map { number($0) } ?? .null),
          ("startRadius", number(filter.startRadius)), ("endRadius", number(filter.endRadius)),
          ("directionTolerance", number(filter.directionTolerance, places: 4)),
        ])
      ),
      ("candidates", .number(decoding.candidateCount)), ("matched", .number(decoding.matchedCount)),
      ("words", words(decoding.words)),
      ("path", pathID.map { pointList(blob.path(of: $0)) } ?? .null),
    ])
  }

  private func record(_ body: JSONObject) throws -> HTTPResponse {
    guard let recorder = server.recorder else {
      throw RequestError(status: .conflict, message: "the server is not recording: start it with --record FILE")
    }
    _ = try blob(named: try body.requiredString("blob"))
    let word = try body.requiredString("word")
    guard !word.isEmpty, !word.contains(where: \.isNewline) else {
      throw RequestError.bad("\"word\" must be a word, not empty, on one line")
    }
    let previous = try body.string("previous").flatMap { $0.isEmpty ? nil : $0 }
    let points = try body.points()
    guard !points.isEmpty else { throw RequestError.bad("\"points\" is empty: record a swipe") }
    guard points.count <= server.limits.pointsPerSwipe else {
      throw RequestError.bad("a swipe holds at most \(server.limits.pointsPerSwipe) points")
    }
    do {
      try recorder.append(SwipeFile.line(for: Swipe(word: word, points: points, previous: previous)))
    } catch {
      throw RequestError(status: .internalServerError, message: "\(recorder.path): cannot append: \(error)")
    }
    return HTTPResponse(status: .noContent)
  }

  // MARK: - Parts

  /// Runs the long work of a request (a lift's decoding, an explanation: milliseconds on a
  /// large blob) on a Dispatch thread, so that it never holds one of the few threads of
  /// Swift's cooperative pool that every connection's point requests run on.
  private func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: body()) }
    }
  }

  private func offPool<T: Sendable>(_ body: @escaping @Sendable () throws(RequestError) -> T) async -> Result<
    T, RequestError
  > {
    await offPool { () -> Result<T, RequestError> in
      do throws(RequestError) { return .success(try body()) } catch { return .failure(error) }
    }
  }

  private func blob(named name: String) throws(RequestError) -> LoadedBlob {
    guard let blob = server.blobs[name] else {
      throw .notFound("no blob \"\(name)\"; the server has \(server.blobOrder.joined(separator: ", "))")
    }
    return blob
  }

  private func query(_ request: HTTPRequest, _ name: String, allowEmpty: Bool = false) throws(RequestError) -> String {
    guard let value = request.parameter(name), allowEmpty || !value.isEmpty else {
      throw .bad("the query parameter \"\(name)\" is missing")
    }
    return value
  }

  private func limitParameter(_ request: HTTPRequest) throws(RequestError) -> Int {
    guard let text = request.parameter("limit") else { return 10 }
    guard let limit = Int(text), (1...100).contains(limit) else {
      throw .bad("\"limit\" must be a whole number from 1 to 100, not \"\(text)\"")
    }
    return limit
  }

  private func words(_ candidates: [SwipeDecoding.Candidate]) -> JSON {
    .array(
      candidates.map {
        .object([
          ("word", .string($0.word)), ("score", number($0.score, places: 4)),
          ("distance", number($0.distance, places: 4)),
          ("shape", number($0.shapeDistance, places: 4)), ("lengthRatio", number($0.lengthRatio, places: 4)),
          ("frequency", .number($0.frequency)),
        ])
      })
  }

  private func suggestions(_ found: [Suggestion]) -> JSON {
    .object([
      (
        "suggestions",
        .array(
          found.map {
            .object([
              ("word", .string($0.word)), ("frequency", .number($0.frequency)), ("distance", .number($0.distance)),
              ("score", .number($0.score)),
            ])
          })
      )
    ])
  }

  private func point(_ p: LayoutPoint) -> JSON { .array([number(p.x, places: 2), number(p.y, places: 2)]) }

  private func pointList(_ points: [LayoutPoint]) -> JSON { .array(points.map(point)) }
}
