import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the built `swipedict` binary end to end, as a user would.
///
/// The child's standard output and error go to temporary files rather than pipes, so a child
/// that writes a lot to either cannot block on a full pipe while the runner waits for the
/// other (the runner used to read stdout to the end before stderr, and hung when a child
/// filled stderr). A run that takes longer than its time limit is killed and throws
/// ``TimedOut``, which fails the test.
package enum CLI {
  /// The `swipedict` executable built beside the test bundle.
  package static let executable: URL = {
    var candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
    candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    for directory in candidates {
      let url = directory.appendingPathComponent("swipedict")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    fatalError("swipedict executable not found near \(candidates)")
  }()

  /// The `swipedict-bench` executable built beside `swipedict`.
  package static let benchExecutable: URL = executable.deletingLastPathComponent().appendingPathComponent(
    "swipedict-bench")

  /// Runs `swipedict-bench` with `arguments` (the benchmarks' and stress tests' tool).
  package static func runBench(
    _ arguments: [String], stdin: String? = nil, timeLimit: Duration = .seconds(60)
  ) throws -> Result {
    try run(benchExecutable, arguments, stdin: stdin, timeLimit: timeLimit)
  }

  /// What a run printed and how it ended.
  package struct Result: Sendable {
    /// The exit status (or the signal number when killed by one).
    package var status: Int32
    /// Everything written to standard output.
    package var stdout: String
    /// Everything written to standard error.
    package var stderr: String
  }

  /// A run that did not end within its time limit; the child was killed.
  package struct TimedOut: Error, CustomStringConvertible {
    package var arguments: [String]
    package var limit: Duration
    package var stderr: String
    package var description: String {
      "swipedict \(arguments.joined(separator: " ")) did not end within \(limit); killed it. "
        + "stderr so far: \(stderr.suffix(500))"
    }
  }

  /// Runs `swipedict` with `arguments`.
  /// - Parameters:
  ///   - arguments: the arguments, without the program name.
  ///   - stdin: text for standard input (empty input when `nil`).
  ///   - timeLimit: how long the run may take before it is killed (60 s by default).
  /// - Returns: the status and the output.
  /// - Throws: ``TimedOut`` when the child was killed for taking too long; the errors of
  ///   starting a process or of the temporary files.
  package static func run(
    _ arguments: [String], stdin: String? = nil, timeLimit: Duration = .seconds(60), in directory: String? = nil
  ) throws -> Result {
    try run(executable, arguments, stdin: stdin, timeLimit: timeLimit, workingDirectory: directory)
  }

  /// Runs `swipedict` through `/bin/sh -c`, so that `script` can build arguments no Swift
  /// string holds (bytes that are not UTF-8): `"$0"` is the executable.
  package static func runShell(_ script: String, timeLimit: Duration = .seconds(60)) throws -> Result {
    try run(URL(fileURLWithPath: "/bin/sh"), ["-c", script, executable.path], stdin: nil, timeLimit: timeLimit)
  }

  /// Runs `swipedict` with `arguments` as a user without privileges, for whom what the file
  /// permissions say holds: as the running user when it is not root (whom permissions bind
  /// already), else as `nobody` (uid and gid 65534) through util-linux's `setpriv`. Files the
  /// run must read must be readable by others; directories it must not write, owned by root.
  /// - Returns: the result, or `nil` when the tests run as root and `setpriv` is missing.
  package static func runUnprivileged(_ arguments: [String], timeLimit: Duration = .seconds(60)) throws -> Result? {
    guard geteuid() == 0 else { return try run(arguments, timeLimit: timeLimit) }
    let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let setpriv else { return nil }
    return try run(
      URL(fileURLWithPath: setpriv),
      ["--reuid=65534", "--regid=65534", "--clear-groups", "--", executable.path] + arguments,
      stdin: nil, timeLimit: timeLimit)
  }

  /// Whether the tests run as root (who reads and writes whatever the permissions say).
  package static var isRoot: Bool { geteuid() == 0 }

  private static func run(
    _ program: URL, _ arguments: [String], stdin: String?, timeLimit: Duration, workingDirectory: String? = nil
  ) throws -> Result {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("swipedict-cli-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let inURL = directory.appendingPathComponent("stdin")
    let outURL = directory.appendingPathComponent("stdout")
    let errURL = directory.appendingPathComponent("stderr")
    try Data((stdin ?? "").utf8).write(to: inURL)
    for url in [outURL, errURL] { try Data().write(to: url) }
    let input = try FileHandle(forReadingFrom: inURL)
    let output = try FileHandle(forWritingTo: outURL)
    let error = try FileHandle(forWritingTo: errURL)
    defer {
      try? input.close()
      try? output.close()
      try? error.close()
    }

    let process = Process()
    process.executableURL = program
    process.arguments = arguments
    if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()

    let (seconds, attoseconds) = timeLimit.components
    let limit = Double(seconds) + Double(attoseconds) / 1e18
    if ended.wait(timeout: .now() + limit) == .timedOut {
      kill(process.processIdentifier, SIGKILL)
      _ = ended.wait(timeout: .now() + 10)
      throw TimedOut(
        arguments: arguments, limit: timeLimit,
        stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    }
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
  }
}

/// A scratch directory with a small word list and layout for the command-line tests
/// (``cliLayoutJSON``, and `hello`, `help`, `Hello`, `world`, `über`, `Über` and the
/// untypeable `42` in `words.tsv`), removed when the value is dropped.
package final class Workspace {
  /// The directory.
  package let path: String

  /// Creates the directory with `layout.json` and `words.tsv`.
  package init() throws {
    path = NSTemporaryDirectory() + "swipedict-cli-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try write("layout.json", cliLayoutJSON)
    try write(
      "words.tsv", "# a comment\nhello\t100\nhelp\t50\nHello\t20\nworld\t70\nüber\t5\nÜber\t3\n42\t9\n")
  }

  /// The path of `name` in the directory.
  package func file(_ name: String) -> String { "\(path)/\(name)" }

  /// Why building the workspace's blob failed.
  package struct BuildFailed: Error, CustomStringConvertible {
    package var result: CLI.Result
    package var description: String { "swipedict build failed: \(result.stderr)" }
  }

  /// Builds `words.swipedict` from the word list and layout, and returns its path.
  /// - Throws: ``BuildFailed`` when `swipedict build` does not exit 0.
  package func buildBlob() throws -> String {
    let blob = file("words.swipedict")
    let result = try CLI.run([
      "build", file("words.tsv"), "--layout", file("layout.json"), "-o", blob,
    ])
    guard result.status == 0 else { throw BuildFailed(result: result) }
    return blob
  }

  /// Writes `text` to `name` in the directory.
  package func write(_ name: String, _ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A temporary directory removed when the value is dropped at the end of a test.
package final class TemporaryDirectory {
  /// The directory.
  package let path: String

  /// Creates an empty directory; a failure is recorded as an issue of the running test.
  package init() {
    path = NSTemporaryDirectory() + "swipedict-test-\(UUID().uuidString)"
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      Issue.record("cannot create the temporary directory \(path): \(error)")
    }
  }

  /// Writes `text` to `name` in the directory and returns its path (a failure is recorded).
  @discardableResult
  package func write(_ name: String, _ text: String) -> String {
    write(name, Array(text.utf8))
  }

  /// Writes `bytes` to `name` in the directory and returns its path (a failure is recorded).
  @discardableResult
  package func write(_ name: String, _ bytes: [UInt8]) -> String {
    let file = "\(path)/\(name)"
    if !FileManager.default.createFile(atPath: file, contents: Data(bytes)) {
      Issue.record("cannot write \(file)")
    }
    return file
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}
