import SwipeDictFormat

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
/// let reader = dictionary.keyPathReader()
/// reader.keyPath(of: id)            // [15, 2, 18, 8] for "hello" on qwerty-en (h e l o)
/// ```
public struct KeyPathReader: Sendable {
  fileprivate let dawg: DAWGView
  /// The key of each label, or `noKey` for characters without a key (apostrophe, hyphen).
  fileprivate let labelKeys: [UInt8]
  fileprivate static let noKey: UInt8 = 0xFF

  init(dictionary: SwipeDictionary) {
    let layout = dictionary.layout
    dawg = dictionary.dawg
    labelKeys = dictionary.alphabet.scalars.map { scalar in
      if case .key(let k) = layout.classify(scalar), k < 0xFF { return UInt8(k) }
      return KeyPathReader.noKey
    }
  }

  /// The key path of the word with `id` (key indices into the layout's keys; repeated keys
  /// collapsed, characters without a key left out), or `nil` if there is no such word.
  public func keyPath(of id: Int) -> [UInt8]? {
    guard let labels = dawg.labels(of: id) else { return nil }
    var keys: [UInt8] = []
    append(labels[...], to: &keys)
    return keys
  }

  /// Calls `body` for every word of `range`, in ID order, with its key path and the number
  /// of leading keys it shares with the previous word's path (0 for the first).
  public func forEachKeyPath(
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
  public func forEachKeyPath(
    of ids: some Sequence<Int>, _ body: (_ id: Int, _ keys: [UInt8], _ shared: Int) -> Void
  ) {
    for (id, keys, shared) in keyPaths(of: ids) { body(id, keys, shared) }
  }

  /// The key paths of `ids` as a lazy sequence, like ``forEachKeyPath(of:_:)``, for callers
  /// that stop early (a decoder at its deadline).
  public func keyPaths<IDs: Sequence<Int>>(of ids: IDs) -> KeyPathSequence<IDs> {
    KeyPathSequence(reader: self, ids: ids)
  }

  /// The key path of the current word, recomputed only past the labels it shares with the
  /// previous one.
  fileprivate struct SharedKeys {
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
  public func keyPathReader() -> KeyPathReader { KeyPathReader(dictionary: self) }
}

/// The key paths of an ascending selection of word IDs, with the number of leading keys each
/// shares with the previous word (see ``KeyPathReader/keyPaths(of:)``).
public struct KeyPathSequence<IDs: Sequence<Int>>: Sequence {
  fileprivate let reader: KeyPathReader
  fileprivate let ids: IDs

  public func makeIterator() -> Iterator {
    Iterator(reader: reader, ids: ids.makeIterator())
  }

  /// Visits the words in order; ends at the first ID that does not ascend or is not a word.
  public struct Iterator: IteratorProtocol {
    private let reader: KeyPathReader
    private var ids: IDs.Iterator
    private var cursor: WordCursor
    private var state = KeyPathReader.SharedKeys()
    private var started = false

    fileprivate init(reader: KeyPathReader, ids: IDs.Iterator) {
      self.reader = reader
      self.ids = ids
      self.cursor = WordCursor(dawg: reader.dawg)
    }

    public mutating func next() -> (id: Int, keys: [UInt8], shared: Int)? {
      guard let id = ids.next() else { return nil }
      // The next ID in a row is one depth-first step; any other is a seek.
      if !started || id != cursor.id &+ 1 || !cursor.next() {
        guard id >= 0, cursor.seek(to: id) else { return nil }
      }
      started = true
      state.advance(to: cursor.labels, reader: reader)
      return (cursor.id, state.keys, state.shared)
    }
  }
}
