import Foundation
import NIOHTTP1

/// A response's status: NIO's (its code and reason phrase, RFC 9110 §15).
typealias HTTPStatus = HTTPResponseStatus

/// A request as the API sees it: the method, the target decoded, the body read whole.
struct APIRequest: Sendable {
  /// The method as sent (a token: `GET`, `POST` …).
  var method: String
  /// The target's path: its `.` and `..` segments resolved as sent (RFC 3986 §5.2.4), then
  /// percent-decoded (so `%2E` and `%2F` are data, not dots and separators).
  var path: String
  /// The query's parameters (`name=value`, split at `&`), percent-decoded, in order.
  var query: [(name: String, value: String)]
  /// The whole body (its Content-Length's worth).
  var body: [UInt8]

  /// A request to `target` (origin form, `/path?query`, as sent).
  /// - Throws: ``RequestError`` (400) when the target is not a path, holds a byte a URL may
  ///   not hold (RFC 3986 §3.3–§3.4), a `%` not followed by two hex digits, or
  ///   percent-encoded bytes that are not UTF-8.
  init(method: String, target: String, body: [UInt8]) throws(RequestError) {
    self.method = method
    self.body = body
    (path, query) = try Self.decode(target: target)
  }

  /// The value of the first query parameter named `name`.
  func parameter(_ name: String) -> String? {
    query.first { $0.name == name }?.value
  }

  /// A target's path and query parameters, decoded. An absolute-form target
  /// (`http://host/path`) is taken as its path.
  static func decode(target: String) throws(RequestError) -> (path: String, query: [(name: String, value: String)]) {
    let invalid = RequestError.bad("the request target is not a valid URL path: \(target.prefix(200))")
    var bytes = Array(target.utf8)
    if bytes.first != 0x2F {  // "/"
      let lowered = target.lowercased()
      guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else {
        throw .bad("the request target must be a path starting with /, not \"\(target.prefix(80))\"")
      }
      let rest = bytes.dropFirst(scheme.utf8.count)
      let cut = rest.firstIndex { $0 == 0x2F || $0 == 0x3F } ?? rest.endIndex
      bytes = [0x2F] + rest[cut...].drop { $0 == 0x2F }
    }
    let mark = bytes.firstIndex(of: 0x3F) ?? bytes.endIndex  // "?"
    let pathBytes = bytes[..<mark]
    let queryBytes = mark < bytes.endIndex ? bytes[(mark + 1)...] : []
    guard pathBytes.allSatisfy(isPathByte), queryBytes.allSatisfy({ isPathByte($0) || $0 == 0x3F }) else {
      throw invalid
    }
    guard let path = percentDecoded(removingDotSegments(pathBytes)) else { throw invalid }
    var query: [(name: String, value: String)] = []
    for item in queryBytes.split(separator: 0x26) {  // "&"
      let equals = item.firstIndex(of: 0x3D) ?? item.endIndex  // "="
      let value = equals == item.endIndex ? item[equals...] : item[(equals + 1)...]
      guard let name = percentDecoded(item[..<equals]), let value = percentDecoded(value) else { throw invalid }
      query.append((name, value))
    }
    return (path, query)
  }

  /// Whether a byte may stand in a URL path as it is: unreserved, sub-delims, `:`, `@`,
  /// `/`, or the `%` of a percent-encoded byte (RFC 3986 §3.3).
  private static func isPathByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x61...0x7A, 0x41...0x5A, 0x30...0x39: true  // letters, digits
    case 0x2D, 0x2E, 0x5F, 0x7E: true  // - . _ ~
    case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D: true  // ! $ & ' ( ) * + , ; =
    case 0x3A, 0x40, 0x2F, 0x25: true  // : @ / %
    default: false
    }
  }

  /// `path` with its `.` and `..` segments resolved (RFC 3986 §5.2.4): `/a/./b/../c` is
  /// `/a/c`; `..` never climbs above the root.
  private static func removingDotSegments(_ path: ArraySlice<UInt8>) -> [UInt8] {
    let segments = path.split(separator: 0x2F, omittingEmptySubsequences: false)
    var kept: [ArraySlice<UInt8>] = []
    for (i, segment) in segments.enumerated() {
      let isDot = segment.elementsEqual([0x2E])
      let isDotDot = segment.elementsEqual([0x2E, 0x2E])
      if isDotDot, kept.count > 1 { kept.removeLast() }
      if isDot || isDotDot {
        if i == segments.count - 1 { kept.append([]) }  // "/a/." is "/a/"
      } else {
        kept.append(segment)
      }
    }
    return Array(kept.joined(separator: [0x2F]))
  }

  /// `bytes` with each `%XX` replaced by its byte, as UTF-8 text; `nil` for a `%` without
  /// two hex digits after it, or bytes that are not UTF-8.
  private static func percentDecoded<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = bytes.startIndex
    while i != bytes.endIndex {
      let byte = bytes[i]
      i = bytes.index(after: i)
      guard byte == 0x25 else {
        out.append(byte)
        continue
      }
      guard i != bytes.endIndex, let high = hexValue(bytes[i]) else { return nil }
      i = bytes.index(after: i)
      guard i != bytes.endIndex, let low = hexValue(bytes[i]) else { return nil }
      i = bytes.index(after: i)
      out.append(high << 4 | low)
    }
    return String(bytes: out, encoding: .utf8)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }
}

/// A response of the API: status, header fields and the whole body (the connection adds
/// Content-Length and Connection).
struct APIResponse: Sendable {
  /// The status line's code and phrase.
  var status: HTTPStatus
  /// The header fields to send besides Content-Length and Connection.
  var headers: HTTPHeaders
  /// The whole body.
  var body: [UInt8]

  init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}
