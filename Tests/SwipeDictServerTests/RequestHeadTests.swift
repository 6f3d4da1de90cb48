import PropertyBased
import Testing

@testable import SwipeDictServer

/// The bytes of `text`, with `\n` made CRLF.
private func crlf(_ text: String) -> [UInt8] {
  Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
}

/// Scans `bytes` in one piece, then parses the head found.
private func head(_ bytes: [UInt8], limit: Int = 16_384, maxFields: Int = 100) throws(RequestError) -> RequestHead? {
  var scanner = HeadScanner(limit: limit)
  guard let found = try scanner.scan(bytes[...]) else { return nil }
  return try RequestHead.parse(bytes[found.lines], maxFields: maxFields)
}

/// The status a head is refused with, or `nil` when it parses (or is not complete).
private func refusal(_ bytes: [UInt8], limit: Int = 16_384, maxFields: Int = 100) -> Int? {
  do {
    _ = try head(bytes, limit: limit, maxFields: maxFields)
    return nil
  } catch {
    return error.status.code
  }
}

@Suite("Request heads")
struct RequestHeadTests {
  @Test("a good head: method, path, query, headers (names case-insensitive), Content-Length, keep-alive")
  func goodHead() throws {
    let bytes = crlf(
      "POST /api/sessions/ab%20c/points?x=1&y=%C3%A9 HTTP/1.1\nHost: 127.0.0.1:8080\ncontent-length: 12\nX-Thing:  a value \t\nConnection: keep-alive\n\n{\"points\":[]}"
    )
    var scanner = HeadScanner(limit: 16_384)
    let found = try #require(try scanner.scan(bytes[...]))
    #expect(Array(bytes[found.end...]) == Array("{\"points\":[]}".utf8))
    let head = try RequestHead.parse(bytes[found.lines])
    #expect(head.method == "POST")
    #expect(head.target == "/api/sessions/ab%20c/points?x=1&y=%C3%A9")
    #expect(head.version == .http11)
    #expect(head.contentLength == 12)
    #expect(head.keepAlive)
    #expect(!head.expectsContinue)
    #expect(head.headers["Content-Length"] == "12")
    #expect(head.headers["HOST"] == "127.0.0.1:8080")
    #expect(head.headers["x-thing"] == "a value")
    // As the server builds its request: the path and query percent-decoded.
    let request = try HTTPRequest(head: head, body: [])
    #expect(request.path == "/api/sessions/ab c/points")
    #expect(request.parameter("y") == "é")
    #expect(request.parameter("x") == "1")
    #expect(request.parameter("z") == nil)
  }

  @Test("keep-alive: HTTP/1.1 unless Connection: close; HTTP/1.0 only with keep-alive")
  func keepAlive() throws {
    #expect(try head(crlf("GET / HTTP/1.1\nHost: x\n\n"))?.keepAlive == true)
    #expect(try head(crlf("GET / HTTP/1.1\nHost: x\nConnection: Close\n\n"))?.keepAlive == false)
    #expect(try head(crlf("GET / HTTP/1.1\nHost: x\nConnection: TE, close\n\n"))?.keepAlive == false)
    #expect(try head(crlf("GET / HTTP/1.0\n\n"))?.keepAlive == false)
    #expect(try head(crlf("GET / HTTP/1.0\nConnection: Keep-Alive\n\n"))?.keepAlive == true)
    #expect(try head(crlf("GET / HTTP/1.0\n\n"))?.version == .http10)
  }

