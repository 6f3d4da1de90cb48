/// A request's line and header fields (RFC 9112 §2–§6), parsed strictly from the bytes before
/// the blank line that ends them.
///
/// The parser is pure: bytes in, a head or a ``RequestError`` with the status to answer out.
/// It never traps on what it is given and looks at each byte a bounded number of times.
/// What it refuses:
///
/// | status | when |
/// | --- | --- |
/// | 400 | a request line that is not `METHOD SP target SP HTTP/d.d`; a target that is not a path (`/…`, or `http://host/…`); a header line that starts with a space or tab (obsolete line folding), has no colon, a name that is not a token or a space before the colon; a control character in a value; an empty line inside the head; a Content-Length that is not digits, or several that differ; an HTTP/1.1 request with no Host, or several |
/// | 411 | a Transfer-Encoding (chunked bodies are not read: send a Content-Length) |
/// | 417 | an Expect other than `100-continue` |
/// | 431 | more header fields than the limit |
/// | 505 | an HTTP version other than 1.0 and 1.1 |
struct RequestHead: Sendable {
  /// The method as sent (a token).
  var method: String
  /// The target in origin form (`/path?query`, percent-encoded as sent; an absolute-form
  /// target's scheme and authority are dropped).
  var target: String
  /// `HTTP/1.0` or `HTTP/1.1`.
  var version: HTTPVersion
  /// The header fields, names case-insensitive, in the order sent.
  var headers: HTTPHeaderFields
  /// The body's length in bytes (0 without a Content-Length; `Int.max` when the digits
  /// overflow).
  var contentLength: Int
  /// Whether the connection stays open after the response: HTTP/1.1 unless
  /// `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
  var keepAlive: Bool
  /// Whether the client waits for `100 Continue` before it sends the body.
  var expectsContinue: Bool

  /// Parses a head.
  /// - Parameters:
  ///   - head: the request line and the header lines, each ended by LF or CRLF (the last
  ///     one's end may be missing); not the blank line that ends the head.
  ///   - maxFields: the most header fields accepted (431 beyond).
  /// - Returns: the head.
  /// - Throws: ``RequestError`` with the status to answer (see the type's table).
  /// - Complexity: O(n) in the length of `head`.
  static func parse(_ head: ArraySlice<UInt8>, maxFields: Int = 100) throws(RequestError) -> RequestHead {
    var lines = LineCursor(head)
    guard let requestLine = lines.next() else { throw .bad("the request is empty") }
    let line = try RequestLine.parse(requestLine)
    var headers = HTTPHeaderFields()
    var fieldCount = 0
    while let fieldLine = lines.next() {
      guard !fieldLine.isEmpty else {
        throw .bad("an empty line inside the request head")
      }
      fieldCount += 1
      guard fieldCount <= maxFields else {
        throw RequestError(
          status: .requestHeaderFieldsTooLarge, message: "the request has more than \(maxFields) header fields")
      }
      let (name, value) = try field(fieldLine)
      headers.append(value, for: name)
    }
    return try RequestHead(line: line, headers: headers)
  }

  private init(line: RequestLine, headers: HTTPHeaderFields) throws(RequestError) {
    method = line.method
    target = line.target
    version = line.version
    self.headers = headers
    let hosts = headers.values(for: "Host").count
    guard hosts <= 1 else { throw .bad("the request has several Host headers") }
    guard hosts == 1 || version != .http11 else { throw .bad("an HTTP/1.1 request must have a Host header") }
    guard headers.values(for: "Transfer-Encoding").isEmpty else {
      throw RequestError(
        status: .lengthRequired,
        message: "Transfer-Encoding is not supported: send the body with a Content-Length")
    }
    contentLength = try Self.contentLength(headers.values(for: "Content-Length"))
    let connection = Self.tokens(headers.values(for: "Connection"))
    keepAlive = version == .http11 ? !connection.contains("close") : connection.contains("keep-alive")
    let expectations = Self.tokens(headers.values(for: "Expect"))
    guard expectations.allSatisfy({ $0 == "100-continue" }) else {
      throw RequestError(status: .expectationFailed, message: "only Expect: 100-continue is supported")
    }
    expectsContinue = !expectations.isEmpty
  }

