// Word lists in and out of a user dictionary: import, export, and the salvage of a damaged
// file's records.
extension UserDictionary {
  /// What an import did.
  public struct ImportSummary: Sendable, Hashable {
    /// Entries written (one per word of the list; a word listed twice counts once).
    public var imported: Int
    /// Entries evicted to stay within the capacity.
    public var evicted: Int
    /// Entries removed because `replacing` was set and the list did not have them.
    public var replaced: Int
  }

  /// Writes the entries of a list (``UserWordList``) in one step: the file is rewritten
  /// and renamed over, so other processes see all of the list or none of it.
  ///
  /// The list's words get new sequence numbers in list order (later lines count as more
  /// recent, as ``UserWordList/format(_:)`` writes them), so an import beyond the capacity
  /// keeps the end of the list. A word listed twice keeps its last line.
  /// - Parameters:
  ///   - list: the entries.
  ///   - replacing: remove every entry the list does not have (restore a backup); by
  ///     default the list is merged into the entries there are.
  /// - Returns: how many entries were imported, evicted and replaced.
  /// - Throws: ``UserDictionaryError`` for an item whose word is not a user word or whose
  ///   count is not in `0...UserEntry.maxUses` (naming the item; nothing is written), or
  ///   when the file cannot be written.
  @discardableResult
  public func importList(_ list: UserWordList, replacing: Bool = false) throws(UserDictionaryError)
    -> ImportSummary
  {
    var items: [UserWordList.Item] = []
    items.reserveCapacity(list.items.count)
    for (index, item) in list.items.enumerated() {
      do throws(UserDictionaryError) {
        let word = try UserWordRules.validate(item.word)
        try Self.checkUses(item.uses, word: word)
        items.append(UserWordList.Item(word: word, kind: item.kind, uses: item.uses))
      } catch {
        var located = error
        located.message = "item \(index + 1) of the list: " + error.message
        throw located
      }
    }
    return try writeImported(items, replacing: replacing)
  }

  /// The entries the records of a file give, whatever its header says: what can be saved
  /// from a file whose header is damaged (``UserDictionaryError/Reason/damagedHeader``),
  /// to import into a new file. Reads the file only (in chunks), skipping damaged records.
  /// - Parameter path: the file.
  /// - Returns: a snapshot of the entries (capacity ``maximumCapacity``).
  /// - Throws: ``UserDictionaryError`` when the file cannot be read or is larger than any
  ///   store gets.
  public static func salvage(path: String) throws(UserDictionaryError) -> UserWords {
    let file = try UserLogFile(path: path, allowingLinks: true)
    let size = try file.status().size
    guard size <= maximumFileSize(capacity: maximumCapacity) else {
      throw UserDictionaryError(
        .tooLarge, file: path, message: "the file is \(size) bytes, more than any user dictionary takes",
        hint: "this is not a user dictionary")
    }
    var table = UserTable()
    var sequence: UInt64 = 0
    var position = UserLogFormat.headerSize
    while position < size {
      let requested = min(readChunkSize, size - position)
      let bytes = try file.read(count: requested, at: position)
      let atEnd = bytes.count < requested || position + bytes.count >= size
      let decoded = UserLogFormat.decodeRecords(bytes[...], atEnd: atEnd) { record in
        switch record {
        case .set(let entry): table.set(entry)
        case .remove(let word, _, _): table.remove(word)
        }
        sequence = max(sequence, record.sequence)
      }
      position += decoded.consumed
      if atEnd || decoded.stop != nil || decoded.consumed == 0 { break }
    }
    return UserWords(table: table, sequence: sequence, capacity: maximumCapacity)
  }

  /// The entries as a word list (``UserWordList/format(_:)``): `word<TAB>uses` lines that
  /// `swipedict build` reads, blocked words as `#!blocked` comment lines.
  public func exportList() -> String { UserWordList.format(words) }
}