  @Test("lenient where RFC 9112 allows: bare LF line ends, blank lines before the request line, repeated equal lengths")
  func lenient() throws {
    #expect(try head(Array("GET /a HTTP/1.1\nHost: x\n\n".utf8))?.target == "/a")
    let leading = crlf("\n\nGET /b HTTP/1.1\nHost: x\n\n")
    #expect(try head(leading)?.target == "/b")
    #expect(try head(crlf("POST / HTTP/1.1\nHost: x\nContent-Length: 5\nContent-Length: 5\n\n"))?.contentLength == 5)
    #expect(try head(crlf("POST / HTTP/1.1\nHost: x\nContent-Length: 5, 5\n\n"))?.contentLength == 5)
    #expect(
      try head(crlf("GET http://example.com:8080/api/blobs?x=1 HTTP/1.1\nHost: x\n\n"))?.target == "/api/blobs?x=1")
    #expect(try head(crlf("GET http://example.com HTTP/1.1\nHost: x\n\n"))?.target == "/")
    #expect(try head(crlf("OPTIONS * HTTP/1.1\nHost: x\n\n"))?.target == "*")
    #expect(
      try head(crlf("POST / HTTP/1.1\nHost: x\nExpect: 100-continue\nContent-Length: 3\n\n"))?.expectsContinue == true)
    #expect(
      try head(crlf("POST / HTTP/1.1\nHost: x\nContent-Length: 99999999999999999999999\n\n"))?.contentLength == .max)
  }

  @Test(
    "each malformed head gets its status",
    arguments: [
      ("GET / HTTP/2.0\nHost: x\n\n", 505),
      ("GET / HTTP/3.1\nHost: x\n\n", 505),
      ("GET / HTTP/1.1x\nHost: x\n\n", 400),
      ("GET / HTTX/1.1\nHost: x\n\n", 400),
      ("GET /\n\n", 400),
      ("GET  / HTTP/1.1\nHost: x\n\n", 400),
      ("GET / HTTP/1.1 \nHost: x\n\n", 400),
      (" GET / HTTP/1.1\nHost: x\n\n", 400),
      ("G(T / HTTP/1.1\nHost: x\n\n", 400),
      ("GET /a b HTTP/1.1\nHost: x\n\n", 400),
      ("GET api HTTP/1.1\nHost: x\n\n", 400),
      ("GET * HTTP/1.1\nHost: x\n\n", 400),
      ("hello there\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\n folded\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\n\tfolded\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nNoColon\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nBad Name: v\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nName : v\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\n: v\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nX: a\u{1}b\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nX: a\rb\n\n", 400),
      ("GET / HTTP/1.1\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nHost: y\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: abc\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: -1\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: 1.5\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: \n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: 5\nContent-Length: 6\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: 5, 6\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n", 411),
      ("POST / HTTP/1.1\nHost: x\nTransfer-Encoding: gzip, chunked\nContent-Length: 3\n\n", 411),
      ("POST / HTTP/1.1\nHost: x\nExpect: magic\n\n", 417),
    ])
  func malformed(text: String, status: Int) {
    #expect(refusal(crlf(text)) == status, "\(text.debugDescription)")
  }

  @Test("too many fields: 431")
  func tooManyFields() {
    let fields = (0..<101).map { "X-\($0): v\n" }.joined()
    #expect(refusal(crlf("GET / HTTP/1.1\nHost: x\n" + fields + "\n")) == 431)
    #expect(refusal(crlf("GET / HTTP/1.1\n" + fields + "\n"), maxFields: 200) == 400)  // no Host
    #expect(refusal(crlf("GET / HTTP/1.1\nHost: x\n" + (0..<99).map { "X-\($0): v\n" }.joined() + "\n")) == nil)
  }

  @Test("the size limit: a head of exactly the limit passes; past it, 414 in the target, 431 in the fields")
  func sizeLimit() throws {
    let small = crlf("GET / HTTP/1.1\nHost: x\n\n")
    #expect(try head(small, limit: small.count) != nil)
    #expect(refusal(small, limit: small.count - 1) == 431)
    let longTarget = Array("GET /".utf8) + [UInt8](repeating: 0x61, count: 2_000)
    #expect(refusal(longTarget, limit: 1_000) == 414)
    let longField = crlf("GET / HTTP/1.1\nHost: x\nX-Big: ") + [UInt8](repeating: 0x61, count: 2_000)
    #expect(refusal(longField, limit: 1_000) == 431)
    #expect(refusal([UInt8](repeating: 0x0A, count: 2_000), limit: 1_000) == 400)
    // Unfinished but within the limit: more bytes needed.
    #expect(try head(crlf("GET / HTTP/1.1\nHost: x\n")) == nil)
  }

  @Test("a request line that cannot be HTTP is refused at its first wrong byte, before the head ends")
  func earlyRefusal() {
    #expect(refusal([0x16, 0x03, 0x01, 0x02]) == 400)  // a TLS client hello
    #expect(refusal(Array("GET /a\u{0}".utf8)) == 400)
    #expect(refusal(Array("GET /a HTTP/1.1x".utf8)) == 400)
    #expect(refusal(Array("GET /a HTTP/2.0\r\n".utf8)) == 505)
    #expect(refusal(Array(String(repeating: "A", count: 40).utf8)) == 400)
    #expect(refusal(Array("GET /a HT".utf8)) == nil)
  }

  @Test("bytes arriving one at a time give the head that arriving at once gives")
  func piecewise() throws {
    let bytes = crlf("\nPOST /api/x?y=1 HTTP/1.1\nHost: x\nContent-Length: 2\n\nhi")
    var scanner = HeadScanner(limit: 16_384)
    var found: HeadScanner.Head?
    for count in 1...bytes.count where found == nil {
      found = try scanner.scan(bytes[..<count])
      #expect(scanner.scanned == count)
    }
    var whole = HeadScanner(limit: 16_384)
    #expect(found == (try whole.scan(bytes[...])))
    #expect(found?.end == bytes.count - 2)
  }

  @Test("random bytes never trap: either a head, more needed, or a refusal with a 4xx (505 for a version)")
  func randomBytes() async {
    let alphabet: [UInt8] =
      Array("GET POST / HTTP/1.1 Host: x Content-Length: 12 chunked close ,;:-".utf8) + [
        0x0D, 0x0A, 0x0A, 0x20, 0x09, 0x00, 0x7F, 0xFF, 0x31, 0x30,
      ]
    let anyByte = Gen.uint8().array(of: 0...300)
    let httpish = Gen<UInt8?>.element(of: alphabet).map { $0 ?? 0 }.array(of: 0...300)
    await propertyCheck(count: 3_000, input: Gen.oneOf(anyByte, httpish)) { bytes in
      var scanner = HeadScanner(limit: 200)
      do throws(RequestError) {
        if let found = try scanner.scan(bytes[...]) {
          _ = try RequestHead.parse(bytes[found.lines], maxFields: 10)
        }
      } catch {
        #expect((400..<500).contains(error.status.code) || error.status.code == 505, "\(error.message)")
      }
      // The parser alone, on the whole input.
      do throws(RequestError) {
        _ = try RequestHead.parse(bytes[...], maxFields: 10)
      } catch {
        #expect((400..<500).contains(error.status.code) || error.status.code == 505, "\(error.message)")
      }
    }
  }

  @Test("targets: the path percent-decoded with dot segments resolved; query parameters in order, decoded")
  func targets() throws {
    func decoded(_ target: String) throws -> (path: String, query: [String]) {
      let (path, query) = try HTTPRequest.decode(target: target)
      return (path, query.map { "\($0.name)=\($0.value)" })
    }
    #expect(try decoded("/").path == "/")
    #expect(try decoded("/a/./b/../c").path == "/a/c")
    #expect(try decoded("/../../a").path == "/a")
    #expect(try decoded("/..").path == "/")
    #expect(try decoded("/a/b/..").path == "/a/")
    #expect(try decoded("/a/.").path == "/a/")
    #expect(try decoded("/a//b").path == "/a//b")
    #expect(try decoded("/%41%c3%A9%2F").path == "/Aé/")
    #expect(try decoded("*").path == "*")
    let query = try decoded("/api/complete?a=1&b&c=x%3Dy&=z&&a=2+3&d=%C3%A9?").query
    #expect(query == ["a=1", "b=", "c=x=y", "=z", "a=2+3", "d=é?"])
    let request = try HTTPRequest(head: RequestHead.parse(crlf("GET /x?a=1&a=2 HTTP/1.1\nHost: h")[...]), body: [])
    #expect(request.parameter("a") == "1")
  }

  @Test("a target a URL may not be is refused with 400, naming the target")
  func badTargets() {
    for target in [
      "/a|b", "/{x}", "/a b", "/%", "/%4", "/%zz", "/%C3", "/a?x=%FF", "/a?%zz=1", "/a?x=<", "/\u{E9}", "/a#b",
    ] {
      #expect(throws: RequestError.self, "\(target)") { try HTTPRequest.decode(target: target) }
      do {
        _ = try HTTPRequest.decode(target: target)
      } catch {
        #expect(error.status == .badRequest)
        #expect(error.message.contains("not a valid URL path"), "\(error.message)")
      }
    }
  }

  @Test("any text percent-encoded into a path and a query parameter decodes back to itself")
  func percentEncodingRoundTrip() async {
    /// Every byte but letters and digits as %XX, in upper or lower case hex.
    func encoded(_ text: String, lowercase: Bool) -> String {
      text.utf8.map { byte -> String in
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: String(UnicodeScalar(byte))
        default: "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: !lowercase)
        }
      }.joined()
    }
    let beyondASCII = Gen.unicodeScalar(in: "\u{80}"..."\u{D7FF}").map { Character($0) }
    let text = Gen<Character>.oneOf(Gen.letterOrNumber, Gen.ascii, beyondASCII).string(of: 0...20)
    await propertyCheck(count: 2_000, input: text, text, Gen.bool) { name, value, lowercase in
      let target =
        "/" + encoded(value, lowercase: lowercase) + "?" + encoded(name, lowercase: lowercase) + "="
        + encoded(value, lowercase: !lowercase)
      do throws(RequestError) {
        let (path, query) = try HTTPRequest.decode(target: target)
        #expect(path == "/" + value)
        #expect(query.count == 1 && query[0].name == name && query[0].value == value, "\(target)")
      } catch {
        Issue.record("\(target): \(error.message)")
      }
    }
  }
}
