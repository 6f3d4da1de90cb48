@_spi(SwipeDictInternals) import SwipeDictFormat

/// A user dictionary snapshot (``UserWords``) prepared against one blob: what the queries
/// merge. Set it with ``SwipeDictionary/userWords``; it is rebuilt on every set.
///
/// - **Blocked** words (any case the user gave) are never suggested: not by completion,
///   correction, next-word prediction or the decoder.
/// - **Uses** raise a word's frequency: a word used *u* times counts like the blob's word at
///   rank ⌈N / 2^(u+1)⌉ of its N words, by frequency (1 use: the most frequent quarter's
///   edge; each further use halves the rank), unless its own frequency is higher. A word the
///   user added with no uses counts as used once.
/// - **Added and learned words the blob lacks** take part under IDs from
///   ``SwipeDictionary/wordCount`` up (``SwipeDictionary/userWord(for:)`` spells them), with
///   the frequency their uses give and a key path on the blob's layout, so the decoder
///   swipes them as it swipes the blob's words. Words with a character the layout cannot
///   type are left out of swiping (they still complete).
struct UserLayer: Sendable {
  /// The blob's words the user blocked.
  let blocked: WordIDSet
  /// Blob words whose uses raise their frequency: ascending ID, with the raised byte.
  let raisedIDs: [Int32]
  let raisedBytes: [UInt8]
  /// The blob's frequency bytes with the raises applied, one per blob word (empty when
  /// no word is raised), and their range maxima: the typing correction walks the automaton
  /// by these, so it finds a raised word as it finds a blob word of the raised frequency.
  let personalFrequencies: [UInt8]
  let personalMaxima: FrequencyMaxima?
  /// Words the blob lacks, in ``Extra`` order (by folded form, then the word).
  let extras: [Extra]
  /// Indices of `extras`, most frequent first (ties: `extras` order): the best of them
  /// without a scan.
  let extrasByFrequency: [Int32]
  /// For correction: the extras that can be corrected (those with `labels`) in the order of
  /// their labels, so that words sharing first letters are scored one after the other and
  /// share their rows of the distance table.
  let correctables: [Correctable]
  /// For correction: positions in `correctables`, ascending, under every key of their first
  /// three folded letters (``correctionKeys(_:)``).
  let correctionIndex: [UInt64: [Int32]]
  /// The largest frequency byte of the correctable extras.
  let correctableMaximum: UInt8
  /// The largest frequency byte of each block of ``blockSize`` extras (in `extras` order)
  /// and of each block of raised words, and of all of them: completion skips the blocks
  /// (or all) that cannot place.
  let extraBlockMaxima: [UInt8]
  let raisedBlockMaxima: [UInt8]
  let extrasMaximum: UInt8
  let raisedMaximum: UInt8
  /// The most Unicode scalars of an extra's word (a completion's bound on a prefix).
  let longestExtra: Int
  static let blockSize = 16
  /// The snapshot it was made from.
  let words: UserWords

  /// A word of the user that the blob lacks.
  struct Extra: Sendable {
    var word: String
    /// Lowercased, without accents: the key completion matches a prefix against.
    var folded: String
    /// `folded` in UTF-8: the order of `extras`, searched by bytes.
    var foldedUTF8: [UInt8]
    var frequency: UInt8
    /// Its key path on the blob's layout (repeats collapsed), or empty when it cannot be typed.
    var keys: [UInt8]
    /// Its letters as the blob's alphabet labels (a letter the alphabet lacks as its key's
    /// letter, ``label(of:alphabet:layout:)``), or `nil` when one has no label even so (then
    /// correction leaves it out).
    var labels: [UInt8]?
    /// Its `FEAT` record as the compiler would write it (packed), for the swipe filters;
    /// `nil` when it cannot be swiped.
    var record: UInt32?
  }

  /// An extra that correction may suggest, with what filters it without reading it.
  struct Correctable: Sendable {
    /// Its index in `extras`.
    var index: Int32
    /// Its letters, ``letterMask(_:)``.
    var letters: UInt64
    /// Its length in labels.
    var length: Int32
    var frequency: UInt8
  }

  static let empty = UserLayer()

