/// A user's own words, stored in one file that several processes read and write: words the
/// user added, words learned from use, words the user blocked, and use counts.
///
/// The file is an append-only log of checksummed records (``UserLogFormat``): each write
/// appends one record with one `pwrite`, under an advisory lock (`flock`) that serializes
/// writers in any number of processes (the containing app and the keyboard extension).
/// Readers take no lock: ``refresh()`` reads only the bytes appended since the last read,
/// and re-reads the file when a compaction replaced it. A process killed at any instant
/// loses at most the write it was making: readers stop before a half-written record, and
/// the next writer cuts it off.
///
/// ```swift
/// let store = try UserDictionary(path: groupFolder + "/user.words")
/// try store.learn("gonna")          // the user typed it: one more use
/// try store.add("Zoë")              // the user added a name
/// try store.block("ducking")        // never suggest it
/// try store.refresh()               // pick up what the other process wrote
/// let words = store.words           // a snapshot for the queries, any thread
/// ```
///
/// The store is bounded: when a write would make more than ``capacity`` entries (20,000 by
/// default), the least recently used *learned* entry is evicted first; only when none is
/// learned, the least recently used added or blocked one (what the user chose is kept
/// longer than what was picked up). The log is compacted (rewritten to a temporary file
/// and renamed over) when it grows past twice its live size plus 64 KiB, by the write that
/// crosses that line (inline: about 14 ms at 20,000 entries), or earlier by
/// ``compactIfNeeded()`` off the typing path. A failed compaction never fails the write
/// before it (``lastCompactionError``), and the file never grows past
/// ``maximumFileSize(capacity:)``.
///
/// Durability: a write that returned is in the file system's cache and survives the
/// process being killed; to survive a power loss too, set
/// ``Options/synchronizesEachWrite`` (an `fsync` per write; see docs/user-dictionary.md
/// for its cost).
///
/// Not `Sendable`: one store per thread or actor (each with its own file descriptor and
/// lock); share the ``UserWords`` snapshots instead.
public final class UserDictionary {
  /// The capacity of a new file: 20,000 entries.
  public static let defaultCapacity = 20_000

  /// The largest capacity a file may have: 1,000,000 entries.
  public static let maximumCapacity = 1_000_000

  /// The largest file a store of `capacity` entries writes: twice the largest log
  /// automatic compaction lets through (twice the largest live size, 278 bytes per entry,
  /// plus 64 KiB). A write that would go past it compacts first, whatever the options; a
  /// reader refuses a larger file. 22,371,104 bytes at 20,000 entries.
  public static func maximumFileSize(capacity: Int) -> Int {
    UserLogFormat.headerSize + 2
      * (2 * capacity * UserLogFormat.recordSize(wordBytes: UserLogFormat.maxWordBytes) + 65_536)
  }

  /// How a store opens and writes its file.
  public struct Options: Sendable, Hashable {
    /// The most entries a *new* file keeps (an existing file keeps its own; see
    /// ``UserDictionary/capacity``). From 1 to ``UserDictionary/maximumCapacity``; the
    /// store's initializer throws otherwise.
    public var capacity: Int
    /// Flush every write to the storage device before it returns (`fsync`; `F_FULLFSYNC`
    /// on Apple systems), so it survives a power loss, not only the process being killed.
    public var synchronizesEachWrite: Bool
    /// Compact the log when it grows past twice its live size plus 64 KiB.
    public var compactsAutomatically: Bool
    /// Create the file when it is missing; without it a missing file is an error (for
    /// code that only reads, and must not leave an empty store behind a wrong path). A file
    /// that cannot be created because its directory is read-only for this process (an App
    /// Group container in a keyboard without Full Access) is no error: the store opens
    /// read-only and empty, and ``UserDictionary/refresh()`` reads the file once the app has
    /// created it.
    public var createsIfMissing: Bool
    /// How long a write waits for another process's lock before it fails with
    /// ``UserDictionaryError/Reason/busy`` (nothing written). Writers hold the lock for
    /// microseconds, a compaction for milliseconds (about 14 ms at 20,000 entries); only a
    /// process suspended or stopped while it holds it makes others wait longer. A keyboard
    /// extension, which must not block its main thread, can set a few tens of milliseconds
    /// and write the word with the next one. Half a second by default.
    public var lockTimeout: Duration

