import Foundation
import SwipeDictTestSupport
import Testing

@testable import SwipeDict

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The user dictionary's store: writes, reads by other stores, damaged files, eviction,
/// word lists.
@Suite("User dictionary")
struct UserDictionaryTests {
  let directory = TemporaryDirectory()
  var path: String { directory.path + "/user.words" }

  // MARK: Round trips

  @Test func writesSurviveReopeningAndReachOtherStores() throws {
    let store = try UserDictionary(path: path)
    let other = try UserDictionary(path: path)
    #expect(store.words.isEmpty)
    try store.add("Zoë", uses: 3)
    try store.learn("gonna")
    try store.learn("gonna")
    try store.block("ducking")
    try store.add("Anna")
    #expect(try store.remove("Anna")?.kind == .added)
    #expect(try store.remove("Anna") == nil)
    let expected = [
      UserEntry(word: "Zoë", kind: .added, uses: 3, lastUse: 1),
      UserEntry(word: "gonna", kind: .learned, uses: 2, lastUse: 3),
      UserEntry(word: "ducking", kind: .blocked, uses: 0, lastUse: 4),
    ]
    #expect(store.words.entries == expected)
    #expect(store.words.sequence == 6)
    #expect(try other.refresh())
    #expect(other.words.entries == expected)
    #expect(try other.refresh() == false)
    #expect(try UserDictionary(path: path).words.entries == expected)
    #expect(other.words.isBlocked("ducking"))
    #expect(!other.words.isBlocked("gonna"))
    // Lookups do not care about normalization.
    #expect(other.words.entry(for: "Zo\u{65}\u{308}")?.uses == 3)
  }

  @Test(
    "unlearn takes one use back: a learned word with none left goes, an added one stays, a blocked one is untouched")
  func unlearnTakesAUseBack() throws {
    let store = try UserDictionary(path: path)
    try store.learn("gonna")
    try store.learn("gonna")
    #expect(try store.unlearn("gonna")?.uses == 1)
    #expect(try store.unlearn("gonna") == nil)
    #expect(store.words.entry(for: "gonna") == nil)
    try store.add("Zoë", uses: 1)
    #expect(try store.unlearn("Zoë") == UserEntry(word: "Zoë", kind: .added, uses: 0, lastUse: 6))
    #expect(try store.unlearn("Zoë")?.uses == 0)
    try store.block("ducking")
    let sequence = store.words.sequence
    #expect(try store.unlearn("ducking")?.kind == .blocked)
    #expect(try store.unlearn("nothing") == nil)
    #expect(store.words.sequence == sequence)  // nothing written
    // The same rules in memory (a keyboard whose store cannot be written).
    var words = UserWords()
    words.apply(.learn, to: "gonna")
    #expect(words.apply(.unlearn, to: "gonna") == nil && words.isEmpty)
    words.apply(.block, to: "ducking")
    #expect(words.apply(.learn, to: "ducking")?.kind == .blocked)
    #expect(try UserDictionary(path: path).words.entries.map(\.word) == ["Zoë", "ducking"])
  }

  @Test func learnAddBlockAndRemoveFollowTheirRules() throws {
    let store = try UserDictionary(path: path)
    #expect(try store.learn("hey") == UserEntry(word: "hey", kind: .learned, uses: 1, lastUse: 1))
    #expect(try store.add("hey").uses == 1)  // add keeps the count, makes it added
    #expect(try store.learn("hey") == UserEntry(word: "hey", kind: .added, uses: 2, lastUse: 3))
    #expect(try store.block("hey") == UserEntry(word: "hey", kind: .blocked, uses: 2, lastUse: 4))
    // A blocked word is not learned, and nothing is written.
    #expect(try store.learn("hey") == UserEntry(word: "hey", kind: .blocked, uses: 2, lastUse: 4))
    #expect(store.words.sequence == 4)
    #expect(try store.add("hey", uses: 9) == UserEntry(word: "hey", kind: .added, uses: 9, lastUse: 5))
    #expect(throws: UserDictionaryError.self) { try store.add("hey", uses: -1) }
    #expect(throws: UserDictionaryError.self) { try store.add("hey", uses: Int(UInt32.max) + 1) }
  }