  private init() {
    blocked = WordIDSet()
    raisedIDs = []
    raisedBytes = []
    personalFrequencies = []
    personalMaxima = nil
    extras = []
    extrasByFrequency = []
    correctables = []
    correctionIndex = [:]
    correctableMaximum = 0
    extraBlockMaxima = []
    raisedBlockMaxima = []
    extrasMaximum = 0
    raisedMaximum = 0
    longestExtra = 0
    words = UserWords()
  }

  var isEmpty: Bool { words.isEmpty }

  /// - Parameter isElsewhere: whether a word the blob lacks is another blob's (in a
  ///   ``MultilingualDictionary``): then it is that blob's word, not an added one here.
  init(_ words: UserWords, dictionary: SwipeDictionary, isElsewhere: (String) -> Bool = { _ in false }) {
    guard !words.isEmpty else {
      self = .empty
      return
    }
    self.words = words
    let entries = words.entries
    let byUses = Self.frequencyByUses(dictionary)
    var blocked = Set<Int>()
    var raised: [(Int, UInt8)] = []
    var extras: [Extra] = []
    let centers = dictionary.keyCenters.map { (x: $0.x, y: $0.y) }
    var blockedLowercase = Set<String>()
    for entry in entries {
      if entry.kind == .blocked {
        // Every form of the word the blob stores that equals it ignoring case ("damn",
        // "Damn", "DAMN"), not those that differ by accents.
        let lower = entry.word.lowercased()
        blockedLowercase.insert(lower)
        for id in dictionary.ids(matchingFolded: entry.word, limit: 64)
        where dictionary.word(for: id)?.lowercased() == lower {
          blocked.insert(id)
        }
        continue
      }
      let frequency = byUses(max(1, entry.uses))
      if let id = dictionary.id(of: entry.word) {
        if let own = dictionary.frequency(of: id), frequency > own { raised.append((id, frequency)) }
        continue
      }
      if isElsewhere(entry.word) { continue }
      extras.append(Self.extra(entry.word, frequency: frequency, dictionary: dictionary, centers: centers))
    }
    // A blocked word also blocks the user's own words of that spelling in any case.
    extras.removeAll { blockedLowercase.contains($0.word.lowercased()) }
    extras.sort {
      $0.foldedUTF8 != $1.foldedUTF8
        ? $0.foldedUTF8.lexicographicallyPrecedes($1.foldedUTF8)
        : $0.word.utf8.lexicographicallyPrecedes($1.word.utf8)
    }
    raised.sort { $0.0 < $1.0 }
    raised.removeAll { blocked.contains($0.0) }
    self.blocked = WordIDSet(blocked, wordCount: dictionary.wordCount)
    raisedIDs = raised.map { Int32(truncatingIfNeeded: $0.0) }
    raisedBytes = raised.map(\.1)
    if raised.isEmpty {
      personalFrequencies = []
      personalMaxima = nil
    } else {
      var personal = dictionary.frequencies.withUnsafeBytes { Array($0.prefix(dictionary.wordCount)) }
      for (id, byte) in raised where id < personal.count { personal[id] = max(personal[id], byte) }
      personalMaxima = personal.withUnsafeBytes { FrequencyMaxima(UnsafeByteView($0), count: $0.count) }
      personalFrequencies = personal
    }
    self.extras = extras
    extrasByFrequency = extras.indices.sorted { (extras[$0].frequency, -$0) > (extras[$1].frequency, -$1) }
      .map { Int32($0) }
    (correctables, correctionIndex, correctableMaximum) = Self.correctionIndex(
      of: extras, alphabet: dictionary.alphabet)
    extraBlockMaxima = Self.blockMaxima(extras.map(\.frequency))
    raisedBlockMaxima = Self.blockMaxima(raisedBytes)
    extrasMaximum = extraBlockMaxima.max() ?? 0
    raisedMaximum = raisedBlockMaxima.max() ?? 0
    longestExtra = extras.map(\.word.unicodeScalars.count).max() ?? 0
  }