  /// The lowercased comma-separated tokens of a header's values.
  private static func tokens(_ values: [String]) -> [String] {
    values.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces().lowercased() }.filter { !$0.isEmpty }
  }

  /// The body length that the Content-Length values agree on.
  private static func contentLength(_ values: [String]) throws(RequestError) -> Int {
    var length: Int?
    for piece in values.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
      let digits = piece.trimmingSpaces()
      guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
        throw .bad("Content-Length must be a whole number of bytes, not \"\(piece.trimmingSpaces())\"")
      }
      var value = 0
      for digit in digits.utf8 {
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(Int(digit - 0x30))
        value = o1 || o2 ? Int.max : sum
      }
      if let length, length != value {
        throw .bad("the request has several Content-Length values that differ")
      }
      length = value
    }
    return length ?? 0
  }

  /// A header line's name and value (surrounding spaces and tabs dropped).
  private static func field(_ line: ArraySlice<UInt8>) throws(RequestError) -> (String, String) {
    guard let first = line.first, first != 0x20, first != 0x09 else {
      throw .bad("a header line starts with a space or tab (obsolete line folding is not accepted)")
    }
    guard let colon = line.firstIndex(of: 0x3A) else {
      throw .bad("a header line has no colon: \"\(printable(line))\"")
    }
    let name = line[..<colon]
    guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
      throw .bad("a header name must be a token with no space before the colon: \"\(printable(name))\"")
    }
    var value = line[(colon + 1)...]
    while let b = value.first, b == 0x20 || b == 0x09 { value.removeFirst() }
    while let b = value.last, b == 0x20 || b == 0x09 { value.removeLast() }
    guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
      throw .bad("the value of \(String(decoding: name, as: UTF8.self)) holds a control character")
    }
    return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
  }
}

/// A request line: `METHOD SP request-target SP HTTP-version`.
struct RequestLine: Sendable, Equatable {
  /// The longest method accepted (the standard ones have at most 7 letters).
  static let maxMethodLength = 32

  var method: String
  var target: String
  var version: HTTPVersion

  /// Parses a request line (without its line end).
  /// - Throws: ``RequestError``: 400 when malformed, 505 for an HTTP version other than 1.0
  ///   and 1.1.
  static func parse(_ line: ArraySlice<UInt8>) throws(RequestError) -> RequestLine {
    let notHTTP = RequestError.bad("not an HTTP request: the first line must be METHOD /path HTTP/1.1")
    let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw notHTTP }
    let (methodBytes, targetBytes, versionBytes) = (parts[0], parts[1], parts[2])
    guard !methodBytes.isEmpty, methodBytes.count <= maxMethodLength, methodBytes.allSatisfy(isTokenByte) else {
      throw notHTTP
    }
    guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
      throw .bad("the request target must be ASCII with no spaces or control characters")
    }
    let version = try parseVersion(versionBytes)
    let method = String(decoding: methodBytes, as: UTF8.self)
    return RequestLine(method: method, target: try originForm(targetBytes, method: method), version: version)
  }

  /// `HTTP/1.0` or `HTTP/1.1`; another `HTTP/d.d` is 505, anything else 400.
  private static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(RequestError) -> HTTPVersion {
    let b = Array(bytes)
    guard b.count == 8, b[0..<5].elementsEqual("HTTP/".utf8), isDigit(b[5]), b[6] == 0x2E, isDigit(b[7]) else {
      throw .bad("not an HTTP request: the version must be HTTP/1.1 or HTTP/1.0")
    }
    switch (b[5], b[7]) {
    case (0x31, 0x31): return .http11
    case (0x31, 0x30): return .http10
    default:
      throw RequestError(
        status: .httpVersionNotSupported,
        message:
          "HTTP/\(Character(UnicodeScalar(b[5]))).\(Character(UnicodeScalar(b[7]))) is not supported: use HTTP/1.1")
    }
  }

  /// The target in origin form: `/…` as is; `http://host/…` without scheme and authority;
  /// `*` only for OPTIONS.
  private static func originForm(_ bytes: ArraySlice<UInt8>, method: String) throws(RequestError) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    if text.hasPrefix("/") { return text }
    if text == "*" && method == "OPTIONS" { return text }
    for scheme in ["http://", "https://"] where text.lowercased().hasPrefix(scheme) {
      let rest = text.dropFirst(scheme.count)
      guard let cut = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
      let tail = rest[cut...]
      return tail.hasPrefix("/") ? String(tail) : "/" + tail
    }
    throw .bad("the request target must be a path starting with /, not \"\(text.prefix(80))\"")
  }
}

/// Finds where a request head ends in bytes that arrive piece by piece, looking at each
/// byte once (never rescanning from the start), and refuses early what cannot become a
/// request: a first line that is not `METHOD SP target SP HTTP/d.d` is refused as soon as
/// its first wrong byte arrives, without waiting for the rest of the head.
///
/// Blank lines before the request line are skipped (RFC 9112 §2.2) but count toward the
/// limit. Lines end with LF or CRLF.
struct HeadScanner {
  /// Where the head is in the bytes given to ``scan(_:)``, as offsets from their start.
  struct Head: Equatable {
    /// The request line and the header lines (each with its line end), not the blank line.
    var lines: Range<Int>
    /// The offset just after the blank line: where the body starts.
    var end: Int
  }

  private enum State {
    case blank
    case method(Int)
    case target(Int)
    case version(Int)
    case fields
  }

  /// The most bytes a head may take, its leading blank lines and final blank line included.
  let limit: Int
  /// How many bytes have been looked at.
  private(set) var scanned = 0
  private var state = State.blank
  private var start = 0
  private var lineStart = 0