    /// Options; by default 20,000 entries, no `fsync` per write, automatic compaction, the
    /// file created when missing, half a second's wait for the lock.
    public init(
      capacity: Int = UserDictionary.defaultCapacity, synchronizesEachWrite: Bool = false,
      compactsAutomatically: Bool = true, createsIfMissing: Bool = true,
      lockTimeout: Duration = .milliseconds(500)
    ) {
      self.capacity = capacity
      self.synchronizesEachWrite = synchronizesEachWrite
      self.compactsAutomatically = compactsAutomatically
      self.createsIfMissing = createsIfMissing
      self.lockTimeout = lockTimeout
    }
  }

  /// Bytes of the file that are not whole, valid records.
  public struct Damage: Sendable, Hashable, CustomStringConvertible {
    /// Whether the last record runs past the end of the file (a write in flight, or one a
    /// killed writer left), rather than being whole but wrong (a storage fault).
    public var isIncomplete: Bool
    /// Where the unreadable bytes start.
    public var offset: Int
    /// How many bytes there were.
    public var byteCount: Int
    /// What is wrong with them.
    public var message: String
    /// Whether a write of this store cut them off (after a killed writer, the usual case).
    public var wasCut: Bool
    /// Whether the records after them were read (a damaged record in the middle of the
    /// file, or at its end when a writer went on after it).
    public var wasSkipped: Bool

    public var description: String {
      "\(wasCut ? "cut off" : wasSkipped ? "skipped" : "ignored") \(byteCount) bytes at offset \(offset): \(message)"
    }
  }

  /// The file.
  public let path: String
  /// Whether this process cannot write the store: the file, or the directory it would be
  /// created in, is read-only for it (an App Group container in a keyboard without Full
  /// Access, a read-only volume). Reading works; writes throw
  /// ``UserDictionaryError/Reason/readOnly``.
  public var isReadOnly: Bool { !(file?.isWritable ?? false) }
  /// The options the store was opened with.
  public let options: Options
  /// The most entries the file keeps (set when it was created).
  public var capacity: Int { header.capacity }
  /// Why the last compaction this store tried failed, or `nil` when it succeeded (or none
  /// was tried).
  ///
  /// A write whose record was appended returns its result even when the compaction that
  /// follows it fails (a full disk, say): the write is in the file. The store then tries
  /// again after the log has grown by another 64 KiB, and ``compact()`` and
  /// ``compactIfNeeded()`` throw the error. The log cannot grow without bound meanwhile: a
  /// write that would take the file past ``maximumFileSize(capacity:)`` compacts first
  /// (even without ``Options/compactsAutomatically``), and fails, writing nothing, if
  /// that compaction fails.
  public private(set) var lastCompactionError: UserDictionaryError?

  /// Unreadable bytes found at the end of the file by the last read or write, or `nil`.
  ///
  /// A record half written by a live writer in another process shows up here briefly (it is
  /// whole at the next ``refresh()``); one left by a killed writer stays until the next
  /// write cuts it off. Damaged bytes at the end (a storage fault) stay here for readers;
  /// a writer skips them (``damagedRecords``) and appends after them.
  public private(set) var damage: Damage?
  /// The damaged records (or runs of damaged bytes) skipped in the file as read, in order,
  /// at most 100: a storage fault, or a record whose word no store writes. The records after
  /// each were read. A compaction drops them (the file is rewritten without them).
  public private(set) var damagedRecords: [Damage] = []