  /// A word the blob lacks, as the layer keeps it: its folded spelling, its key path (each
  /// key once in a row), its labels when the alphabet has them all, and its swipe features
  /// when its keys are within the feature records' range.
  private static func extra(
    _ word: String, frequency: UInt8, dictionary: SwipeDictionary, centers: [(x: Float, y: Float)]
  ) -> Extra {
    let keys: [UInt8]
    if let path = dictionary.layout.keyPath(for: word), path.allSatisfy({ $0 < 255 }) {
      var collapsed: [UInt8] = []
      for key in path where collapsed.last != UInt8(key) { collapsed.append(UInt8(key)) }
      keys = collapsed
    } else {
      keys = []
    }
    let scalars = Normalization.nfc(word).unicodeScalars.map {
      Self.label(of: $0, alphabet: dictionary.alphabet, layout: dictionary.layout)
    }
    let folded = Self.fold(word, alphabet: dictionary.alphabet, layout: dictionary.layout)
    let record =
      keys.isEmpty || keys.contains(where: { Int($0) >= min(FeatureLayout.maxKeys, centers.count) })
      ? nil
      : FeatureRecord(path: keys.map(Int.init), centers: centers, keyWidth: dictionary.keyWidth).packed
    return Extra(
      word: word, folded: folded, foldedUTF8: Array(folded.utf8), frequency: frequency,
      keys: keys, labels: scalars.contains(nil) ? nil : scalars.map { $0! }, record: record)
  }

  /// The extras that correction can reach (those with labels) in label order, the index of
  /// their correction keys, and their largest frequency.
  private static func correctionIndex(
    of extras: [Extra], alphabet: Alphabet
  ) -> (correctables: [Correctable], index: [UInt64: [Int32]], maximum: UInt8) {
    func folds(_ labels: [UInt8]) -> [UInt32] { labels.map { alphabet.folds[Int($0)].value } }
    let correctable = extras.indices.filter { extras[$0].labels != nil }
      .sorted { extras[$0].labels!.lexicographicallyPrecedes(extras[$1].labels!) }
    var index: [UInt64: [Int32]] = [:]
    for (position, i) in correctable.enumerated() {
      for key in Self.correctionKeys(folds(extras[i].labels!)) { index[key, default: []].append(Int32(position)) }
    }
    let correctables = correctable.map { i in
      let labels = extras[i].labels!
      return Correctable(
        index: Int32(i), letters: Self.letterMask(folds(labels)), length: Int32(labels.count),
        frequency: extras[i].frequency)
    }
    return (correctables, index, correctable.map { extras[$0].frequency }.max() ?? 0)
  }

  /// The largest byte of each ``blockSize`` bytes.
  private static func blockMaxima(_ bytes: [UInt8]) -> [UInt8] {
    stride(from: 0, to: bytes.count, by: blockSize).map { bytes[$0..<min($0 + blockSize, bytes.count)].max()! }
  }

  /// The keys of a word's first three folded letters with none or one of them left out (at
  /// most 4): two words whose first three letters are at most one edit apart share a key — a
  /// slip (the letter left out on both sides), a missing or extra letter (left out on one
  /// side, the third on the other), a swap (one of the two letters on each side). The typing
  /// model allows one edit in the first four letters with its default limits; an edit past
  /// the third letter leaves the first three alone or shifts one letter in.
  static func correctionKeys(_ folds: [UInt32]) -> Set<UInt64> {
    let head = Array(folds.prefix(3))
    var keys = Set<UInt64>()
    func key(_ skip: Set<Int>) -> UInt64 {
      var hash: UInt64 = 0xCBF2_9CE4_8422_2325
      for (i, scalar) in head.enumerated() where !skip.contains(i) {
        hash = (hash ^ UInt64(scalar)) &* 0x0000_0100_0000_01B3
      }
      return hash ^ UInt64(head.count - skip.count)
    }
    keys.insert(key([]))
    for a in head.indices { keys.insert(key([a])) }
    return keys
  }

  /// The set of a word's folded letters as 64 bits (bit `scalar % 64`; letters may share a
  /// bit). An edit adds at most one letter to either side of the difference of two words'
  /// sets, so a word with more letters than the model's `maxEdits` outside the input's, or
  /// the input with that many outside the word's, is out of its reach.
  static func letterMask(_ folds: [UInt32]) -> UInt64 {
    folds.reduce(0) { $0 | 1 << UInt64($1 & 63) }
  }

  /// The frequency byte of blob word `id` with the user's uses, or `nil` when no word is
  /// raised (the blob's byte is the word's) or `id` is no blob word.
  func personalFrequency(of id: Int) -> UInt8? {
    id >= 0 && id < personalFrequencies.count ? personalFrequencies[id] : nil
  }

