import ArgumentParser
import Foundation
import SwipeDict
import SwipeDictCommandLine
import SwipeDictSystem
import SwipeDictTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The crash test of the user dictionary: `swipedict user FILE stress` runs a plan of random
// operations in a writer process it kills with SIGKILL every few milliseconds (and starts
// again until every operation is acknowledged), while a reader process refreshes
// continuously and checks every state it sees against the plan. Hidden: a test and
// `make user-stress` run it.

/// The operations of a stress run, generated from a seed: the parent, the writer and the
/// reader each make the same plan. Every operation changes the state and writes exactly
/// one record (no eviction: the vocabulary is far below the capacity), so after `k`
/// operations the file's sequence number is `k` and its entries are the model's after `k`.
struct UserStressPlan {
  enum Operation {
    case add(String, uses: Int?)
    case learn(String)
    case block(String)
    case remove(String)
  }

  let operations: [Operation]

  init(count: Int, seed: UInt64, vocabulary: Int) {
    var generator = SeededGenerator(seed: seed)
    let words = (0..<vocabulary).map { i in
      switch i % 4 {
      case 0: return "wörd\(i)"
      case 1: return "Word\(i)"
      case 2: return "w\(i)x"
      default: return "naïve-\(i)"
      }
    }
    var model = UserStressModel()
    var operations: [Operation] = []
    operations.reserveCapacity(count)
    for _ in 0..<count {
      let word = words[Int.random(in: 0..<words.count, using: &generator)]
      let roll = Int.random(in: 0..<100, using: &generator)
      let old = model.table[word]
      var operation: Operation
      switch roll {
      case 0..<45: operation = .learn(word)
      case 45..<65:
        operation = .add(word, uses: roll % 2 == 0 ? Int.random(in: 0...1000, using: &generator) : nil)
      case 65..<75: operation = .block(word)
      default: operation = .remove(word)
      }
      // Only operations that write: no learning of a blocked word, no removing of nothing.
      if case .learn = operation, old?.kind == .blocked { operation = .add(word, uses: 1) }
      if case .remove = operation, old == nil { operation = .learn(word) }
      model.apply(operation)
      operations.append(operation)
    }
    self.operations = operations
  }
}

/// The state the plan's first `applied` operations give, by the store's rules.
struct UserStressModel {
  var table: [String: UserEntry] = [:]
  var applied = 0

  mutating func apply(_ operation: UserStressPlan.Operation) {
    applied += 1
    let sequence = UInt64(applied)
    switch operation {
    case .add(let word, let uses):
      table[word] = UserEntry(word: word, kind: .added, uses: uses ?? table[word]?.uses ?? 0, lastUse: sequence)
    case .learn(let word):
      let old = table[word]
      table[word] = UserEntry(word: word, kind: old?.kind ?? .learned, uses: (old?.uses ?? 0) + 1, lastUse: sequence)
    case .block(let word):
      table[word] = UserEntry(word: word, kind: .blocked, uses: table[word]?.uses ?? 0, lastUse: sequence)
    case .remove(let word):
      table[word] = nil
    }
  }

  /// The first entry where a snapshot differs from the model, described, or `nil`.
  func difference(from words: UserWords) -> String? {
    if words.sequence != UInt64(applied) {
      return "sequence \(words.sequence), expected \(applied)"
    }
    if words.count != table.count {
      return "after \(applied) operations: \(words.count) entries, expected \(table.count)"
    }
    for (word, entry) in table where words.entry(for: word) != entry {
      return "after \(applied) operations: \(words.entry(for: word).map { "\($0)" } ?? "no entry"), expected \(entry)"
    }
    return nil
  }
}

/// The plan's options, shared by the three processes.
struct UserStressOptions: ParsableArguments {
  @Option(parsing: .unconditional, help: "How many operations.")
  var ops: Int = 100_000

