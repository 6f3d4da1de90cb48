import Foundation

/// An HTTP version the server answers (RFC 9112 §2.3).
enum HTTPVersion: Sendable, Equatable {
  /// `HTTP/1.0`: the connection closes after the response unless the client asks to keep it.
  case http10
  /// `HTTP/1.1`: the connection stays open unless the client asks to close it.
  case http11
}

/// A response's status: its code and reason phrase (RFC 9110 §15).
struct HTTPStatus: Sendable, Equatable {
  /// The three-digit code.
  var code: Int
  /// The reason phrase sent after it.
  var phrase: String

  static let ok = HTTPStatus(code: 200, phrase: "OK")
  static let created = HTTPStatus(code: 201, phrase: "Created")
  static let noContent = HTTPStatus(code: 204, phrase: "No Content")
  static let badRequest = HTTPStatus(code: 400, phrase: "Bad Request")
  static let notFound = HTTPStatus(code: 404, phrase: "Not Found")
  static let methodNotAllowed = HTTPStatus(code: 405, phrase: "Method Not Allowed")
  static let requestTimeout = HTTPStatus(code: 408, phrase: "Request Timeout")
  static let conflict = HTTPStatus(code: 409, phrase: "Conflict")
  static let lengthRequired = HTTPStatus(code: 411, phrase: "Length Required")
  static let contentTooLarge = HTTPStatus(code: 413, phrase: "Content Too Large")
  static let uriTooLong = HTTPStatus(code: 414, phrase: "URI Too Long")
  static let expectationFailed = HTTPStatus(code: 417, phrase: "Expectation Failed")
  static let tooManyRequests = HTTPStatus(code: 429, phrase: "Too Many Requests")
  static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431, phrase: "Request Header Fields Too Large")
  static let internalServerError = HTTPStatus(code: 500, phrase: "Internal Server Error")
  static let serviceUnavailable = HTTPStatus(code: 503, phrase: "Service Unavailable")
  static let httpVersionNotSupported = HTTPStatus(code: 505, phrase: "HTTP Version Not Supported")
}

/// Header fields in the order they were sent or set; names compare without regard to ASCII
/// case (RFC 9110 §5.1).
struct HTTPHeaderFields: Sendable, ExpressibleByDictionaryLiteral {
  /// Every field, in order, names as sent.
  private(set) var fields: [(name: String, value: String)] = []

  init() {}

  init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { (name: $0.0, value: $0.1) }
  }

  /// Adds a field after the others (a repeated name keeps every value).
  mutating func append(_ value: String, for name: String) {
    fields.append((name, value))
  }

  /// The values of every field named `name`, in order.
  func values(for name: String) -> [String] {
    fields.filter { Self.namesMatch($0.name, name) }.map(\.value)
  }

  /// The first value of the fields named `name`.
  subscript(name: String) -> String? {
    fields.first { Self.namesMatch($0.name, name) }?.value
  }

  /// Whether two field names match without regard to ASCII case.
  static func namesMatch(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count
      && zip(a.utf8, b.utf8).allSatisfy { lowercase($0) == lowercase($1) }
  }

  private static func lowercase(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }
}

/// A request as the handler sees it: the head parsed, the target decoded, the body read
/// whole.
struct HTTPRequest: Sendable {
  /// The method as sent (a token: `GET`, `POST` …).
  var method: String
  /// The version of the request line.
  var version: HTTPVersion
  /// The target's path: its `.` and `..` segments resolved as sent (RFC 3986 §5.2.4), then
  /// percent-decoded (so `%2E` and `%2F` are data, not dots and separators).
  var path: String
  /// The query's parameters (`name=value`, split at `&`), percent-decoded, in order.
  var query: [(name: String, value: String)]
  /// The header fields as sent.
  var headers: HTTPHeaderFields
  /// The whole body (its Content-Length's worth).
  var body: [UInt8]

  /// A request from its parsed head and its body.
  /// - Throws: ``RequestError`` (400) when the target holds a byte a URL may not hold
  ///   (RFC 3986 §3.3–§3.4), a `%` not followed by two hex digits, or percent-encoded bytes
  ///   that are not UTF-8.
  init(head: RequestHead, body: [UInt8]) throws(RequestError) {
    method = head.method
    version = head.version
    headers = head.headers
    self.body = body
    (path, query) = try Self.decode(target: head.target)
  }

  /// The value of the first query parameter named `name`.
  func parameter(_ name: String) -> String? {
    query.first { $0.name == name }?.value
  }

  /// A target's path and query parameters, decoded.
  static func decode(target: String) throws(RequestError) -> (path: String, query: [(name: String, value: String)]) {
    let invalid = RequestError.bad("the request target is not a valid URL path: \(target.prefix(200))")
    let bytes = Array(target.utf8)
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

/// A response: status, header fields and the whole body (the connection loop adds
/// Content-Length and Connection).
struct HTTPResponse: Sendable {
  /// The status line's code and phrase.
  var status: HTTPStatus
  /// The header fields to send (Content-Length, Connection and Transfer-Encoding are the
  /// connection loop's and are left out).
  var headers: HTTPHeaderFields
  /// The whole body.
  var body: [UInt8]

  init(status: HTTPStatus, headers: HTTPHeaderFields = HTTPHeaderFields(), body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}

/// What answers the server's requests.
protocol HTTPHandler: Sendable {
  /// The response to `request`. An error thrown is answered with 500.
  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse
}
