@_spi(SwipeDictInternals) import SwipeDictFormat

extension SwipeDictionary {
  /// What the word list said about word `id`: possibly offensive, abbreviation. Empty for
  /// an unmarked word, an ID out of range, or a blob without a `MARK` section.
  public func marks(of id: Int) -> WordMarks {
    markView?.marks(of: id) ?? []
  }

  /// The replacements the word list offers for `word` (AOSP shortcuts), whitelisted
  /// corrections first, then by frequency: "acomodate" → "accommodate", "ill" → "I'll",
  /// "coeur" → "cœur". `word` is matched exactly after NFC normalization; it need not be a
  /// word of the dictionary (misspellings are not).
  public func shortcuts(for word: String) -> [Shortcut] {
    guard let markView, markView.shortcutCount > 0 else { return [] }
    return markView.shortcuts(for: Array(Normalization.nfc(word).utf8))
  }

  /// Every shortcut with its source, sources in UTF-8 byte order.
  public var allShortcuts: [(source: String, shortcut: Shortcut)] {
    markView?.allShortcuts() ?? []
  }

  /// Whether word `id` may be suggested: not blocked by the user (``userWords``), and not
  /// possibly offensive while ``blocksOffensiveWords`` is on, unless the user added or
  /// learned it (a word the user typed is theirs to be offered).
  @inline(__always)
  package func isSuggestible(_ id: Int) -> Bool {
    if userLayer.blocked.contains(id) { return false }
    guard blocksOffensiveWords, let markView, markView.markCount > 0 else { return true }
    return !markView.marks(of: id).contains(.possiblyOffensive) || usersOffensiveWords.contains(id)
  }

  /// Calls `body` with every word of the blob that must not be suggested (ascending ID among
  /// the marked words, then the user's blocked words).
  package func forEachUnsuggestible(_ body: (Int) -> Void) {
    if blocksOffensiveWords, let markView {
      markView.forEachMarked { id, marks in
        if marks.contains(.possiblyOffensive) && !usersOffensiveWords.contains(id) { body(id) }
      }
    }
    userLayer.blocked.forEach(body)
  }

  /// The words of the blob marked possibly offensive that `input` spells exactly, ignoring
  /// case (not accents), unless the user blocked them: what the user typed is theirs, so
  /// correction keeps "damn" typed as "damn" (or "Damn") rather than change it into another
  /// word, as AOSP keyboards keep an exactly typed offensive word. Empty for a blob without
  /// such marks.
  package func typedWords(_ input: String) -> Set<Int> {
    guard blocksOffensiveWords, let markView, markView.markCount > 0 else { return [] }
    let lower = input.lowercased()
    return Set(
      ids(matchingFolded: input, limit: 16).filter { id in
        !userLayer.blocked.contains(id) && word(for: id)?.lowercased() == lower
          && markView.marks(of: id).contains(.possiblyOffensive)
      })
  }

  /// The blob's words marked possibly offensive that `layer`'s user added or learned (not
  /// blocked). One pass over the marked words, when the user has words at all.
  func offensiveWords(of layer: UserLayer) -> WordIDSet {
    guard !layer.isEmpty, let markView, markView.markCount > 0 else { return WordIDSet() }
    var ids: [Int] = []
    markView.forEachMarked { id, marks in
      guard marks.contains(.possiblyOffensive), let word = word(for: id),
        let entry = layer.words.entry(for: word), !entry.isBlocked
      else { return }
      ids.append(id)
    }
    return WordIDSet(ids, wordCount: wordCount)
  }
}