  @Option(parsing: .unconditional, help: "The seed of the plan.")
  var seed: UInt64 = 1

  @Option(parsing: .unconditional, help: "How many different words the plan uses.")
  var vocabulary: Int = 400

  func validate() throws {
    try checkRange("--ops", ops, in: 1...100_000_000)
    try checkRange("--vocabulary", vocabulary, in: 1...10_000)
  }

  var plan: UserStressPlan { UserStressPlan(count: ops, seed: seed, vocabulary: vocabulary) }

  var arguments: [String] { ["--ops", "\(ops)", "--seed", "\(seed)", "--vocabulary", "\(vocabulary)"] }
}

/// Writes one message (a tag byte and a little-endian `UInt64`) to standard output in one
/// `write`: 9 bytes, less than PIPE_BUF, so a reader of the pipe gets all or nothing.
private func sendMessage(_ tag: UInt8, _ value: Int) {
  var bytes = [tag]
  withUnsafeBytes(of: UInt64(value).littleEndian) { bytes.append(contentsOf: $0) }
  try? FileDescriptor.standardOutput.write(all: bytes)
}

private func now() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

struct UserStressCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stress",
    abstract: "Crash-test a user dictionary: kill a writer every few ms while a reader checks.",
    discussion: """
      Creates FILE (which must not exist) and runs --ops random add/learn/block/remove \
      operations in a writer process (this program, `user FILE stress-writer`), which \
      acknowledges each operation through a pipe after the write returned. The writer is \
      killed with SIGKILL a random 1 to --kill-ms milliseconds after it starts, and started \
      again (it resumes after the last operation in the file) until every operation is \
      acknowledged. Meanwhile a reader process (`user FILE stress-reader`) refreshes \
      continuously and checks every state it sees: each record whole with its checksum \
      right, and the entries those of a prefix of the plan (checked at every new sequence \
      number and every compacted file). Each writer run checks the whole state it starts \
      from, and reports the torn tail its first write cut off. At the end every \
      acknowledged operation must be in the file. Exits 1 when a write was lost or a read \
      was torn.

      Examples:
        swipedict user /tmp/stress.words stress --ops 100000
        swipedict user /tmp/stress.words stress --ops 3000 --kill-ms 2 --seed 7
      """,
    shouldDisplay: false)

  @ParentCommand var user: UserCommand
  @OptionGroup var options: UserStressOptions

  @Option(
    name: .customLong("kill-ms"), parsing: .unconditional,
    help: "Kill the writer at most this many ms after it started.")
  var killMilliseconds: Double = 5

  @Option(parsing: .unconditional, help: "Give up after this many seconds.")
  var timeLimit: Double = 600

  func validate() throws {
    try checkRange("--kill-ms", killMilliseconds, in: 1...10_000)
    try checkRange("--time-limit", timeLimit, in: 1...86_400)
  }

  func run() throws {
    guard !FileManager.default.fileExists(atPath: user.file) else {
      throw failure("\(user.file): exists; the stress test creates its file\n  hint: give a path that does not exist")
    }
    do { _ = try UserDictionary(path: user.file) } catch { throw failure(error) }
    let started = now()
    let plan = options.plan
    let total = options.ops
    var generator = SeededGenerator(seed: options.seed, stream: 1)

    let reader = try Child(
      ["user", user.file, "stress-reader"] + options.arguments + ["--time-limit", "\(timeLimit)"])
    var known = 0  // operations known to be in the file
    var acknowledged = 0
    var keptUnacknowledged = 0
    var lost = 0
    var runs = 0
    var kills = 0
    var tornTails = 0
    var tornBytes = 0
    var problems: [String] = []
    while known < total {
      guard now() - started < timeLimit else {
        problems.append("gave up after \(timeLimit) s with \(known) of \(total) operations done")
        break
      }
      let writer = try Child(["user", user.file, "stress-writer"] + options.arguments)
      runs += 1
      var startedAt: Int?
      var deadline = Double.infinity
      func handle(_ tag: UInt8, _ value: Int) {
        switch tag {
        case UInt8(ascii: "S"):
          startedAt = value
          if value < known {
            lost += known - value
            problems.append("writer run \(runs) found \(value) operations in the file, \(known) were done")
          } else if value == known + 1 {
            keptUnacknowledged += 1
          } else if value > known + 1 {
            problems.append("writer run \(runs) found \(value) operations in the file, only \(known) were done")
          }
          known = value
          deadline = now() + Double.random(in: 0.001...(killMilliseconds / 1000), using: &generator)
        case UInt8(ascii: "A"):
          if value != known { problems.append("acknowledgement of operation \(value), expected \(known)") }
          known = value + 1
          acknowledged += 1
        case UInt8(ascii: "T"):
          tornTails += 1
          tornBytes += value
        case UInt8(ascii: "X"):
          lost += 1
          problems.append("writer run \(runs) found a state that is not the plan's first \(value) operations")
        default:
          problems.append("unknown message \(tag) from the writer")
        }
      }
      var killed = false
      while !writer.output.ended {
        if startedAt != nil, known < total, now() >= deadline {
          writer.killNow()
          kills += 1
          killed = true
          break
        }
        let wait = startedAt == nil ? 1_000 : max(0, min(1, (deadline - now()) * 1000))
        writer.output.waitForBytes(milliseconds: Int32(wait.rounded(.up)))
        while let (tag, value) = writer.output.nextMessage() { handle(tag, value) }
      }
      writer.output.drain()
      while let (tag, value) = writer.output.nextMessage() { handle(tag, value) }
      let status = writer.wait()
      if !killed && status != 0 {
        problems.append("writer run \(runs) failed (exit status \(status)); see its error above")
        break
      }
      if problems.count > 20 { break }
    }
    let writing = now() - started

    // Every operation acknowledged must be in the file: it must be the plan's final state.
    var finalCheck: String?
    do {
      let store = try UserDictionary(path: user.file)
      var model = UserStressModel()
      for operation in plan.operations.prefix(known) { model.apply(operation) }
      finalCheck = model.difference(from: store.words)
      if finalCheck != nil { lost += 1 }
    } catch {
      finalCheck = "\(error)"
    }

    if !problems.isEmpty || finalCheck != nil { reader.killNow() }
    reader.output.drain(timeLimit: max(30, timeLimit - (now() - started)))
    let readerStatus = reader.wait()
    let report = String(decoding: reader.output.buffer, as: UTF8.self)
    let fields = Dictionary(
      uniqueKeysWithValues: report.split(separator: " ").compactMap { pair -> (String, String)? in
        let parts = pair.split(separator: "=", maxSplits: 1)
        return parts.count == 2
          ? (String(parts[0]), String(parts[1]).trimmingCharacters(in: .whitespacesAndNewlines)) : nil
      })
    let torn = Int(fields["torn"] ?? "") ?? -1
    let elapsed = now() - started
    print(
      """
      operations     \(grouped(total)) (seed \(options.seed), \(options.vocabulary) words)
      writer runs    \(grouped(runs)), killed \(grouped(kills)) times (SIGKILL 1 to \(fixedDecimal(killMilliseconds, places: 1)) ms after each start)
      acknowledged   \(grouped(acknowledged)); \(grouped(keptUnacknowledged)) more in the file, written when the writer was killed before acknowledging
      lost           \(lost) acknowledged operations (each writer run checks the whole state it starts from)
      torn tails     \(grouped(tornTails)) cut off by the next writer run (\(grouped(tornBytes)) bytes: records a kill left half written)
      reader         \(grouped(Int(fields["refreshes"] ?? "") ?? 0)) refreshes, \(grouped(Int(fields["states"] ?? "") ?? 0)) states checked (\(grouped(Int(fields["replacedChecked"] ?? "") ?? 0)) of them on a compacted file), \(grouped(Int(fields["replaced"] ?? "") ?? 0)) compacted files picked up, \(grouped(Int(fields["incomplete"] ?? "") ?? 0)) writes seen in flight
      torn reads     \(torn < 0 ? "unknown (the reader did not report)" : "\(torn)")
      time           \(fixedDecimal(writing, places: 1)) s writing, \(fixedDecimal(elapsed, places: 1)) s in all
      """)
    if let finalCheck { problems.append("the file at the end: \(finalCheck)") }
    if readerStatus != 0 {
      problems.append(
        "the reader exited with status \(readerStatus): \(fields["problem"]?.replacingOccurrences(of: "_", with: " ") ?? report)"
      )
    }
    if torn != 0 && readerStatus == 0 { problems.append("the reader reported \(torn) torn reads") }
    if !problems.isEmpty {
      throw failure("stress test failed:\n  " + problems.prefix(10).joined(separator: "\n  "))
    }
  }
}