  /// The open file; `nil` while it does not exist and this process cannot create it.
  private var file: UserLogFile?
  /// The identity of `file` (`nil` with it).
  private var identity: UserFileIdentity?
  /// Flushes made by this store (``Options/synchronizesEachWrite``), in order: the paths of
  /// the files and directories flushed. For the tests of what reaches the disk when.
  private(set) var flushesForTesting: [String] = []
  private var header: UserLogFormat.Header
  /// The end of the last whole record read or written.
  private var end: Int
  private var table = UserTable()
  /// The largest sequence number seen (the header's base, or a record's).
  private var sequence: UInt64
  /// The bytes a compacted file would take for the entries (their set records).
  private var liveBytes = 0
  private var cachedWords: UserWords?
  /// After a failed automatic compaction: the log end past which writes try again.
  private var compactionRetryEnd = 0
  /// Makes compactions fail (tests of what a failed compaction does).
  var failsCompactionsForTesting = false

  /// Opens the user dictionary at `path`, creating the file if it is missing (unless
  /// ``Options/createsIfMissing`` is off). Opening for writing also removes the temporary
  /// files that writers killed while creating or compacting the file left beside it.
  /// - Parameters:
  ///   - path: the file; its directory must exist (the App Group container on iOS). Not a
  ///     symbolic link: a compaction renames a new file over the path, which would replace
  ///     the link (a link to the directory is fine).
  ///   - options: the capacity of a new file, `fsync` per write, automatic compaction, the
  ///     lock's timeout.
  /// - Throws: ``UserDictionaryError`` when the file cannot be created or opened
  ///   (`.io`), is a symbolic link or not a regular file, is not a user dictionary, is of
  ///   a newer version, its header is damaged, or it is larger than any store gets. Not
  ///   when the file or its directory is read-only for this process: the store then opens
  ///   read-only (``isReadOnly``), empty if the file does not exist yet.
  public init(path: String, options: Options = Options()) throws(UserDictionaryError) {
    guard options.capacity >= 1 && options.capacity <= Self.maximumCapacity else {
      throw UserDictionaryError(
        .invalidCapacity, file: path, message: "a capacity of \(options.capacity) entries",
        hint: "a user dictionary holds from 1 to \(Self.maximumCapacity) entries")
    }
    self.path = path
    self.options = options
    header = UserLogFormat.Header(capacity: options.capacity, baseSequence: 0)
    end = UserLogFormat.headerSize
    sequence = 0
    try openFile()
    if let file, file.isWritable {
      // Under the lock: remove the temporary files killed writers left, and write the
      // header of an empty file someone else created. Both are skipped when another process
      // holds the lock past the timeout: the first is housekeeping the next store does, and
      // opening does not fail on a busy lock (the writes do, when they cannot get it).
      do throws(UserDictionaryError) {
        try file.lock(waitingAtMost: options.lockTimeout)
        defer { file.unlock() }
        // (Only if the path still names the file locked: a compaction may be under way on a new one.)
        if UserLogFile.identity(of: path) == identity { UserLogFile.removeStaleTemporaries(of: path) }
        if try file.status().size == 0 {
          try file.write(UserLogFormat.encodeHeader(header), at: 0)
        }
      } catch  where error.reason == .busy {}
    }
    try reload()
  }

  // MARK: Reading

  /// A snapshot of the entries as of the last read or write.
  /// - Complexity: O(1) when nothing changed since the last snapshot; otherwise the next
  ///   write copies the table once (O(n)) if the previous snapshot is still held.
  public var words: UserWords {
    if let cachedWords { return cachedWords }
    let words = UserWords(table: table, sequence: sequence, capacity: header.capacity)
    cachedWords = words
    return words
  }

  /// Picks up the writes of other stores and processes: reads only the bytes appended
  /// since the last read, or the whole file when a compaction replaced it.
  /// - Returns: whether the entries changed.
  /// - Throws: ``UserDictionaryError`` when the file cannot be read, or was replaced by
  ///   something that is not a user dictionary.
  @discardableResult
  public func refresh() throws(UserDictionaryError) -> Bool {
    let before = sequence
    if UserLogFile.identity(of: path) != identity {
      try reopen()
      return true
    }
    try catchUp(cutting: false)
    return sequence != before
  }

  // MARK: Writing

