import SwipeDictFormat

/// Reads the key paths of words (the keys a swipe over each word passes), for decoders.
///
/// Made once per dictionary (it classifies each alphabet label on the layout), then cheap
/// per word: one ID → labels descent and a table lookup per letter. ``forEachKeyPath(in:_:)``
/// walks a dense ID range depth-first instead, at a fraction of the cost per word, and tells
/// how many leading keys each word shares with the previous one, so a decoder can keep its
/// matching state for the shared prefix.
///
/// ```swift
/// let reader = dictionary.keyPathReader()
/// reader.keyPath(of: id)            // [7, 2, 8, 14] for "hello" on qwerty-en
/// ```
public struct KeyPathReader: Sendable {
  private let dawg: DAWGView
  /// The key of each label, or `noKey` for characters without a key (apostrophe, hyphen).
  private let labelKeys: [UInt8]
  private static let noKey: UInt8 = 0xFF

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
    var previous: [UInt8] = []
    var keys: [UInt8] = []
    var previousLabels: [UInt8] = []
    while cursor.next() {
      let labels = cursor.labels
      // Keys of the common label prefix are unchanged; recompute from there.
      var common = 0
      let limit = min(labels.count, previousLabels.count)
      while common < limit, labels[common] == previousLabels[common] { common += 1 }
      var keep = 0
      var seen = 0
      for label in labels[..<common] where Int(label) < labelKeys.count {
        let k = labelKeys[Int(label)]
        if k != Self.noKey && (seen == 0 || previous[seen - 1] != k) { seen += 1 }
      }
      keep = seen
      keys.removeAll(keepingCapacity: true)
      keys.append(contentsOf: previous[..<keep])
      append(labels[common...], to: &keys)
      var shared = 0
      let sharedLimit = min(keys.count, previous.count)
      while shared < sharedLimit, keys[shared] == previous[shared] { shared += 1 }
      body(cursor.id, keys, shared)
      swap(&previous, &keys)
      previousLabels = labels
    }
  }

  private func append(_ labels: ArraySlice<UInt8>, to keys: inout [UInt8]) {
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