struct UserStressWriterCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stress-writer",
    abstract: "The writer of `user FILE stress` (acknowledgements on standard output).",
    shouldDisplay: false)

  @ParentCommand var user: UserCommand
  @OptionGroup var options: UserStressOptions

  func run() throws {
    let plan = options.plan
    do {
      let store = try UserDictionary(path: user.file)
      let start = Int(store.words.sequence)
      guard start <= options.ops else { throw failure("\(user.file): more operations than the plan has") }
      // The whole state, not only the sequence: what the previous runs left must be the
      // plan's first `start` operations, entry by entry.
      var model = UserStressModel()
      for operation in plan.operations.prefix(start) { model.apply(operation) }
      if let difference = model.difference(from: store.words) {
        sendMessage(UInt8(ascii: "X"), start)
        throw failure("\(user.file): the file at the writer's start: \(difference)")
      }
      sendMessage(UInt8(ascii: "S"), start)
      for index in start..<options.ops {
        switch plan.operations[index] {
        case .add(let word, let uses): try store.add(word, uses: uses)
        case .learn(let word): try store.learn(word)
        case .block(let word): try store.block(word)
        case .remove(let word): try store.remove(word)
        }
        if index == start, let damage = store.damage, damage.wasCut {
          // The first write cut off the record a killed writer left half written.
          sendMessage(UInt8(ascii: "T"), damage.byteCount)
        }
        sendMessage(UInt8(ascii: "A"), index)
      }
    } catch let error as UserDictionaryError {
      throw failure(error)
    }
  }
}