  /// Adds `word` as a word of the user's (or turns a learned or blocked entry into an added
  /// one), and marks it used now.
  /// - Parameters:
  ///   - word: the word (validated and NFC-normalized: ``UserWordRules``).
  ///   - uses: the use count to set; `nil` keeps the entry's count (0 for a new entry).
  /// - Returns: the entry as written.
  /// - Throws: ``UserDictionaryError`` for an invalid word or count, or when the file
  ///   cannot be written.
  @discardableResult
  public func add(_ word: String, uses: Int? = nil) throws(UserDictionaryError) -> UserEntry {
    let word = try UserWordRules.validate(word)
    if let uses { try Self.checkUses(uses, word: word) }
    return try write(.add(uses: uses), to: word) ?? UserEntry(word: word, kind: .added, uses: 0, lastUse: 0)
  }

  /// Counts one use of `word`: one more use of its entry, or a new learned entry with one
  /// use. A blocked word stays blocked, unchanged and unwritten.
  /// - Returns: the entry after the write (the blocked entry as it was).
  /// - Throws: ``UserDictionaryError`` for an invalid word, or when the file cannot be
  ///   written.
  @discardableResult
  public func learn(_ word: String) throws(UserDictionaryError) -> UserEntry {
    let word = try UserWordRules.validate(word)
    return try write(.learn, to: word) ?? UserEntry(word: word, kind: .learned, uses: 1, lastUse: 0)
  }

  /// Takes back one use of `word`, as a keyboard does when the user deletes a word it just
  /// committed (and learned): one use fewer; a learned entry left without uses is removed. An
  /// added entry keeps its place at 0 uses; a blocked one, or a word without entry, is left as
  /// it is (nothing is written).
  /// - Returns: the entry after the write, or `nil` when the word has none (any more).
  /// - Throws: ``UserDictionaryError`` for an invalid word, or when the file cannot be
  ///   written.
  @discardableResult
  public func unlearn(_ word: String) throws(UserDictionaryError) -> UserEntry? {
    let word = try UserWordRules.validate(word)
    return try write(.unlearn, to: word)
  }

  /// Blocks `word`: queries must never suggest it, whatever a dictionary says. Its use
  /// count is kept (``add(_:uses:)`` unblocks it).
  /// - Returns: the entry as written.
  /// - Throws: ``UserDictionaryError`` for an invalid word, or when the file cannot be
  ///   written.
  @discardableResult
  public func block(_ word: String) throws(UserDictionaryError) -> UserEntry {
    let word = try UserWordRules.validate(word)
    return try write(.block, to: word) ?? UserEntry(word: word, kind: .blocked, uses: 0, lastUse: 0)
  }

  /// Removes the entry of `word` (added, learned or blocked), if there is one.
  /// - Returns: the entry removed, or `nil` when there was none (nothing is written).
  /// - Throws: ``UserDictionaryError`` for an invalid word, or when the file cannot be
  ///   written.
  @discardableResult
  public func remove(_ word: String) throws(UserDictionaryError) -> UserEntry? {
    let word = try UserWordRules.validate(word)
    return try withWriteLock { () throws(UserDictionaryError) -> UserEntry? in
      guard let old = table[word] else { return nil }
      try append([.remove(word: word, sequence: try sequence(after: 0), evicted: false)])
      return old
    }
  }

  /// Rewrites the file with one record per entry, least recently used first, to a
  /// temporary file renamed over it. Readers pick up the new file at their next
  /// ``refresh()``. Writes compact by themselves (``Options/compactsAutomatically``).
  /// - Throws: ``UserDictionaryError`` when the file cannot be written (the file is left
  ///   as it was).
  public func compact() throws(UserDictionaryError) {
    try withWriteLock { () throws(UserDictionaryError) in try compactNow() }
  }