  /// A scanner of heads of at most `limit` bytes.
  init(limit: Int) { self.limit = limit }

  /// Looks at the bytes not yet scanned.
  /// - Parameter bytes: the request's bytes so far, from its first byte; each call passes
  ///   the bytes of the previous one and possibly more.
  /// - Returns: the head once its blank line has arrived, else `nil` (more bytes needed).
  /// - Throws: ``RequestError``: 400 for a first line that cannot be a request line
  ///   (505 for an unsupported version); once `limit` bytes have passed without the end,
  ///   414 while still in the request target, 431 in the header fields.
  mutating func scan(_ bytes: ArraySlice<UInt8>) throws(RequestError) -> Head? {
    let base = bytes.startIndex
    while scanned < bytes.count {
      let i = scanned
      guard i < limit else { throw tooLarge() }
      let byte = bytes[base + i]
      scanned += 1
      switch state {
      case .blank:
        if byte == 0x0D || byte == 0x0A { continue }
        start = i
        lineStart = i
        state = .method(0)
        try method(byte, count: 0)
      case .method(let count):
        try method(byte, count: count)
      case .target(let count):
        if byte == 0x20 {
          guard count > 0 else { throw .bad("the request target is empty") }
          state = .version(0)
        } else if byte >= 0x21 && byte <= 0x7E {
          state = .target(count + 1)
        } else if byte == 0x0D || byte == 0x0A {
          throw .bad("not an HTTP request: the first line must be METHOD /path HTTP/1.1")
        } else {
          throw .bad("the request target must be ASCII with no spaces or control characters")
        }
      case .version(let count):
        if byte == 0x0A {
          var end = base + i
          if end > base + start, bytes[end - 1] == 0x0D { end -= 1 }
          _ = try RequestLine.parse(bytes[(base + start)..<end])
          lineStart = i + 1
          state = .fields
        } else if Self.fitsVersion(byte, at: count) {
          state = .version(count + 1)
        } else {
          throw .bad("not an HTTP request: the version must be HTTP/1.1 or HTTP/1.0")
        }
      case .fields:
        guard byte == 0x0A else { continue }
        let length = i - lineStart - (i > lineStart && bytes[base + i - 1] == 0x0D ? 1 : 0)
        if length == 0 { return Head(lines: start..<lineStart, end: i + 1) }
        lineStart = i + 1
      }
    }
    return nil
  }

  private mutating func method(_ byte: UInt8, count: Int) throws(RequestError) {
    if byte == 0x20 && count > 0 {
      state = .target(0)
    } else if isTokenByte(byte) && count < RequestLine.maxMethodLength {
      state = .method(count + 1)
    } else {
      throw .bad("not an HTTP request: the first line must be METHOD /path HTTP/1.1")
    }
  }

  private static let httpPrefix = Array("HTTP/".utf8)

  /// Whether `byte` may be at `offset` in `HTTP/d.d` followed by CR (the LF ends the line).
  private static func fitsVersion(_ byte: UInt8, at offset: Int) -> Bool {
    switch offset {
    case 0..<5: return byte == httpPrefix[offset]
    case 5, 7: return isDigit(byte)
    case 6: return byte == 0x2E
    case 8: return byte == 0x0D
    default: return false
    }
  }

  private func tooLarge() -> RequestError {
    switch state {
    case .blank:
      return .bad("the request holds only blank lines")
    case .method, .target:
      return RequestError(status: .uriTooLong, message: "the request line is over the limit of \(limit) bytes")
    case .version, .fields:
      return RequestError(
        status: .requestHeaderFieldsTooLarge, message: "the request head is over the limit of \(limit) bytes")
    }
  }
}

/// The lines of a head: split at LF, a CR before the LF dropped; no empty last line.
private struct LineCursor {
  private var rest: ArraySlice<UInt8>

  init(_ bytes: ArraySlice<UInt8>) { rest = bytes }

  mutating func next() -> ArraySlice<UInt8>? {
    guard !rest.isEmpty else { return nil }
    var line: ArraySlice<UInt8>
    if let lf = rest.firstIndex(of: 0x0A) {
      line = rest[..<lf]
      rest = rest[(lf + 1)...]
    } else {
      line = rest
      rest = rest[rest.endIndex...]
    }
    if line.last == 0x0D { line.removeLast() }
    return line
  }
}

/// Whether `byte` may be in a token (RFC 9110 §5.6.2: a method or a header name).
func isTokenByte(_ byte: UInt8) -> Bool {
  switch byte {
  case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
  case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
    UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
    UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
    return true
  default: return false
  }
}

private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

/// At most 80 bytes of `bytes` as text, control characters as `?`, for an error message.
private func printable(_ bytes: ArraySlice<UInt8>) -> String {
  String(decoding: bytes.prefix(80).map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
}

extension StringProtocol {
  /// The text without the spaces and tabs around it.
  fileprivate func trimmingSpaces() -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