struct UserStressReaderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stress-reader",
    abstract: "The reader of `user FILE stress` (a report on standard output).",
    shouldDisplay: false)

  @ParentCommand var user: UserCommand
  @OptionGroup var options: UserStressOptions

  @Option(parsing: .unconditional, help: "Give up after this many seconds.")
  var timeLimit: Double = 600

  func run() throws {
    let plan = options.plan
    let started = now()
    var refreshes = 0
    var states = 0
    var torn = 0
    var incomplete = 0
    var replaced = 0
    var problem: String?
    var model = UserStressModel()
    var seen: UInt64 = 0
    var inode = fileInode(user.file)
    let store: UserDictionary
    do { store = try UserDictionary(path: user.file) } catch { throw failure(error) }
    var replacedChecked = 0
    while true {
      let before = store.words.sequence
      var changed = false
      do {
        changed = try store.refresh()
      } catch {
        torn += 1
        problem = problem ?? "refresh failed: \(error)"
      }
      refreshes += 1
      if let damage = store.damage {
        if damage.isIncomplete {
          incomplete += 1
        } else {
          torn += 1
          problem = problem ?? "damage: \(damage)"
        }
      }
      let current = fileInode(user.file)
      var wasReplaced = false
      if current != inode {
        replaced += 1
        inode = current
        wasReplaced = true
      }
      let words = store.words
      // Every state that may differ: a new sequence, and a re-read file (a compacted file
      // has the sequence of the log it replaced, and must hold the same entries).
      if words.sequence != seen || states == 0 || changed || wasReplaced || words.sequence != before {
        if wasReplaced || (changed && words.sequence == before) { replacedChecked += 1 }
        if words.sequence < seen || words.sequence > UInt64(options.ops) {
          torn += 1
          problem = problem ?? "sequence \(words.sequence) after \(seen)"
        } else {
          while model.applied < Int(words.sequence) { model.apply(plan.operations[model.applied]) }
          if let difference = model.difference(from: words) {
            torn += 1
            problem = problem ?? difference
          }
        }
        seen = words.sequence
        states += 1
      }
      if seen == UInt64(options.ops) || now() - started > timeLimit { break }
    }
    var line =
      "refreshes=\(refreshes) states=\(states) torn=\(torn) incomplete=\(incomplete) replaced=\(replaced) "
      + "replacedChecked=\(replacedChecked)"
    if let problem { line += " problem=" + problem.replacingOccurrences(of: " ", with: "_") }
    print(line)
    if seen != UInt64(options.ops) { throw failure("the reader gave up after \(timeLimit) s at sequence \(seen)") }
    if torn > 0 { throw ExitCode.failure }
  }
}