  /// Compacts the file if the log has grown past twice its live size plus 64 KiB (what a
  /// write does by itself when ``Options/compactsAutomatically`` is set).
  ///
  /// A write that crosses the threshold compacts inline: at 20,000 entries that is about
  /// 14 ms (with its `fsync`) on one `learn` in some 2,000. An app can call this off the
  /// typing path (when it comes to the foreground, say) so that the keyboard's writes
  /// rarely have to, or open the keyboard's store with `compactsAutomatically: false` and
  /// leave compaction to the app.
  /// - Returns: whether it compacted.
  /// - Throws: ``UserDictionaryError`` when the compaction failed (the file is left as it
  ///   was, and ``lastCompactionError`` says the same).
  @discardableResult
  public func compactIfNeeded() throws(UserDictionaryError) -> Bool {
    try withWriteLock { () throws(UserDictionaryError) -> Bool in
      guard needsCompaction else { return false }
      try compactNow()
      return true
    }
  }

  // MARK: Internals

  /// Writes the validated items of an import (``importList(_:replacing:)``) in one step,
  /// under the lock.
  func writeImported(_ items: [UserWordList.Item], replacing: Bool) throws(UserDictionaryError)
    -> ImportSummary
  {
    return try withWriteLock { () throws(UserDictionaryError) -> ImportSummary in
      var next = replacing ? UserTable() : table
      var nextSequence = sequence
      var listed: Set<String> = []
      for item in items {
        guard nextSequence < UInt64.max else { throw sequenceExhausted() }
        nextSequence += 1
        next.set(UserEntry(word: item.word, kind: item.kind, uses: item.uses, lastUse: nextSequence))
        listed.insert(item.word)
      }
      let replaced = replacing ? table.values.filter { !listed.contains($0.word) }.count : 0
      var ordered = next.values.sorted { $0.lastUse < $1.lastUse }
      var evicted = 0
      if ordered.count > header.capacity {
        // Learned entries go first, then the rest, least recently used first.
        let excess = ordered.count - header.capacity
        let learned = ordered.filter { $0.kind == .learned }.prefix(excess).map(\.word)
        var victims = Set(learned)
        for entry in ordered where victims.count < excess && entry.kind != .learned {
          victims.insert(entry.word)
        }
        ordered.removeAll { victims.contains($0.word) }
        evicted = victims.count
      }
      sequence = nextSequence
      try rewrite(ordered)
      return ImportSummary(imported: listed.count, evicted: evicted, replaced: replaced)
    }
  }

  static func checkUses(_ uses: Int, word: String) throws(UserDictionaryError) {
    guard uses >= 0 && uses <= UserEntry.maxUses else {
      throw UserDictionaryError(
        .invalidUses, file: nil, message: "\(uses) is not a use count (for \(UserWordRules.quoted(word)))",
        hint: "a use count is a whole number from 0 to \(UserEntry.maxUses)")
    }
  }

  /// Writes what `change` makes of the entry of `word`, under the lock (``UserEntryChange``).
  /// - Returns: the entry after it (unchanged when nothing was written), `nil` when there is none.
  private func write(_ change: UserEntryChange, to word: String) throws(UserDictionaryError) -> UserEntry? {
    try withWriteLock { () throws(UserDictionaryError) -> UserEntry? in
      let old = table[word]
      switch change.outcome(from: old) {
      case .unchanged:
        return old
      case .remove:
        try append([.remove(word: word, sequence: try sequence(after: 0), evicted: false)])
        return nil
      case .set(let kind, let uses):
        var records: [UserLogFormat.Record] = []
        if old == nil && table.count >= header.capacity {
          for victim in evictionVictims(count: table.count - header.capacity + 1, sparing: word) {
            records.append(.remove(word: victim, sequence: try sequence(after: records.count), evicted: true))
          }
        }
        let entry = UserEntry(word: word, kind: kind, uses: uses, lastUse: try sequence(after: records.count))
        records.append(.set(entry))
        try append(records)
        return entry
      }
    }
  }