  /// Random operations against an in-memory model, through two stores on one file, with
  /// reopening and compaction in between.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func randomOperationsMatchAModel(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    let words = (0..<60).map { ["w\($0)", "Wö\($0)", "ﬁx\($0)", "e\u{301}\($0)"][$0 % 4] }
    var model: [String: UserEntry] = [:]
    var sequence: UInt64 = 0
    var a = try UserDictionary(path: path, options: .init(capacity: 40))
    let b = try UserDictionary(path: path)
    /// A write that creates an entry in a full store first evicts the least recently used
    /// learned entry (else any), with a sequence number of its own.
    func makeRoom(for word: String) {
      guard model[word] == nil, model.count >= 40 else { return }
      let others = model.values.filter { $0.word != word }
      let learned = others.filter { $0.kind == .learned }
      let victim = (learned.isEmpty ? others : learned).min { $0.lastUse < $1.lastUse }!
      model[victim.word] = nil
      sequence += 1
    }
    for step in 0..<1_500 {
      let store = Bool.random(using: &generator) ? a : b
      let word = Normalization.nfc(words.randomElement(using: &generator)!)
      let old = model[word]
      switch Int.random(in: 0..<10, using: &generator) {
      case 0..<4:
        let entry = try store.learn(word)
        if old?.kind != .blocked {
          makeRoom(for: word)
          sequence += 1
          model[word] = UserEntry(
            word: word, kind: old?.kind ?? .learned, uses: (old?.uses ?? 0) + 1, lastUse: sequence)
        }
        #expect(entry == model[word])
      case 4..<6:
        let uses: Int? = Bool.random(using: &generator) ? Int.random(in: 0...99, using: &generator) : nil
        try store.add(word, uses: uses)
        makeRoom(for: word)
        sequence += 1
        model[word] = UserEntry(word: word, kind: .added, uses: uses ?? old?.uses ?? 0, lastUse: sequence)
      case 6:
        try store.block(word)
        makeRoom(for: word)
        sequence += 1
        model[word] = UserEntry(word: word, kind: .blocked, uses: old?.uses ?? 0, lastUse: sequence)
      case 7, 8:
        #expect(try store.remove(word) == old)
        if old != nil {
          sequence += 1
          model[word] = nil
        }
      default:
        if step % 3 == 0 { try store.compact() } else { a = try UserDictionary(path: path) }
      }
      try b.refresh()
      try a.refresh()
      #expect(a.words.entries == model.values.sorted { $0.lastUse < $1.lastUse }, "step \(step)")
      #expect(a.words.sequence == sequence)
      #expect(b.words == a.words)
    }
    #expect(try UserDictionary(path: path).words == a.words)
  }

  // MARK: Words

  @Test func invalidWordsAreRefusedSayingWhy() throws {
    let store = try UserDictionary(path: path)
    let cases: [(String, String)] = [
      ("", "empty"), ("a b", "a space"), ("a\tb", "a TAB"), ("a\nb", "a newline"),
      ("a\u{0}b", "control character U+0000"), ("a\u{7F}", "control character U+007F"),
      ("a\u{3000}b", "U+3000"), ("#tag", "starts with #"),
      (String(repeating: "x", count: 65), "65 characters, over the limit of 64"),
    ]
    for (word, reason) in cases {
      do {
        try store.add(word)
        Issue.record("\(word.debugDescription) was accepted")
      } catch {
        #expect(error.reason == .invalidWord)
        #expect(error.message.contains(reason), "\(error)")
        #expect(!error.hint.isEmpty)
      }
    }
    #expect(store.words.isEmpty)
    #expect(try store.add(String(repeating: "é", count: 64)).word.unicodeScalars.count == 64)
    // NFC: 64 decomposed é are 128 scalars, 64 after composing.
    #expect(try store.add(String(repeating: "e\u{301}", count: 64)).word == String(repeating: "é", count: 64))
    #expect(store.words.count == 1)
    #expect(try store.add("a#b").word == "a#b")
  }

  // MARK: Damaged files

  /// A file with three records, and the byte offsets where each record starts.
  private func threeRecords() throws -> (bytes: [UInt8], starts: [Int]) {
    let store = try UserDictionary(path: path)
    var starts: [Int] = []
    for word in ["one", "two", "three"] {
      starts.append(try fileBytes().count)
      try store.learn(word)
    }
    return (try fileBytes(), starts)
  }

  private func fileBytes() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
  private func write(_ bytes: [UInt8]) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

  @Test func aTornTailIsIgnoredByReadersAndCutByTheNextWrite() throws {
    let (bytes, starts) = try threeRecords()
    for cut in (starts[2] + 1)..<bytes.count {
      try write(Array(bytes[..<cut]))
      let store = try UserDictionary(path: path)
      #expect(store.words.entries.map(\.word) == ["one", "two"])
      #expect(store.damage?.isIncomplete == true)
      #expect(store.damage?.offset == starts[2])
      #expect(store.damage?.wasCut == false)
      try store.learn("four")
      #expect(store.damage?.wasCut == true)
      let again = try UserDictionary(path: path)
      #expect(again.words.entries.map(\.word) == ["one", "two", "four"])
      #expect(again.damage == nil)
    }
  }

  @Test func aDamagedRecordIsSkippedAndTheRecordsAfterItAreKept() throws {
    let (bytes, starts) = try threeRecords()
    for offset in starts[1]..<starts[2] {
      for bit in [0x01, 0x40] as [UInt8] {
        var damaged = bytes
        damaged[offset] ^= bit
        try write(damaged)
        let store = try UserDictionary(path: path)
        #expect(store.words.entries.map(\.word) == ["one", "three"], "byte \(offset)")
        #expect(store.damage == nil)
        #expect(store.damagedRecords.count == 1)
        #expect(store.damagedRecords.first?.offset == starts[1])
        #expect(store.damagedRecords.first?.byteCount == starts[2] - starts[1], "byte \(offset) bit \(bit)")
        #expect(store.damagedRecords.first?.wasSkipped == true)
        #expect(store.damagedRecords.first?.message.contains("damaged") == true)
        // A writer keeps the records after it.
        try store.learn("four")
        #expect(try UserDictionary(path: path).words.entries.map(\.word) == ["one", "three", "four"])
      }
    }
  }

  @Test func aDamagedLastRecordIsIgnoredByReadersAndSkippedByWriters() throws {
    let (bytes, starts) = try threeRecords()
    var damaged = bytes
    damaged[bytes.count - 1] ^= 1  // the last record's word: its checksum is wrong
    try write(damaged)
    let store = try UserDictionary(path: path)
    #expect(store.words.entries.map(\.word) == ["one", "two"])
    #expect(store.damage?.offset == starts[2])
    #expect(store.damage?.isIncomplete == false)
    try store.learn("four")
    #expect(store.damage == nil)
    #expect(store.damagedRecords.map(\.offset) == [starts[2]])
    let reader = try UserDictionary(path: path)
    #expect(reader.words.entries.map(\.word) == ["one", "two", "four"])
    #expect(reader.damagedRecords.map(\.offset) == [starts[2]])
    #expect(try fileBytes().count == bytes.count + 8 + 14 + 4)  // nothing cut
  }

  @Test func recordsOfANewerMinorVersionAreSkippedAndKept() throws {
    let (bytes, _) = try threeRecords()
    let newer =
      record(type: 9, second: 0, uses: 0, sequence: 4, word: Array("future".utf8))
      + record(type: 1, second: 7, uses: 1, sequence: 5, word: Array("kind7".utf8))
    try write(bytes + newer + record(type: 1, second: 2, uses: 1, sequence: 6, word: Array("after".utf8)))
    let store = try UserDictionary(path: path)
    #expect(store.words.entries.map(\.word) == ["one", "two", "three", "after"])
    #expect(store.damage == nil && store.damagedRecords.isEmpty)
    try store.learn("four")
    #expect(try fileBytes()[bytes.count..<(bytes.count + newer.count)] == newer[...])
    #expect(try UserDictionary(path: path).words.entries.map(\.word) == ["one", "two", "three", "after", "four"])
  }

  @Test func largeFilesAreReadInChunksAcrossDamage() throws {
    let store = try UserDictionary(path: path, options: .init(compactsAutomatically: false))
    try store.importList(UserWordList(items: (0..<20_000).map { .init(word: "word\($0)", kind: .learned, uses: 1) }))
    var bytes = try fileBytes()
    #expect(bytes.count > 2 * 256 * 1024)
    // Damage the record across the first chunk boundary, and a run of bytes further on.
    bytes[256 * 1024 - 3] ^= 0xFF
    for i in 300_000..<300_100 { bytes[i] = 0 }
    try write(bytes)
    let reader = try UserDictionary(path: path)
    #expect(reader.damage == nil)
    #expect(reader.damagedRecords.count == 2)
    #expect(reader.words.count > 20_000 - 8)
    #expect(reader.words.count < 20_000)
  }

  @Test func capacitiesOutOfRangeAreRefused() throws {
    for capacity in [0, -1, UserDictionary.maximumCapacity + 1] {
      #expect(throws: UserDictionaryError.self) {
        _ = try UserDictionary(path: path, options: .init(capacity: capacity))
      }
    }
    #expect(!FileManager.default.fileExists(atPath: path))
    var bytes = [UInt8](
      try Data(
        contentsOf: URL(
          fileURLWithPath: {
            _ = try? UserDictionary(path: path)
            return path
          }())))
    bytes[12...15] = [0xFF, 0xFF, 0xFF, 0xFF]  // a capacity of 4,294,967,295, checksum set right
    var crc = CRC32CForTests()
    crc.update(Array(bytes[0..<28]))
    withUnsafeBytes(of: crc.value.littleEndian) { bytes.replaceSubrange(28..<32, with: $0) }
    try write(bytes)
    do {
      _ = try UserDictionary(path: path)
      Issue.record("opened a file of capacity 4,294,967,295")
    } catch {
      #expect(error.reason == .damagedHeader && error.message.contains("capacity 4294967295"), "\(error)")
      #expect(error.hint.contains("mv \(path) \(path).damaged"))
    }
  }

  @Test func aFileLargerThanAnyStoreIsRefusedWithoutReadingIt() throws {
    _ = try UserDictionary(path: path)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: 2 << 30)  // sparse: 2 GiB of nothing
    try handle.close()
    do {
      _ = try UserDictionary(path: path)
      Issue.record("opened a 2 GiB file")
    } catch {
      #expect(error.reason == .tooLarge)
      #expect(error.file == path)
      #expect(
        error.message.contains(
          "2147483648 bytes, more than a user dictionary of 20000 entries ever takes (22371104 bytes)"), "\(error)")
      #expect(error.hint.contains("import"))
    }
  }

  /// A record as a store writes it, for words no store writes.
  private func record(type: UInt8, second: UInt8, uses: UInt32, sequence: UInt64, word: [UInt8]) -> [UInt8] {
    var payload = [type, second]
    withUnsafeBytes(of: uses.littleEndian) { payload.append(contentsOf: $0) }
    withUnsafeBytes(of: sequence.littleEndian) { payload.append(contentsOf: $0) }
    payload += word
    var length: [UInt8] = []
    withUnsafeBytes(of: UInt32(payload.count).littleEndian) { length.append(contentsOf: $0) }
    var crc = CRC32CForTests()
    crc.update(length)
    crc.update(payload)
    var checksum: [UInt8] = []
    withUnsafeBytes(of: crc.value.littleEndian) { checksum.append(contentsOf: $0) }
    return length + checksum + payload
  }

  @Test func recordsWithWordsNoStoreWritesAreDamagedNotLoaded() throws {
    let (bytes, _) = try threeRecords()
    for word in ["a\tb", "a\nb", "a\u{0}b", "#!blocked", "e\u{301}", "two words", ""] {
      try write(
        bytes + record(type: 1, second: 1, uses: 1, sequence: 4, word: Array(word.utf8))
          + record(type: 1, second: 1, uses: 2, sequence: 5, word: Array("fine".utf8)))
      let store = try UserDictionary(path: path)
      #expect(store.words.entry(for: word) == nil, "\(word.debugDescription)")
      #expect(store.words.entries.map(\.word) == ["one", "two", "three", "fine"])
      let damage = store.damagedRecords.first
      #expect(damage?.offset == bytes.count)
      #expect(damage?.message.contains("damaged") == true, "\(String(describing: damage))")
      #expect(try UserWordList(parsing: Array(store.exportList().utf8), file: "x").items.count == store.words.count)
    }
  }

  @Test func filesThatAreNotUserDictionariesAreRefused() throws {
    let (bytes, _) = try threeRecords()
    func expectFailure(_ bytes: [UInt8], _ reason: UserDictionaryError.Reason, _ text: String) throws {
      try write(bytes)
      do {
        _ = try UserDictionary(path: path)
        Issue.record("opened a file with \(reason)")
      } catch {
        #expect(error.reason == reason)
        #expect(error.file == path)
        #expect(error.description.contains(text), "\(error)")
        #expect(error.description.contains("hint: "))
      }
    }
    try expectFailure(Array("hello\t3\n".utf8), .notAUserDictionary, "not a user dictionary (it starts with 68 65")
    var newer = bytes
    newer[8] = 2
    try expectFailure(newer, .unsupportedVersion, "newer version of the format (2")
    var header = bytes
    header[13] ^= 1
    try expectFailure(header, .damagedHeader, "checksum")
    try expectFailure(Array(bytes[..<20]), .damagedHeader, "cut short")
    // An empty file is a new store.
    try write([])
    let store = try UserDictionary(path: path)
    #expect(store.words.isEmpty)
    try store.learn("fine")
    #expect(try UserDictionary(path: path).words.count == 1)
    // A directory that does not exist.
    do {
      _ = try UserDictionary(path: directory.path + "/missing/user.words")
      Issue.record("created a file in a missing directory")
    } catch {
      #expect(error.reason == .io)
      // The user's path, in plain words (not the temporary file's).
      #expect(error.file == directory.path + "/missing/user.words")
      #expect(error.message == "cannot create the file: the directory \(directory.path)/missing does not exist")
    }
  }

  @Test func linksFIFOsAndDirectoriesAreRefusedSayingWhat() throws {
    _ = try UserDictionary(path: path)
    let link = directory.path + "/link.words"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    let fifo = directory.path + "/fifo.words"
    #expect(mkfifo(fifo, 0o644) == 0)
    let cases = [
      (link, "symbolic link"), (fifo, "not a regular file (a FIFO)"),
      (directory.path, "not a regular file (a directory)"),
    ]
    for (target, message) in cases {
      do {
        _ = try UserDictionary(path: target)
        Issue.record("opened \(target)")
      } catch {
        #expect(error.file == target && error.message.contains(message), "\(error)")
      }
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == path)
  }

  @Test("a hard link is refused, saying why; salvage still reads it")
  func hardLinksAreRefused() throws {
    try UserDictionary(path: path).add("Zoë")
    let other = directory.path + "/other.words"
    #expect(link(path, other) == 0)
    for target in [path, other] {
      #expect {
        try UserDictionary(path: target)
      } throws: { error in
        let error = error as? UserDictionaryError
        return error?.file == target && error?.message.contains("has 2 hard links") == true
          && error?.hint.contains("cp \(target)") == true
      }
    }
    #expect(try UserDictionary.salvage(path: other).entries.map(\.word) == ["Zoë"])
    // A store's own temporary file, left by a creator killed between link and unlink, is no
    // other path: the store opens, and removes it as stale.
    unlink(other)
    let leftover = directory.path + "/.user.words.new-AbC123"
    #expect(link(path, leftover) == 0)
    #expect(try UserDictionary(path: path).words.entries.map(\.word) == ["Zoë"])
    #expect(!FileManager.default.fileExists(atPath: leftover))
  }

  @Test("a sequence number at 2^64 - 1, in the header or a record: writes fail with a way out, never trap")
  func exhaustedSequenceNumbersAreAnError() throws {
    func expectRefused(_ store: UserDictionary) {
      for write in [{ _ = try store.add("new") }, { _ = try store.learn("x") }, { _ = try store.block("y") }] {
        #expect {
          try write()
        } throws: { error in
          let error = error as? UserDictionaryError
          return error?.message.contains("sequence numbers are used up") == true
            && error?.hint.contains("salvage") == true
        }
      }
      #expect(throws: UserDictionaryError.self) {
        try store.importList(UserWordList(parsing: Array("a\t1\n".utf8), file: "list"))
      }
    }
    // The header's base sequence.
    try write(UserLogFormat.encodeHeader(UserLogFormat.Header(capacity: 100, baseSequence: .max)))
    expectRefused(try UserDictionary(path: path))
    // A record's.
    var bytes = UserLogFormat.encodeHeader(UserLogFormat.Header(capacity: 100, baseSequence: 0))
    UserLogFormat.encode(.set(UserEntry(word: "old", kind: .learned, uses: 1, lastUse: .max)), into: &bytes)
    try write(bytes)
    let store = try UserDictionary(path: path)
    #expect(store.words.entries.map(\.word) == ["old"])
    expectRefused(store)
    #expect(throws: UserDictionaryError.self) { try store.remove("old") }
    #expect(try UserDictionary.salvage(path: path).entries.map(\.word) == ["old"])
  }

  @Test func aStoreThatDoesNotCreateItsFileFailsOnAMissingOne() throws {
    #expect(throws: UserDictionaryError.self) {
      _ = try UserDictionary(path: path, options: .init(createsIfMissing: false))
    }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func salvageReadsTheRecordsPastADamagedHeader() throws {
    let (bytes, starts) = try threeRecords()
    var damaged = bytes
    damaged[3] ^= 1  // the magic
    damaged[starts[1] + 12] ^= 1  // and the second record
    try write(damaged)
    #expect(throws: UserDictionaryError.self) { _ = try UserDictionary(path: path) }
    let words = try UserDictionary.salvage(path: path)
    #expect(words.entries.map(\.word) == ["one", "three"])
    #expect(words.sequence == 3)
  }

  // MARK: Size

  @Test func theLeastRecentlyUsedLearnedWordsAreEvictedAt20000() throws {
    let store = try UserDictionary(path: path)
    #expect(store.capacity == 20_000)
    var items = (0..<19_990).map { UserWordList.Item(word: "l\($0)", kind: .learned, uses: 1) }
    items.insert(contentsOf: (0..<10).map { .init(word: "a\($0)", kind: .added, uses: 0) }, at: 0)
    try store.importList(UserWordList(items: items))
    #expect(store.words.count == 20_000)
    try store.learn("l0")  // now the most recent
    try store.learn("new1")
    try store.learn("new2")
    let words = try UserDictionary(path: path).words
    #expect(words.count == 20_000)
    #expect(words.entry(for: "new1") != nil && words.entry(for: "l0") != nil)
    #expect(words.entry(for: "l1") == nil && words.entry(for: "l2") == nil)
    #expect(words.entry(for: "a0") != nil)  // older, but added
    // Importing beyond the capacity keeps the end of the list.
    let summary = try store.importList(
      UserWordList(items: (0..<50).map { .init(word: "x\($0)", kind: .learned, uses: 2) }))
    #expect(summary.imported == 50 && summary.evicted == 50)
    #expect(store.words.count == 20_000)
  }

  @Test func addedAndBlockedWordsAreEvictedWhenNothingIsLearned() throws {
    let store = try UserDictionary(path: path, options: .init(capacity: 3))
    try store.block("b1")
    try store.add("a1")
    try store.add("a2")
    try store.add("a3")
    #expect(store.words.entries.map(\.word) == ["a1", "a2", "a3"])
    // Another store on the file keeps the file's capacity, whatever its options say.
    let other = try UserDictionary(path: path, options: .init(capacity: 100))
    #expect(other.capacity == 3)
    try other.learn("l1")
    #expect(other.words.entries.map(\.word) == ["a2", "a3", "l1"])
    try other.add("a4")
    #expect(other.words.entries.map(\.word) == ["a2", "a3", "a4"])
  }

  @Test func theLogIsCompactedAsItGrows() throws {
    let store = try UserDictionary(path: path)
    let reader = try UserDictionary(path: path)
    var largest = 0
    for i in 0..<6_000 {
      try store.learn("w\(i % 20)")
      largest = max(largest, try fileBytes().count)
      if i % 500 == 0 { try reader.refresh() }
    }
    #expect(largest < 70_000)
    try reader.refresh()
    #expect(reader.words.count == 20)
    #expect(reader.words.entry(for: "w0")?.uses == 300)
    #expect(reader.words.sequence == 6_000)
    try store.compact()
    #expect(try fileBytes().count == 32 + 20 * (8 + 14 + 2) + 10 * 1)
    #expect(try UserDictionary(path: path).words == reader.words)
    // No temporary files are left beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["user.words"])
  }

  @Test func aFailedCompactionDoesNotFailTheWriteBeforeIt() throws {
    let store = try UserDictionary(path: path)
    store.failsCompactionsForTesting = true
    var writes = 0
    while store.lastCompactionError == nil {
      try store.learn("w\(writes % 10)")  // the write that crosses the threshold returns
      writes += 1
    }
    #expect(writes > 2_000)
    #expect(try UserDictionary(path: path).words.sequence == UInt64(writes))  // it landed
    // Not tried again at every write, and thrown when asked for.
    #expect(throws: UserDictionaryError.self) { try store.compactIfNeeded() }
    store.failsCompactionsForTesting = false
    try store.learn("w0")
    #expect(store.lastCompactionError != nil)
    #expect(try store.compactIfNeeded())
    #expect(store.lastCompactionError == nil)
    #expect(try store.compactIfNeeded() == false)
    #expect(try fileBytes().count == 32 + 10 * (8 + 14 + 2))
    #expect(try UserDictionary(path: path).words.sequence == UInt64(writes + 1))
  }

  @Test func theLogNeverGrowsPastItsBound() throws {
    let limit = UserDictionary.maximumFileSize(capacity: 2)
    #expect(limit == 32 + 2 * (2 * 2 * 278 + 65_536))
    #expect(UserDictionary.maximumFileSize(capacity: 20_000) == 22_371_104)
    let store = try UserDictionary(path: path, options: .init(capacity: 2, compactsAutomatically: false))
    store.failsCompactionsForTesting = true
    var writes = 0
    var failure: UserDictionaryError?
    while failure == nil && writes < 20_000 {
      do { try store.learn("w\(writes % 2)") } catch { failure = error }
      writes += 1
      #expect(try fileBytes().count <= limit)
    }
    #expect(failure?.message.contains("bound of \(limit) bytes") == true, "\(String(describing: failure))")
    #expect(try UserDictionary(path: path).words.sequence == UInt64(writes - 1))  // nothing written
    // Without compactsAutomatically, a write at the bound compacts.
    store.failsCompactionsForTesting = false
    try store.learn("w0")
    #expect(try fileBytes().count == 32 + 3 * (8 + 14 + 2))  // compacted, then the write
  }

  @Test func compactionWritesAUniqueTemporaryFileAndNeverFollowsALink() throws {
    let store = try UserDictionary(path: path)
    try store.learn("one")
    // A link where the old fixed temporary name was, and stale files of killed writers.
    let victim = directory.path + "/victim.txt"
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/.user.words.compacting", withDestinationPath: victim)
    for stale in [".user.words.compacting-AbC123", ".user.words.new-x1Y2z3"] {
      try Data([1, 2, 3]).write(to: URL(fileURLWithPath: directory.path + "/" + stale))
    }
    let keep = [".user.words.compacting", ".other.words.new-AbC123", ".user.words.new-toolong1", "victim.txt"]
    for name in keep.dropFirst().dropLast() { try Data().write(to: URL(fileURLWithPath: directory.path + "/" + name)) }
    try store.compact()
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    #expect(try UserDictionary(path: path).words.entries.map(\.word) == ["one"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == (keep + ["user.words"]).sorted())
    // Opening for writing removes them too (a writer killed while creating the file).
    try Data([1]).write(to: URL(fileURLWithPath: directory.path + "/.user.words.new-QwErTy"))
    _ = try UserDictionary(path: path)
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/.user.words.new-QwErTy"))
  }

  // MARK: Several writers

  @Test func storesOnSeveralThreadsDoNotLoseWrites() throws {
    let path = self.path
    _ = try UserDictionary(path: path)
    DispatchQueue.concurrentPerform(iterations: 3) { thread in
      do {
        let store = try UserDictionary(path: path)
        for i in 0..<300 {
          try store.learn("shared")
          try store.learn("t\(thread)-\(i % 7)")
          if i % 100 == 99 { try store.compact() }
        }
      } catch {
        Issue.record("\(error)")
      }
    }
    let words = try UserDictionary(path: path).words
    #expect(words.entry(for: "shared")?.uses == 900)
    #expect(words.count == 1 + 3 * 7)
    #expect(words.sequence == 1_800)
  }

  /// A write at the size bound compacts and appends to the new file before any other
  /// store can write to it (the new file is locked before it is renamed in).
  @Test func writesAtTheSizeBoundOnSeveralThreadsDoNotLoseWrites() throws {
    let path = self.path
    _ = try UserDictionary(path: path, options: .init(capacity: 2))
    DispatchQueue.concurrentPerform(iterations: 3) { thread in
      do {
        let store = try UserDictionary(path: path, options: .init(compactsAutomatically: false))
        for _ in 0..<4_000 { try store.learn("shared") }
      } catch {
        Issue.record("\(error)")
      }
    }
    let words = try UserDictionary(path: path).words
    #expect(words.entry(for: "shared")?.uses == 12_000)
    #expect(words.sequence == 12_000)
  }

  // MARK: Word lists

  @Test func importValidatesEveryItemBeforeWritingAny() throws {
    let store = try UserDictionary(path: path)
    try store.add("kept")
    let bad: [(UserWordList.Item, String)] = [
      (.init(word: "", kind: .added, uses: 1), "it is empty"),
      (.init(word: "tab\tword", kind: .added, uses: 1), "a TAB"),
      (.init(word: "#!blocked", kind: .learned, uses: 1), "starts with #"),
      (.init(word: "neg", kind: .added, uses: -5), "-5 is not a use count"),
      (.init(word: "big", kind: .added, uses: 1 << 40), "\(1 << 40) is not a use count"),
    ]
    for (item, message) in bad {
      do {
        try store.importList(UserWordList(items: [.init(word: "fine", kind: .added, uses: 1), item]), replacing: true)
        Issue.record("imported \(item)")
      } catch {
        #expect(error.message.hasPrefix("item 2 of the list: ") && error.message.contains(message), "\(error)")
      }
    }
    #expect(try UserDictionary(path: path).words.entries.map(\.word) == ["kept"])
    // Items are normalized as add does: NFC, and the largest count is the same everywhere.
    try store.importList(UserWordList(items: [.init(word: "e\u{301}", kind: .added, uses: UserEntry.maxUses)]))
    #expect(store.words.entries.last?.word.unicodeScalars.count == 1)
    #expect(try UserDictionary(path: path).words == store.words)
    #expect(try store.learn("é").uses == UserEntry.maxUses)
  }

  @Test func exportAndImportGiveTheSameEntriesInTheSameOrder() throws {
    let store = try UserDictionary(path: path)
    try store.learn("gonna")
    try store.add("Zoë", uses: 3)
    try store.block("ducking")
    try store.learn("wanna")
    try store.add("Anna")
    let text = store.exportList()
    #expect(
      text.hasSuffix(
        "#!learned\ngonna\t1\n#!added\nZoë\t3\n#!blocked\tducking\n#!learned\nwanna\t1\n#!added\nAnna\t0\n"))
    let list = try UserWordList(parsing: Array(text.utf8), file: "x.tsv")
    let copy = try UserDictionary(path: directory.path + "/copy.words")
    try copy.learn("other")
    try copy.importList(list, replacing: true)
    #expect(
      copy.words.entries.map { [$0.word, "\($0.kind)", "\($0.uses)"] }
        == store.words.entries.map { [$0.word, "\($0.kind)", "\($0.uses)"] })
    #expect(copy.exportList() == text)
  }

  @Test func importReadsPlainListsAndItsMarkers() throws {
    let text =
      "\u{FEFF}# comment\r\nAnna\t3\r\nBen 2\nCarl\n\n  \n#!learned\ngonna\t2.5\n#!blocked  darn\n# #!blocked not\n"
    let list = try UserWordList(parsing: Array(text.utf8), file: "l.tsv")
    #expect(
      list.items == [
        .init(word: "Anna", kind: .added, uses: 3), .init(word: "Ben", kind: .added, uses: 2),
        .init(word: "Carl", kind: .added, uses: 0), .init(word: "gonna", kind: .learned, uses: 3),
        .init(word: "darn", kind: .blocked, uses: 0),
      ])
  }

  @Test func importErrorsNameTheLineAndWhatToDo() throws {
    let cases: [(String, Int, String)] = [
      ("ok\t1\na b c\n", 2, "3 columns"),
      ("ok\t1\nword\tmany\n", 2, "\"many\" is not a use count"),
      ("word\t-1\n", 1, "is not a use count"),
      ("word\t99999999999\n", 1, "is not a use count"),
      ("#!blocked\n", 1, "#!blocked needs one word"),
      ("#!frozen\n", 1, "unknown marker"),
      ("\n\n" + String(repeating: "y", count: 70) + "\t1\n", 3, "over the limit of 64"),
    ]
    for (text, line, message) in cases {
      do {
        _ = try UserWordList(parsing: Array(text.utf8), file: "bad.tsv")
        Issue.record("accepted \(text.debugDescription)")
      } catch {
        #expect(error.file == "bad.tsv")
        #expect(error.line == line, "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description.hasPrefix("bad.tsv:\(line): "))
      }
    }
    do {
      _ = try UserWordList(parsing: [0x61, 0xFF, 0x0A], file: "bin.tsv")
      Issue.record("accepted invalid UTF-8")
    } catch {
      #expect(error.message.contains("not valid UTF-8") && error.line == 1)
    }
  }
}

/// CRC-32C (Castagnoli), bit by bit: the records' checksum, written out independently of
/// the store's.
struct CRC32CForTests {
  private var crc: UInt32 = 0xFFFF_FFFF
  mutating func update(_ bytes: [UInt8]) {
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    }
  }
  var value: UInt32 { crc ^ 0xFFFF_FFFF }
}
