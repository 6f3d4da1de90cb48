import Foundation
import PropertyBased
import SwipeDictTools
import Testing

@testable import SwipeDictServer

/// The bytes of `text`, with `\n` made CRLF.
private func crlf(_ text: String) -> [UInt8] {
  Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
}

/// How long a test waits for an answer it expects (a loaded machine may keep it waiting; a
/// working server never takes this long).
private let answerTime = Duration.seconds(20)

/// The status the server answers `bytes` with on a new connection, or `nil` when it closes
/// the connection without an answer.
private func status(of bytes: [UInt8], port: UInt16) throws -> Int? {
  let client = LoopbackClient(port: port)
  try client.openConnection()
  try? client.write(raw: bytes)
  return try client.response(within: answerTime)?.status
}

/// The heads the server refuses and the ones it takes, sent to a running server: the parsing
/// is NIO's (llhttp), the limits and the rules on top of it the server's (`RequestFraming`,
/// `ConnectionGuard`).
@Suite("Request heads", .serialized)
struct RequestHeadTests {
  @Test("lenient where RFC 9112 allows: blank lines before the request line, HTTP/1.0 without Host, absolute form")
  func lenient() async throws {
    try await withServer { port in
      try await offPool { () throws -> Void in
        let taken = [
          crlf("\n\nGET /api/blobs HTTP/1.1\nHost: x\n\n"),
          crlf("GET /api/blobs HTTP/1.0\n\n"),
          crlf("GET http://example.com:8080/api/blobs HTTP/1.1\nHost: x\n\n"),
          crlf("POST /api/sessions HTTP/1.1\nHost: x\ncontent-length: 13\nX-Thing:  a value \t\n\n{\"blob\":\"en\"}"),
        ]
        for bytes in taken {
          let answer = try status(of: bytes, port: port)
          #expect(answer == 200 || answer == 201, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        // An absolute-form target with no path is the page.
        #expect(try status(of: crlf("GET http://example.com HTTP/1.1\nHost: x\n\n"), port: port) == 200)
        // Not lenient: bare LF line ends (which RFC 9112 §2.2 allows, llhttp does not).
        #expect(try status(of: Array("GET /api/blobs HTTP/1.1\nHost: x\n\n".utf8), port: port) == 400)
      }
    }
  }

  @Test(
    "each malformed head gets its status",
    arguments: [
      // llhttp takes HTTP/1.0 and HTTP/1.1 only: another version is not HTTP/1 text (400),
      // as are bare LF line ends and a Content-Length given twice, even if equal.
      ("GET / HTTP/2.0\nHost: x\n\n", 400),
      ("GET / HTTP/3.1\nHost: x\n\n", 400),
      ("GET / HTTP/1.1x\nHost: x\n\n", 400),
      ("GET / HTTX/1.1\nHost: x\n\n", 400),
      ("GET /\n\n", 400),
      (" GET / HTTP/1.1\nHost: x\n\n", 400),
      ("G(T / HTTP/1.1\nHost: x\n\n", 400),
      ("GET /a b HTTP/1.1\nHost: x\n\n", 400),
      ("GET api HTTP/1.1\nHost: x\n\n", 400),
      ("GET * HTTP/1.1\nHost: x\n\n", 400),
      ("hello there\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nNoColon\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nBad Name: v\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nName : v\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\n: v\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nX: a\u{1}b\n\n", 400),
      ("GET / HTTP/1.1\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nHost: y\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: abc\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: -1\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: 1.5\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: 5\nContent-Length: 6\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: 5\nContent-Length: 5\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: 5, 5\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\n folded\n\n", 400),
      ("GET / HTTP/1.1\nHost: x\nX: a\rb\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\nContent-Length: 3\n\n", 400),
      ("POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n", 411),
      ("POST / HTTP/1.1\nHost: x\nTransfer-Encoding: gzip, chunked\n\n", 411),
      ("POST / HTTP/1.1\nHost: x\nExpect: magic\n\n", 417),
      ("POST / HTTP/1.1\nHost: x\nContent-Length: 99999999999999999999999\n\n", 400),
    ])
  func malformed(text: String, status expected: Int) async throws {
    try await withServer { port in
      try await offPool { () throws -> Void in
        #expect(try status(of: crlf(text), port: port) == expected, "\(text.debugDescription)")
        // The server goes on.
        #expect(try LoopbackClient(port: port).request("GET", "/api/blobs").status == 200)
      }
    }
  }

  @Test("header fields: 100 are taken, 101 get 431")
  func tooManyFields() async throws {
    try await withServer { port in
      try await offPool { () throws -> Void in
        let fields = { (count: Int) in (0..<count).map { "X-\($0): v\n" }.joined() }
        #expect(try status(of: crlf("GET /api/blobs HTTP/1.1\nHost: x\n" + fields(99) + "\n"), port: port) == 200)
        #expect(try status(of: crlf("GET /api/blobs HTTP/1.1\nHost: x\n" + fields(100) + "\n"), port: port) == 431)
      }
    }
  }

  @Test("the size limit counts the whole head: exactly the limit passes; past it, 414 in the request line, 431 after")
  func sizeLimit() async throws {
    let head = crlf("GET /api/blobs HTTP/1.1\nHost: x\n\n")
    var limits = PlaygroundServer.Limits()
    limits.http.headBytes = head.count
    try await withServer(limits: limits) { port in
      try await offPool { () throws -> Void in
        #expect(try status(of: head, port: port) == 200)
        #expect(try status(of: crlf("GET /api/blobs HTTP/1.1\nHost: xy\n\n"), port: port) == 431)
        #expect(try status(of: Array("GET /".utf8) + [UInt8](repeating: 0x61, count: 2_000), port: port) == 414)
        #expect(try status(of: [UInt8](repeating: 0x0A, count: 2_000), port: port) == 400)
      }
    }
  }

  @Test("bytes that cannot be HTTP are refused at once, before the head ends")
  func earlyRefusal() async throws {
    try await withServer { port in
      try await offPool { () throws -> Void in
        for bytes in [[0x16, 0x03, 0x01, 0x02], Array("GET /a\u{0}".utf8), Array(String(repeating: "(", count: 40).utf8)] {
          let client = LoopbackClient(port: port)
          try client.openConnection()
          try client.write(raw: bytes)
          // No head end was sent: the answer cannot be the head time's 408.
          #expect(try client.response(within: answerTime)?.status == 400, "\(bytes)")
        }
      }
    }
  }

  @Test("random bytes never stop the server: a 4xx or 505, or no answer, and the next client is served")
  func randomBytes() async throws {
    var limits = PlaygroundServer.Limits()
    limits.http.headTime = .milliseconds(300)
    try await withServer(limits: limits) { port in
      let alphabet: [UInt8] =
        Array("GET POST / HTTP/1.1 Host: x Content-Length: 12 chunked close ,;:-".utf8)
        + [0x0D, 0x0A, 0x0A, 0x20, 0x09, 0x00, 0x7F, 0xFF, 0x31, 0x30]
      let anyByte = Gen.uint8().array(of: 1...300)
      let httpish = Gen<UInt8?>.element(of: alphabet).map { $0 ?? 0 }.array(of: 1...300)
      await propertyCheck(count: 100, input: Gen.oneOf(anyByte, httpish)) { bytes in
        // No answer (nil) when the connection is closed first, as at a head that never ends.
        if let answer = try? await offPool({ try status(of: bytes + [0x0D, 0x0A, 0x0D, 0x0A], port: port) }) {
          #expect((200..<500).contains(answer) || answer == 505, "\(bytes): \(answer)")
        }
      }
      try await offPool { () throws -> Void in #expect(try LoopbackClient(port: port).request("GET", "/api/blobs").status == 200) }
    }
  }

  @Test("targets: the path percent-decoded with dot segments resolved; query parameters in order, decoded")
  func targets() throws {
    func decoded(_ target: String) throws -> (path: String, query: [String]) {
      let (path, query) = try APIRequest.decode(target: target)
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
    #expect(try decoded("http://example.com:8080/api/blobs?x=1").path == "/api/blobs")
    #expect(try decoded("http://example.com?x=1").query == ["x=1"])
    #expect(try decoded("HTTP://example.com").path == "/")
    let query = try decoded("/api/complete?a=1&b&c=x%3Dy&=z&&a=2+3&d=%C3%A9?").query
    #expect(query == ["a=1", "b=", "c=x=y", "=z", "a=2+3", "d=é?"])
    let request = try APIRequest(method: "GET", target: "/x?a=1&a=2", body: [])
    #expect(request.parameter("a") == "1")
    #expect(request.parameter("b") == nil)
  }

  @Test("a target a URL may not be is refused with 400, naming the target")
  func badTargets() {
    for target in ["/a|b", "/{x}", "/a b", "/%", "/%4", "/%zz", "/%C3", "/a?x=%FF", "/a?%zz=1", "/a?x=<", "/\u{E9}", "/a#b", "*", "api"] {
      #expect(throws: RequestError.self, "\(target)") { try APIRequest.decode(target: target) }
      do {
        _ = try APIRequest.decode(target: target)
      } catch {
        #expect(error.status == .badRequest)
        #expect(error.message.contains("not a valid URL path") || error.message.contains("must be a path"), "\(error.message)")
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
      let target = "/" + encoded(value, lowercase: lowercase) + "?" + encoded(name, lowercase: lowercase) + "=" + encoded(value, lowercase: !lowercase)
      do throws(RequestError) {
        let (path, query) = try APIRequest.decode(target: target)
        #expect(path == "/" + value)
        #expect(query.count == 1 && query[0].name == name && query[0].value == value, "\(target)")
      } catch {
        Issue.record("\(target): \(error.message)")
      }
    }
  }
}