  /// The `count` least recently used learned entries, then added or blocked ones if there
  /// are not enough learned ones. One pass over the entries.
  private func evictionVictims(count: Int, sparing word: String) -> [String] {
    guard count > 0 else { return [] }
    if count == 1 {
      var learned: UserEntry?
      var other: UserEntry?
      for entry in table.values where entry.word != word {
        if entry.kind == .learned {
          if learned.map({ entry.lastUse < $0.lastUse }) ?? true { learned = entry }
        } else if other.map({ entry.lastUse < $0.lastUse }) ?? true {
          other = entry
        }
      }
      return (learned ?? other).map { [$0.word] } ?? []
    }
    let sorted = table.values.filter { $0.word != word }.sorted {
      ($0.kind == .learned ? 0 : 1, $0.lastUse) < ($1.kind == .learned ? 0 : 1, $1.lastUse)
    }
    return sorted.prefix(count).map(\.word)
  }

  /// Runs `body` holding the file's exclusive lock, on the file the path names now, with
  /// every record before it applied and a torn tail cut off.
  private func withWriteLock<T>(_ body: () throws(UserDictionaryError) -> T) throws(UserDictionaryError) -> T {
    while true {
      guard let locked = file, locked.isWritable else {
        throw UserDictionaryError(
          .readOnly, file: path,
          message: file == nil
            ? "the file does not exist and its directory is read-only for this process"
            : "the file is read-only for this process",
          hint: "check the permissions of the file and its directory; on iOS a keyboard extension writes the "
            + "App Group container only with Full Access (docs/apple.md)")
      }
      try locked.lock(waitingAtMost: options.lockTimeout)
      if UserLogFile.identity(of: path) == identity {
        defer {
          // A compaction in `body` or after it locked the new file before renaming it in.
          if let file, file !== locked { file.unlock() }
          locked.unlock()
        }
        try catchUp(cutting: true)
        let result = try body()
        // The write landed: a failed compaction is recorded, never thrown (see
        // ``lastCompactionError``), and tried again once the log has grown some more.
        if options.compactsAutomatically, needsCompaction, end >= compactionRetryEnd {
          compactNoting()
        }
        return result
      }
      // A compaction replaced the file (or it was deleted) before we got the lock.
      locked.unlock()
      try reopen()
    }
  }

  /// The sequence number of the record `written` records after the next one: the last one
  /// seen plus `written + 1`.
  /// - Throws: when that passes 2⁶⁴ − 1: a file whose header or a record carries such a
  ///   number is damaged or hostile (no store writes 18 quintillion records).
  private func sequence(after written: Int) throws(UserDictionaryError) -> UInt64 {
    let (next, overflow) = sequence.addingReportingOverflow(UInt64(written) + 1)
    guard !overflow else { throw sequenceExhausted() }
    return next
  }

  private func sequenceExhausted() -> UserDictionaryError {
    UserDictionaryError(
      .damagedHeader, file: path,
      message: "its sequence numbers are used up (\(sequence), the largest there is): the file is damaged",
      hint: "move it aside (mv \(path) \(path).damaged), then `swipedict user \(path).damaged salvage -o saved.tsv` "
        + "and `swipedict user \(path) import saved.tsv` into a new file")
  }

  /// Whether the log has grown past twice its live size plus 64 KiB.
  private var needsCompaction: Bool { end - UserLogFormat.headerSize > 2 * liveBytes + 65_536 }

  /// Compacts (under the lock), recording the outcome in `lastCompactionError`.
  private func compactNow() throws(UserDictionaryError) {
    do throws(UserDictionaryError) {
      if failsCompactionsForTesting {
        throw UserDictionaryError(.io, file: path, message: "cannot compact the file: a test said so", hint: "none")
      }
      try rewrite(table.values.sorted { $0.lastUse < $1.lastUse })
      lastCompactionError = nil
      compactionRetryEnd = 0
    } catch {
      lastCompactionError = error
      compactionRetryEnd = end + 65_536
      throw error
    }
  }

  /// Compacts after a write that landed: a failure is only recorded.
  private func compactNoting() {
    do throws(UserDictionaryError) { try compactNow() } catch {}
  }

