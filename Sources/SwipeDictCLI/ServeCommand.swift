import ArgumentParser
import Foundation
import SwipeDict
import SwipeDictCommandLine
import SwipeDictServer

struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the playground: swipe on a blob's layout in the browser and watch the decoder.",
    discussion: """
      Starts a local web server and prints its address (http://HOST:PORT/) on standard \
      output once it listens; it runs until interrupted (Ctrl-C, SIGTERM). The page draws \
      each blob's layout, streams a swipe point by point to a decoding session as a \
      keyboard runs it, and shows the reduced points, the start filters' candidates, the top \
      words with the wait, each word's perfect path, the filters' funnel and the decoder's \
      explanation of any word; completion and correction as you type. Everything is served \
      by the binary, nothing is fetched from elsewhere. docs/serve.md describes the JSON API.

      Each BLOB is a language the page can choose, named after its file without the \
      extension (build/en.swipedict → en); each is verified when it is opened.

      The server listens on 127.0.0.1 unless --host names another address: the API runs \
      the decoder for anyone who can reach it. --port 0 picks a free port.

      --record FILE appends each swipe the page records, with the word meant, to FILE as a \
      swipe JSON Lines line (created when missing); `swipedict decode --swipes FILE` reads \
      it back.

      Examples:
        swipedict serve build/en.swipedict
        swipedict serve build/en.swipedict build/de.swipedict --port 8000
        swipedict serve build/en.swipedict --record my-swipes.jsonl
        swipedict serve build/en.swipedict --port 0 --host ::1
      """)

  @Argument(help: ArgumentHelp("The dictionary blobs (.swipedict), one per language.", valueName: "blob"))
  var blobs: [String]

  @Option(name: .long, parsing: .unconditional, help: "The port to listen on (0…65535; 0 picks a free one).")
  var port: Int = 8080

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The address to listen on (IPv4, IPv6, or localhost); anything but a loopback address opens the decoder to the network.",
      valueName: "address"))
  var host: String = "127.0.0.1"

  @Option(
    name: .long,
    help: ArgumentHelp("Append recorded swipes to this swipe JSON Lines file.", valueName: "file"))
  var record: String?

  func validate() throws {
    guard !blobs.isEmpty else { throw ValidationError("give at least one blob") }
    try checkRange("--port", port, in: 0...65535)
    guard !host.isEmpty else { throw ValidationError("--host must be an address, not empty") }
    guard Self.isAddress(address) else {
      throw ValidationError(
        "--host \(host): not an IPv4 or IPv6 address (a name other than localhost is not looked up); "
          + "give one such as 127.0.0.1, ::1 or 0.0.0.0")
    }
    let names = blobs.map(languageName(ofBlob:))
    if let twice = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
      throw ValidationError("two blobs are named \"\(twice)\" (a blob's name is its file name without the extension)")
    }
  }

  func run() async throws {
    // SIGINT and SIGTERM end the server at once, from the start: set before the address is
    // printed, since whoever reads it may signal right away. A plain handler, not a dispatch
    // signal source: on Linux the main thread, parked in libdispatch's signal loop with every
    // signal unblocked, takes a process's signals before a source's signalfd sees them, and
    // a server whose address was just read sometimes never stopped. `_exit` is safe in a
    // handler and loses nothing: the address is written unbuffered and `--record` appends
    // whole lines with write(2).
    for number in [SIGINT, SIGTERM] {
      signal(number) { _ in _exit(0) }
    }
    var loaded: [PlaygroundServer.Blob] = []
    for path in blobs {
      do {
        loaded.append(
          .init(name: languageName(ofBlob: path), dictionary: try SwipeDictionary(contentsOf: path, verify: true)))
      } catch {
        throw failure(error, file: path)
      }
    }
    let server: PlaygroundServer
    do {
      server = try PlaygroundServer(blobs: loaded, recordPath: record, blobPaths: blobs)
    } catch {
      throw failure("\(error)")
    }
    let bound: UInt16
    do {
      bound = try await server.start(host: address, port: UInt16(port))
    } catch {
      throw failure("cannot listen on \(host) port \(port): \(error)\n  hint: pick another --port (0 picks a free one)")
    }
    if !Self.isLoopback(address) {
      printError("warning: listening on \(host): anyone who can reach it can use the decoder")
    }
    let shown = address.contains(":") ? "[\(address)]" : address
    FileHandle.standardOutput.write(Data("http://\(shown):\(bound)/\n".utf8))
    do {
      try await server.wait()
    } catch {
      throw failure("the server stopped: \(error)")
    }
  }

  private static func isLoopback(_ host: String) -> Bool {
    host == "::1" || host.hasPrefix("127.")
  }

  /// The address to bind: `--host`, with `localhost` as 127.0.0.1.
  private var address: String { host.lowercased() == "localhost" ? "127.0.0.1" : host }

  /// Whether `text` is a numeric IPv4 or IPv6 address (`inet_pton`).
  private static func isAddress(_ text: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
  }
}
