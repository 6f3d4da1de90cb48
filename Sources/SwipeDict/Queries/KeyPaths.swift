@_spi(SwipeDictInternals) import SwipeDictFormat

/// Reads the key paths of words (the keys a swipe over each word passes), for decoders.
///
/// Made once per dictionary (it classifies each alphabet label on the layout), then cheap
/// per word: one ID → labels descent and a table lookup per letter. ``forEachKeyPath(in:_:)``
/// walks a dense ID range depth-first instead, at a fraction of the cost per word, and
/// ``forEachKeyPath(of:_:)`` visits any ascending selection of IDs (a swipe filter's
/// candidates) sharing the descent of common prefixes. Both tell how many leading keys each
/// word shares with the previous one visited, so a decoder can keep its matching state for
/// the shared prefix.
///
/// ```swift
/// let reader = dictionary.makeKeyPathReader()
/// reader.keyPath(of: id)            // [15, 2, 18, 8] for "hello" on qwerty-en (h e l o)
/// ```
package struct KeyPathReader: Sendable {
  /// Keeps the blob's bytes alive for as long as the reader (and its cursors) exist.
  private let owner: MappedRegion
  fileprivate let dawg: DAWGView
  /// The key of each label, or `noKey` for characters without a key (apostrophe, hyphen).
  fileprivate let labelKeys: [UInt8]
  fileprivate static let noKey: UInt8 = 0xFF

  init(dictionary: SwipeDictionary) {
    let layout = dictionary.layout
    owner = dictionary.region
    dawg = dictionary.dawg
    labelKeys = dictionary.alphabet.scalars.map { scalar in
      if case .key(let k) = layout.classify(scalar), k < 0xFF { return UInt8(k) }
      return KeyPathReader.noKey
    }
  }

  /// The key path of the word with `id` (key indices into the layout's keys; repeated keys
  /// collapsed, characters without a key left out), or `nil` if there is no such word.
  package func keyPath(of id: Int) -> [UInt8]? {
    guard let labels = dawg.labels(of: id) else { return nil }
    var keys: [UInt8] = []
    append(labels[...], to: &keys)
    return keys
  }

  /// Calls `body` for every word of `range`, in ID order, with its key path and the number
  /// of leading keys it shares with the previous word's path (0 for the first).
  package func forEachKeyPath(
    in range: Range<Int>, _ body: (_ id: Int, _ keys: [UInt8], _ shared: Int) -> Void
  ) {
    var cursor = WordCursor(dawg: dawg, range: range)
    var state = SharedKeys()
    while cursor.next() {
      state.advance(to: cursor.labels, reader: self)
      body(cursor.id, state.keys, state.shared)
    }
  }

  /// Calls `body` for each of `ids` that is a word, in order, with its key path and the
  /// number of leading keys it shares with the previous word visited (0 for the first).
  /// IDs must ascend; the visit stops at the first one that does not (or is not a word).
  /// - Complexity: per word, the depth below its common prefix with the previous word
  ///   (times log fan-out), so close IDs cost little more than a walk over a range.
  package func forEachKeyPath(
    of ids: [Int], _ body: (_ id: Int, _ keys: [UInt8], _ shared: Int) -> Void
  ) {
    var cursor = makeCursor()
    for id in ids {
      guard cursor.move(to: id) else { return }
      body(cursor.id, cursor.keys, cursor.shared)
    }
  }

  /// The key path of the current word, recomputed only past the labels it shares with the
  /// previous one.
  fileprivate struct SharedKeys: Sendable {
    /// The current word's key path.
    private(set) var keys: [UInt8] = []
    /// How many leading keys it shares with the previous word's.
    private(set) var shared = 0
    private var labels: [UInt8] = []
    private var scratch: [UInt8] = []

    mutating func advance(to next: [UInt8], reader: KeyPathReader) {
      // The keys of the labels both words share are unchanged; recompute from there.
      var common = 0
      let limit = min(next.count, labels.count)
      while common < limit, next[common] == labels[common] { common &+= 1 }
      var keep = 0
      for label in next[..<common] where Int(label) < reader.labelKeys.count {
        let k = reader.labelKeys[Int(label)]
        if k != KeyPathReader.noKey && (keep == 0 || keys[keep &- 1] != k) { keep &+= 1 }
      }
      scratch.removeAll(keepingCapacity: true)
      scratch.append(contentsOf: keys[..<keep])
      reader.append(next[common...], to: &scratch)
      shared = keep
      let sharedLimit = min(scratch.count, keys.count)
      while shared < sharedLimit, scratch[shared] == keys[shared] { shared &+= 1 }
      swap(&keys, &scratch)
      labels.removeAll(keepingCapacity: true)
      labels.append(contentsOf: next)
    }
  }

  fileprivate func append(_ labels: ArraySlice<UInt8>, to keys: inout [UInt8]) {
    for label in labels where Int(label) < labelKeys.count {
      let k = labelKeys[Int(label)]
      if k != Self.noKey, keys.last != k { keys.append(k) }
    }
  }
}

extension SwipeDictionary {
  /// A reader of word key paths (see ``KeyPathReader``). Make it once and keep it.
  package func makeKeyPathReader() -> KeyPathReader { KeyPathReader(dictionary: self) }
}

/// Moves forward through the words in ID order, to the IDs a caller picks as it goes, and
/// gives each word's key path (see ``KeyPathReader/makeCursor()``).
///
/// ```swift
/// var cursor = reader.makeCursor()
/// for id in candidates where worthALook(id) {      // ascending IDs, skipping at will
///   guard cursor.move(to: id) else { break }
///   match(cursor.keys)                             // shares `cursor.shared` keys with the last
/// }
/// ```
///
/// The cursor holds its reader, which keeps the blob's bytes alive.
package struct KeyPathCursor: Sendable {
  private let reader: KeyPathReader
  private var words: WordCursor
  private var state = KeyPathReader.SharedKeys()
  private var started = false

  fileprivate init(reader: KeyPathReader) {
    self.reader = reader
    self.words = WordCursor(dawg: reader.dawg)
  }

  /// The current word's ID (valid after `move(to:)` returned `true`).
  package var id: Int { words.id }
  /// The current word's key path.
  package var keys: [UInt8] { state.keys }
  /// How many leading keys the current word's path shares with the previous word's.
  package var shared: Int { state.shared }

  /// Moves to the word `id`, which must come after the current one. Returns `false` if it
  /// does not (or is not a word, or the automaton is damaged): the cursor is then spent.
  /// - Complexity: one depth-first step for the next ID; otherwise the depth below the
  ///   common prefix with the current word (times log fan-out).
  package mutating func move(to id: Int) -> Bool {
    // The next ID in a row is one depth-first step; any other is a seek.
    if !started || id != words.id &+ 1 || !words.next() {
      guard id >= 0, words.seek(to: id) else { return false }
    }
    started = true
    state.advance(to: words.labels, reader: reader)
    return true
  }
}

extension KeyPathReader {
  /// A cursor that moves forward to any ascending IDs and reads their key paths, sharing the
  /// work of common prefixes (see ``KeyPathCursor``).
  package func makeCursor() -> KeyPathCursor { KeyPathCursor(reader: self) }
}