  /// Appends records at the end (under the lock) and applies them.
  private func append(_ records: [UserLogFormat.Record]) throws(UserDictionaryError) {
    var bytes: [UInt8] = []
    for record in records { UserLogFormat.encode(record, into: &bytes) }
    let limit = Self.maximumFileSize(capacity: header.capacity)
    if end + bytes.count > limit {
      // Compaction has been failing (or is off): compact now, or write nothing.
      do throws(UserDictionaryError) {
        try compactNow()
      } catch {
        throw UserDictionaryError(
          error.reason, file: path,
          message: "the log has reached its bound of \(limit) bytes and cannot be compacted (\(error.message))",
          hint: error.hint)
      }
    }
    // Under the write lock, which only a store with a writable file takes.
    guard let file else { preconditionFailure("a write without a file") }
    do throws(UserDictionaryError) {
      try file.write(bytes, at: end)
    } catch {
      try? file.truncate(to: end)  // leave no half record behind (a full disk)
      throw error
    }
    if options.synchronizesEachWrite {
      try file.synchronize()
      flushesForTesting.append(file.path)
    }
    for record in records { apply(record) }
    end += bytes.count
  }

  /// Writes `entries` (in this order) as a new file and renames it over the path (under
  /// the lock). The store then reads the new file, through the descriptor it wrote.
  private func rewrite(_ entries: [UserEntry]) throws(UserDictionaryError) {
    let newHeader = UserLogFormat.Header(capacity: header.capacity, baseSequence: sequence)
    var bytes = UserLogFormat.encodeHeader(newHeader)
    for entry in entries { UserLogFormat.encode(.set(entry), into: &bytes) }
    UserLogFile.removeStaleTemporaries(of: path)
    let written = try UserLogFile.writeTemporary(beside: path, suffix: "compacting", contents: bytes)
    flushesForTesting.append(written.path)
    // Locked before it is renamed in: a store that opens it waits until this write is done
    // (a write at the size bound appends to it right after). No one else has it yet.
    do throws(UserDictionaryError) { try written.lock(waitingAtMost: .zero) } catch {
      written.remove()
      throw error
    }
    try written.rename(over: path)
    file = written
    identity = try written.status().identity
    header = newHeader
    table = UserTable()
    liveBytes = 0
    for entry in entries { apply(.set(entry)) }
    end = bytes.count
    damage = nil
    damagedRecords = []
    cachedWords = nil
    // The rename is in the directory: flushed after the file (writeTemporary flushed it), so
    // that a power loss leaves the old file or the whole new one. A failure is thrown with
    // the store already reading the new file.
    if options.synchronizesEachWrite {
      try UserLogFile.synchronizeDirectory(of: path)
      flushesForTesting.append(UserLogFile.directory(of: path))
    }
  }

  /// Opens the file the path names now and reads it whole.
  private func reopen() throws(UserDictionaryError) {
    try openFile()
    try reload()
  }

  /// Opens the file the path names now, creating it first when it is missing and the options
  /// say so, or leaves the store without one (read-only and empty) when it is missing and
  /// this process cannot create files in its directory.
  private func openFile() throws(UserDictionaryError) {
    if options.createsIfMissing {
      if UserLogFile.identity(of: path) == nil && UserLogFile.isReadOnlyDirectory(holding: path) {
        file = nil
        identity = nil
        return
      }
      let created = try UserLogFile.createIfMissing(
        path, contents: UserLogFormat.encodeHeader(UserLogFormat.Header(capacity: header.capacity, baseSequence: 0)),
        durable: options.synchronizesEachWrite)
      if created && options.synchronizesEachWrite { flushesForTesting.append(UserLogFile.directory(of: path)) }
    }
    let opened = try UserLogFile(path: path)
    file = opened
    identity = try opened.status().identity
  }

  /// Reads the header and every record of the open file.
  private func reload() throws(UserDictionaryError) {
    if let file {
      let headerBytes = try file.read(count: UserLogFormat.headerSize, at: 0)
      header = try UserLogFormat.decodeHeader(headerBytes[...], path: path)
    } else {
      header = UserLogFormat.Header(capacity: options.capacity, baseSequence: 0)
    }
    table = UserTable()
    liveBytes = 0
    sequence = header.baseSequence
    end = UserLogFormat.headerSize
    damage = nil
    damagedRecords = []
    cachedWords = nil
    try catchUp(cutting: false)
  }