  /// Calls `body` with each raised blob word in `range`, by ascending ID, skipping the
  /// blocks of ``blockSize`` whose largest byte `wanted` refuses.
  func forEachRaised(in range: Range<Int>, wanted: (UInt8) -> Bool, _ body: (Int, UInt8) -> Void) {
    var lo = raisedIDs.firstIndex(notBelow: range.lowerBound)
    while lo < raisedIDs.count, Int(raisedIDs[lo]) < range.upperBound {
      if lo % Self.blockSize == 0, !wanted(raisedBlockMaxima[lo / Self.blockSize]) {
        lo &+= Self.blockSize
        continue
      }
      body(Int(raisedIDs[lo]), raisedBytes[lo])
      lo &+= 1
    }
  }

  /// Calls `body` with each extra index in `range`, skipping the blocks of ``blockSize``
  /// whose largest byte `wanted` refuses.
  func forEachExtra(in range: Range<Int>, wanted: (UInt8) -> Bool, _ body: (Int) -> Void) {
    var i = range.lowerBound
    while i < range.upperBound {
      if i % Self.blockSize == 0, !wanted(extraBlockMaxima[i / Self.blockSize]) {
        i &+= Self.blockSize
        continue
      }
      body(i)
      i &+= 1
    }
  }

  /// The indices of the extra words whose folded form starts with `bytes` (a folded prefix
  /// in UTF-8).
  func extras(withFoldedPrefix bytes: [UInt8]) -> Range<Int> {
    // The first extra not below `bytes`, then the first past every one starting with it
    // (compared on the prefix's length: UTF-8 byte order is code point order).
    var lo = 0
    var hi = extras.count
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      if extras[mid].foldedUTF8.lexicographicallyPrecedes(bytes) { lo = mid &+ 1 } else { hi = mid }
    }
    let start = lo
    hi = extras.count
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      if !extras[mid].foldedUTF8.prefix(bytes.count).lexicographicallyPrecedes(bytes),
        extras[mid].foldedUTF8.starts(with: bytes)
      {
        lo = mid &+ 1
      } else {
        hi = mid
      }
    }
    return start..<lo
  }

  /// `word` folded as the blob's alphabet folds its letters (lowercase, accents removed:
  /// `Ü → u`), a letter the alphabet lacks as its key's letter (``label(of:alphabet:layout:)``:
  /// `Ł → l` on an English blob); any other character lowercased.
  static func fold(_ word: String, alphabet: Alphabet, layout: KeyboardLayout) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in Normalization.nfc(word).unicodeScalars {
      if let label = label(of: scalar, alphabet: alphabet, layout: layout) {
        scalars.append(alphabet.folds[Int(label)])
      } else {
        scalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
      }
    }
    return String(scalars)
  }

  /// The alphabet label a user's word's `scalar` is read as: its own, else (a letter the
  /// blob's alphabet lacks) its key's letter's, as the typing model reads a typed letter
  /// (`ł`, aliased to the `l` key, is `l`); `nil` when neither is in the alphabet.
  static func label(of scalar: Unicode.Scalar, alphabet: Alphabet, layout: KeyboardLayout) -> UInt8? {
    if let label = alphabet.label(for: scalar) { return label }
    guard case .key(let key) = layout.classify(scalar) else { return nil }
    return alphabet.label(for: layout.keys[key].character)
  }

  /// The frequency byte of a word used `uses` times: the byte of the blob's word at rank
  /// ⌈N / 2^(uses+1)⌉ by frequency (from a histogram of the `FREQ` bytes).
  private static func frequencyByUses(_ dictionary: SwipeDictionary) -> (Int) -> UInt8 {
    var histogram = [Int](repeating: 0, count: 256)
    for id in 0..<dictionary.wordCount { histogram[Int(dictionary.frequency(of: id) ?? 0)] += 1 }
    let total = dictionary.wordCount
    // One walk down the histogram for every use count a rank can tell apart (from 61 uses
    // on the rank is 1), the ranks growing as the uses fall: a table, not a walk per entry.
    var table = [UInt8](repeating: 0, count: 62)
    var byte = 255
    var seen = histogram[255]
    for uses in stride(from: 61, through: 1, by: -1) {
      let shift = uses + 1
      let rank = max(1, (total + (1 << shift) - 1) >> shift)
      while seen < rank, byte > 0 {
        byte -= 1
        seen += histogram[byte]
      }
      table[uses] = seen >= rank ? UInt8(byte) : 0
    }
    return { uses in table[min(max(uses, 1), 61)] }
  }

}
