import Foundation
import SwipeDictTestSupport
import Testing

@Suite("swipedict serve", .serialized)
struct ServeTests {
  let workspace: Workspace
  let blob: String

  init() throws {
    workspace = try Workspace()
    blob = try workspace.buildBlob()
  }

  @Test("serve prints its loopback address, answers there, and ends on SIGTERM")
  func servesUntilTerminated() throws {
    let out = workspace.file("serve.out")
    let err = workspace.file("serve.err")
    for file in [out, err] { _ = FileManager.default.createFile(atPath: file, contents: nil) }
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["serve", blob, "--port", "0", "--record", workspace.file("rec.jsonl")]
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    var address = ""
    for _ in 0..<300 where address.isEmpty {
      Thread.sleep(forTimeInterval: 0.05)
      address = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    }
    let match = try #require(address.firstMatch(of: /^http:\/\/127\.0\.0\.1:(\d+)\/\n$/), "stdout: \(address)")
    let port = try #require(UInt16(match.1))
    let blobs = try LoopbackHTTP.get(port: port, path: "/api/blobs")
    #expect(blobs.contains(#""name":"words""#))
    #expect(blobs.contains(#""recording":true"#))
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    #expect(FileManager.default.fileExists(atPath: workspace.file("rec.jsonl")))
  }

  @Test("serve refuses a bad port, a damaged blob and two blobs of one name; --help has examples")
  func refusals() throws {
    let port = try CLI.run(["serve", blob, "--port", "70000"])
    #expect(port.status == 64)
    #expect(port.stderr.contains("--port"))
    try workspace.write("bad.swipedict", "not a blob")
    let damaged = try CLI.run(["serve", workspace.file("bad.swipedict"), "--port", "0"])
    #expect(damaged.status == 1)
    #expect(damaged.stderr.contains("bad.swipedict"))
    let twice = try CLI.run(["serve", blob, blob, "--port", "0"])
    #expect(twice.status == 64)
    #expect(twice.stderr.contains("two blobs"))
    let help = try CLI.run(["serve", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("swipedict serve build/en.swipedict"))
    #expect(help.stdout.contains("--record"))
  }
}

/// One GET over a fresh loopback connection (URLSession-free, so the test needs no
/// FoundationNetworking).
enum LoopbackHTTP {
  static func get(port: UInt16, path: String) throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    try #require(connected == 0)
    let request = Array("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    var response: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n <= 0 { break }
      response += chunk[..<n]
    }
    return String(decoding: response, as: UTF8.self)
  }
}