  /// How many bytes a read takes at a time: reading a large file costs this much memory
  /// beyond its entries, not its size.
  static let readChunkSize = 256 * 1024

  /// Reads and applies the records after `end`, in chunks of ``readChunkSize``, skipping
  /// damaged records that records follow (``damagedRecords``). At the bytes at the end
  /// that are not whole records: notes them in `damage`; with `cutting` (a writer, under
  /// the lock: no one else is writing) cuts an incomplete record off, and skips damaged
  /// bytes (the writer appends after them).
  private func catchUp(cutting: Bool) throws(UserDictionaryError) {
    guard let file else { return }
    let size = try file.status().size
    if size < end {
      // Someone cut records this store had read: not something stores do. Read it anew.
      try reload()
      return
    }
    let limit = Self.maximumFileSize(capacity: header.capacity)
    guard size <= limit else {
      throw UserDictionaryError(
        .tooLarge, file: path,
        message: "the file is \(size) bytes, more than a user dictionary of \(header.capacity) entries ever takes "
          + "(\(limit) bytes): it is damaged, or not a user dictionary",
        hint: "move it aside (mv \(path) \(path).damaged) and import an export into a new file "
          + "(swipedict user \(path) import LIST)")
    }
    var position = end
    var tail: (stop: UserLogFormat.Stop, count: Int)?
    while position < size {
      let requested = min(Self.readChunkSize, size - position)
      let bytes = try file.read(count: requested, at: position)
      let atEnd = bytes.count < requested || position + bytes.count >= size
      let decoded = UserLogFormat.decodeRecords(bytes[...], atEnd: atEnd) { record in apply(record) }
      for skipped in decoded.damaged {
        noteDamaged(offset: position + skipped.offset, count: skipped.count, message: skipped.message)
      }
      if let stop = decoded.stop {
        tail = (stop, bytes.count - decoded.consumed)
      }
      position += decoded.consumed
      if atEnd || tail != nil || decoded.consumed == 0 { break }
    }
    end = position
    damage = nil
    guard let tail else { return }
    switch tail.stop {
    case .incomplete:
      if cutting { try file.truncate(to: end) }
      damage = Damage(
        isIncomplete: true, offset: end, byteCount: tail.count,
        message: "an incomplete record (a write in flight, or one a killed writer left)", wasCut: cutting,
        wasSkipped: false)
    case .damaged(let what):
      if cutting {
        // No writer is writing: these bytes are damage for good. Append after them.
        noteDamaged(offset: end, count: tail.count, message: "damaged bytes (\(what))")
        end += tail.count
      } else {
        damage = Damage(
          isIncomplete: false, offset: end, byteCount: tail.count, message: "damaged bytes (\(what))", wasCut: false,
          wasSkipped: false)
      }
    }
  }

  /// Adds damaged bytes that were skipped to ``damagedRecords``.
  private func noteDamaged(offset: Int, count: Int, message: String) {
    if let last = damagedRecords.last, last.offset + last.byteCount == offset {
      damagedRecords[damagedRecords.count - 1].byteCount += count
    } else if damagedRecords.count < 100 {
      damagedRecords.append(
        Damage(isIncomplete: false, offset: offset, byteCount: count, message: message, wasCut: false, wasSkipped: true)
      )
    }
  }

  private func apply(_ record: UserLogFormat.Record) {
    switch record {
    case .set(let entry):
      if let old = table.set(entry) {
        liveBytes -= UserLogFormat.recordSize(wordBytes: old.word.utf8.count)
      }
      liveBytes += UserLogFormat.recordSize(wordBytes: entry.word.utf8.count)
    case .remove(let word, _, _):
      if let old = table.remove(word) {
        liveBytes -= UserLogFormat.recordSize(wordBytes: old.word.utf8.count)
      }
    }
    sequence = max(sequence, record.sequence)
    cachedWords = nil
  }
}

@available(*, unavailable, message: "a UserDictionary is used from one thread or actor; share its `words` snapshots")
extension UserDictionary: Sendable {}
