import Foundation
import SwipeDecoder
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat

/// The package's JSON writer.
typealias JSON = SwipeDictFormat.JSONValue

/// A value behind a lock: the server's shared state (sessions, the record file) is touched
/// by many connection tasks at once.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// A request the server refuses: its status and what is wrong, sent as `{"error": "…"}`.
struct RequestError: Error {
  var status: HTTPStatus
  var message: String

  static func bad(_ message: String) -> RequestError { RequestError(status: .badRequest, message: message) }
  static func notFound(_ message: String) -> RequestError { RequestError(status: .notFound, message: message) }

  /// The body of its response: `{"error": message}`.
  var json: JSON { .object([("error", .string(message))]) }
}

/// The largest coordinate or time accepted, in magnitude (as in swipe files).
let largestNumber: Double = 1e9

extension HTTPResponse {
  /// A JSON response.
  static func json(_ value: JSON, status: HTTPStatus = .ok) -> HTTPResponse {
    HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(value.text.utf8))
  }

  /// `{"error": message}` with `status`.
  static func error(_ error: RequestError) -> HTTPResponse {
    json(error.json, status: error.status)
  }
}

/// `value` rounded to `places` decimals, as a JSON number (`null` when not finite).
func number(_ value: Float, places: Int = 3) -> JSON {
  guard value.isFinite else { return .null }
  let scale = pow(10, Double(places))
  let rounded = (Double(value) * scale).rounded() / scale
  return .double(rounded == 0 ? 0 : rounded)
}

/// A request body's JSON object: its members by key, read strictly.
struct JSONObject {
  private var members: [String: JSONReader.Value] = [:]

  /// Parses `bytes` as one JSON object (an empty body is `{}`).
  init(_ bytes: [UInt8]) throws(RequestError) {
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return }
    var options = JSONReader.Options()
    options.maxDepth = 8
    let value: JSONReader.Value
    do {
      value = try JSONReader.parse(bytes, options: options)
    } catch {
      throw .bad("the body is not JSON: \(error.message) at byte \(error.offset)")
    }
    guard case .object(let list) = value.kind else {
      throw .bad("the body must be a JSON object, not \(value.summary)")
    }
    for (key, value) in list {
      guard members[key] == nil else { throw .bad("\"\(key)\" is given twice") }
      members[key] = value
    }
  }

  /// An optional string member.
  func string(_ key: String) throws(RequestError) -> String? {
    guard let value = members[key] else { return nil }
    switch value.kind {
    case .null: return nil
    case .string(let s): return s
    default: throw .bad("\"\(key)\" must be a string, not \(value.summary)")
    }
  }

  /// A required string member.
  func requiredString(_ key: String) throws(RequestError) -> String {
    guard let s = try string(key) else { throw .bad("\"\(key)\" is missing") }
    return s
  }

  /// A required array of points `[x, y]` or `[x, y, t_ms]`, finite, at most 10⁹ in
  /// magnitude, times all given or none, never decreasing.
  func points(_ key: String = "points") throws(RequestError) -> [SwipePoint] {
    guard let value = members[key] else { throw .bad("\"\(key)\" is missing") }
    guard case .array(let items) = value.kind else {
      throw .bad("\"\(key)\" must be an array of [x, y, t_ms], not \(value.summary)")
    }
    var points: [SwipePoint] = []
    points.reserveCapacity(items.count)
    for (i, item) in items.enumerated() {
      guard case .array(let numbers) = item.kind, numbers.count == 2 || numbers.count == 3 else {
        throw .bad("point \(i) must be [x, y] or [x, y, t_ms], not \(item.summary)")
      }
      var values: [Double] = []
      for number in numbers {
        guard case .number(let d) = number.kind else {
          throw .bad("point \(i) must hold numbers, not \(number.summary)")
        }
        guard d.isFinite, abs(d) <= largestNumber else {
          throw .bad("point \(i) has a number that is not finite or over 1e9 in magnitude: \(d)")
        }
        values.append(d)
      }
      let time = values.count == 3 ? Float(values[2]) : nil
      if let previous = points.last {
        guard (previous.time == nil) == (time == nil) else {
          throw .bad("point \(i): give a time for every point or for none")
        }
        if let time, let before = previous.time, time < before {
          throw .bad("point \(i): times must not decrease (\(time) after \(before))")
        }
      }
      points.append(SwipePoint(x: Float(values[0]), y: Float(values[1]), time: time))
    }
    return points
  }
}