private func fileInode(_ path: String) -> UInt64 {
  (try? FileSystem.status(of: path)).map { UInt64(truncatingIfNeeded: $0.inode.rawValue) } ?? 0
}

/// A `swipedict` child process with its standard output on a pipe.
private final class Child {
  let process = Process()
  let output: PipeReader

  init(_ arguments: [String]) throws {
    let pipe = Pipe()
    for fd in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
      FileDescriptor(rawValue: fd).setCloseOnExec()
    }
    process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = arguments
    process.standardOutput = pipe
    do { try process.run() } catch {
      throw failure("cannot start \(process.executableURL?.path ?? "swipedict"): \(error)")
    }
    try? pipe.fileHandleForWriting.close()
    output = PipeReader(handle: pipe.fileHandleForReading)
  }

  /// Sends SIGKILL.
  func killNow() { _ = kill(process.processIdentifier, SIGKILL) }

  /// Waits for the end; the exit status, or 128 + the signal.
  func wait() -> Int32 {
    process.waitUntilExit()
    return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
  }
}

/// Reads a child's messages (or report) from a pipe without blocking for long.
private final class PipeReader {
  let handle: FileHandle
  private(set) var buffer: [UInt8] = []
  private var consumed = 0
  private(set) var ended = false

  init(handle: FileHandle) { self.handle = handle }

  /// Waits up to `milliseconds` for bytes and reads what is there.
  func waitForBytes(milliseconds: Int32) {
    var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, milliseconds)
    if ready > 0 { readAvailable() }
  }

  private func readAvailable() {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let pipe = FileDescriptor(rawValue: handle.fileDescriptor)
    let n = chunk.withUnsafeMutableBytes { (try? pipe.readSome(into: $0)) ?? 0 }
    if n > 0 {
      buffer.append(contentsOf: chunk[0..<n])
    } else {
      ended = true
    }
  }

  /// Reads to the end of the pipe (or for at most `timeLimit` seconds).
  func drain(timeLimit: Double = 60) {
    let deadline = now() + timeLimit
    while !ended && now() < deadline { waitForBytes(milliseconds: 100) }
  }

  /// The next whole 9-byte message, if one has arrived.
  func nextMessage() -> (UInt8, Int)? {
    guard buffer.count - consumed >= 9 else { return nil }
    var value: UInt64 = 0
    for i in 0..<8 { value |= UInt64(buffer[consumed + 1 + i]) << (8 * UInt64(i)) }
    defer { consumed += 9 }
    return (buffer[consumed], Int(value))
  }
}
