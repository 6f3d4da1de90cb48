@_spi(SwipeDictInternals) import SwipeDictFormat

/// A SwipeDict blob, memory-mapped and ready for queries.
///
/// Opening maps the file read-only and validates the header, the section table and each
/// section's header — O(1) in the size of the dictionary: no word's bytes are scanned or
/// copied (only the layout, at most 63 keys, is decoded). Queries walk the mapped bytes in place. ``verify()`` checks every checksum and
/// the automaton's structure when you need certainty (after a download, say).
///
/// ```swift
/// let dictionary = try SwipeDictionary(contentsOf: "build/en.swipedict")
/// dictionary.contains("hello")              // true
/// let id = dictionary.id(of: "hello")!      // rank in the folding collation
/// dictionary.word(for: id)                  // "hello"
/// dictionary.frequency(of: id)              // 0…255, log scale
/// for (id, word) in dictionary.words(withPrefix: "hel").prefix(10) { … }
/// ```
///
/// Word IDs are `0..<wordCount`, the ranks of the words in the folding collation
/// (`a < A < ä < Ä < b …`): all words whose first letter folds to the same letter form one
/// contiguous ID range (``idRange(withPrefix:)``).
///
/// `SwipeDictionary` is an immutable value: share it freely between threads. No query
/// reads outside the mapping or loops, whatever the file holds; a damaged blob gives
/// `nil` or empty answers where it is damaged.
public struct SwipeDictionary: Sendable {
  let region: MappedRegion
  let dawg: DAWGView
  let frequencies: UnsafeByteView
  /// `ln(1 + maxCount)`: the scale of the frequency bytes.
  public let frequencyScale: Double
  /// The alphabet: every character the words use, as labels in collation order.
  package let alphabet: Alphabet
  /// The validated header and section table.
  package let contents: BlobContainer.Contents
  /// The swipe features (`FEAT`), if the blob has them.
  let featureView: FeatureView?
  /// The prefix tree and top list (`PTRE`), if the blob has them.
  let prefixTree: PrefixTreeView?
  /// The best words of the tree's interior nodes (format 1.3), when the blob has them.
  let bestLists: BestListView?
  /// The layout's key centers and key width.
  let keyGeometry: KeyGeometry
  /// Marked words and shortcuts (`MARK`), if the blob has them.
  let markView: MarkView?
  /// Word pairs (`BIGR`), if the blob has them.
  let bigramView: BigramView?

  /// Whether words marked possibly offensive are left out of every suggestion: top words,
  /// completions, corrections and swipe decoding, unless the user added or learned them
  /// (``userWords``). They stay words: ``contains(_:)`` and ``id(of:)`` find them. On by
  /// default, as AOSP keyboards' "Block offensive words"; turn it off for a user who turns
  /// that setting off.
  public var blocksOffensiveWords = true

  /// The user's words, merged into every query (`docs/user-dictionary.md`): blocked words are
  /// never suggested, uses raise a word's frequency (``personalFrequency(of:)``), and added
  /// or learned words the blob lacks complete, correct and swipe like the blob's words, under
  /// IDs from ``wordCount`` up (``word(for:)`` spells them).
  ///
  /// ```swift
  /// if try store.refresh() { dictionary.userWords = store.words }   // after the app wrote
  /// ```
  ///
  /// Setting it prepares the snapshot against this blob: O(entries + words of the blob) (a
  /// pass over `FREQ` places the users' counts among the blob's). A ``Corrector`` or a
  /// decoder keeps the dictionary value it was made from: make them again after setting it.
  /// The decoder matches the user's words after the blob's candidates; when a deadline cuts
  /// the search short, they are left out (the decoding says it is incomplete).
  public var userWords: UserWords {
    get { userLayer.words }
    set {
      userLayer = UserLayer(newValue, dictionary: self)
      usersOffensiveWords = offensiveWords(of: userLayer)
    }
  }

  /// ``userWords`` prepared against this blob.
  private(set) var userLayer = UserLayer.empty
  /// The blob's words marked possibly offensive that the user added or learned: suggested
  /// like any other word (``isSuggestible(_:)``).
  private(set) var usersOffensiveWords = WordIDSet()

  /// Sets ``userWords``, leaving out of the added words those `isElsewhere` says another
  /// language's blob has (``MultilingualDictionary/userWords``).
  mutating func setUserWords(_ words: UserWords, isElsewhere: (String) -> Bool) {
    userLayer = UserLayer(words, dictionary: self, isElsewhere: isElsewhere)
    usersOffensiveWords = offensiveWords(of: userLayer)
  }

  /// Maps and validates a blob file.
  /// - Parameters:
  ///   - path: the blob's path.
  ///   - verify: also check every checksum and the automaton's structure (reads the whole file).
  /// - Throws: `SwipeDictError.io` if the file cannot be mapped, `.invalid` if it is not a
  ///   valid blob (with the section and offset of the damage).
  public init(contentsOf path: String, verify: Bool = false) throws(SwipeDictError) {
    try self.init(region: try MappedRegion(path: path), verify: verify)
  }

  /// Opens a blob held in memory (copied once into an aligned buffer).
  /// - Parameters:
  ///   - bytes: the blob.
  ///   - verify: also run ``verify()``.
  public init(bytes: [UInt8], verify: Bool = false) throws(SwipeDictError) {
    let region = bytes.withUnsafeBytes { MappedRegion(copying: $0) }
    try self.init(region: region, verify: verify)
  }

  private init(region: MappedRegion, verify: Bool) throws(SwipeDictError) {
    do throws(FormatError) {
      let file = region.bytes
      let contents = try BlobContainer.parse(file)
      let sections = SectionReader(contents: contents, file: file)
      let (alphabetBytes, _, alphabetOffset) = try sections.section(.alphabet)
      let alphabet = try Alphabet(decoding: alphabetBytes, fileOffset: alphabetOffset)
      let (dawgBytes, dawgHead, dawgOffset) = try sections.section(.dawg)
      let dawg = try DAWGView(
        section: dawgBytes, head: dawgHead, fileOffset: dawgOffset, alphabetCount: alphabet.count)
      let (frequencyBytes, frequencyHead, frequencyOffset) = try sections.section(.frequency)
      guard frequencyBytes.count == FrequencyLayout.headerSize + dawg.wordCount,
        frequencyHead.uint64(at: 0) == UInt64(dawg.wordCount),
        let scale = frequencyHead.float64(at: 8), scale.isFinite, scale >= 0
      else {
        throw FormatError(
          .malformed("frequency column does not match the \(dawg.wordCount) words"),
          section: .frequency, offset: frequencyOffset)
      }
      let (layoutBytes, _, layoutOffset) = try sections.section(.layout)
      let layout = try KeyboardLayout(decoding: layoutBytes, fileOffset: layoutOffset)
      let geometry = KeyGeometry(layoutSection: layoutBytes)
      let optional = try sections.optionalViews(wordCount: dawg.wordCount, layoutKeys: geometry.centers.count)
      self.bestLists = optional.best
      self.markView = optional.marks
      self.bigramView = optional.bigrams
      self.featureView = optional.features
      self.prefixTree = optional.tree
      self.keyGeometry = geometry
      self.layout = layout
      self.region = region
      self.contents = contents
      self.alphabet = alphabet
      self.dawg = dawg
      self.frequencies = frequencyBytes.slice(
        offset: FrequencyLayout.headerSize, length: dawg.wordCount)!
      self.frequencyScale = scale
    } catch {
      throw .invalid(Self.blamingHeadCopy(error, file: region.bytes))
    }
    if verify { try self.verify() }
  }

  /// The sections of a parsed blob as open reads them.
  private struct SectionReader {
    let contents: BlobContainer.Contents
    let file: UnsafeByteView

    /// A section's bytes, its head (where its fixed header is read: the table's copy from
    /// format 1.4, so open reads only the file's first page and the small sections) and
    /// where it starts in the file.
    func section(_ tag: SectionTag) throws(FormatError) -> (UnsafeByteView, UnsafeByteView, Int) {
      guard let entry = contents.section(tag) else {
        throw FormatError(.missingSection, section: tag, offset: BlobFormat.headerSize)
      }
      // safe: `parse` checked that every section lies inside the file.
      return (
        file.slice(offset: Int(entry.offset), length: Int(entry.length))!,
        BlobContainer.head(of: entry, in: file), Int(entry.offset)
      )
    }

    /// The views of the sections a blob may lack: blobs of format 1.0 have no features and
    /// no tree (their swipe queries answer empty), and only some lists give marks or pairs.
    func optionalViews(wordCount: Int, layoutKeys: Int) throws(FormatError) -> (
      features: FeatureView?, tree: PrefixTreeView?, best: BestListView?, marks: MarkView?, bigrams: BigramView?
    ) {
      let flags = contents.header.flags
      var features: FeatureView?
      if contents.section(.features) != nil {
        let (bytes, head, offset) = try section(.features)
        features = try FeatureView(
          section: bytes, head: head, fileOffset: offset, wordCount: wordCount, layoutKeys: layoutKeys,
          narrowRecords: flags & BlobFormat.narrowFeaturesFlag != 0)
      }
      var tree: PrefixTreeView?
      if contents.section(.prefixTree) != nil {
        let (bytes, head, offset) = try section(.prefixTree)
        tree = try PrefixTreeView(
          section: bytes, head: head, fileOffset: offset, wordCount: wordCount,
          rankedLeaves: flags & BlobFormat.rankedLeavesFlag != 0)
      }
      var best: BestListView?
      if contents.section(.bestLists) != nil {
        let (bytes, head, offset) = try section(.bestLists)
        guard let tree else {
          throw FormatError(.malformed("best lists without a prefix tree"), section: .bestLists, offset: offset)
        }
        best = try BestListView(
          section: bytes, head: head, fileOffset: offset, wordCount: wordCount, treeNodeCount: tree.nodeCount)
      }
      var marks: MarkView?
      if contents.section(.marks) != nil {
        let (bytes, head, offset) = try section(.marks)
        marks = try MarkView(section: bytes, head: head, fileOffset: offset, wordCount: wordCount)
      }
      var bigrams: BigramView?
      if contents.section(.bigrams) != nil {
        let (bytes, head, offset) = try section(.bigrams)
        bigrams = try BigramView(section: bytes, head: head, fileOffset: offset, wordCount: wordCount)
      }
      return (features, tree, best, marks, bigrams)
    }
  }

  /// `error`, or, when a section's header was refused and a copy in the table (format 1.4)
  /// differs from its section, that copy's error: the headers open checks come from the
  /// copies, so a damaged copy is the likely cause, even of an error another section reports
  /// (a DAWG word count off by one shows as a FREQ column of the wrong length). The refused
  /// section's copy is compared first. Runs on the error path only.
  private static func blamingHeadCopy(_ error: FormatError, file: UnsafeByteView) -> FormatError {
    guard error.section != nil, let contents = try? BlobContainer.parse(file) else { return error }
    let entries =
      contents.sections.filter { $0.tag == error.section } + contents.sections.filter { $0.tag != error.section }
    for entry in entries {
      do throws(FormatError) {
        try BlobContainer.checkHeadCopy(of: entry, in: file)
      } catch let copyError {
        return copyError
      }
    }
    return error
  }

  /// The number of words.
  public var wordCount: Int { dawg.wordCount }

  /// The keyboard layout the blob was built for, decoded and checked once at open (at
  /// most 63 keys: a few kilobytes).
  public let layout: KeyboardLayout

  /// The longest word a blob holds, in Unicode scalars: 128. `swipedict build` refuses longer
  /// words, and completion and correction answer nothing for longer typed text (correction's
  /// time grows with the typed length).
  public static let maximumWordLength = BlobFormat.maxWordLength

  /// The format version the blob was written with.
  public var formatVersion: FormatVersion { contents.header.version }

  /// The blob's size in bytes.
  public var fileSize: Int { region.bytes.count }

  /// The build metadata (UTF-8 JSON: inputs and their checksums, options, tool version), if any.
  public var metadata: String? {
    guard let entry = contents.section(.metadata),
      let bytes = region.bytes.bytes(offset: Int(entry.offset), length: Int(entry.length))
    else { return nil }
    return String(validatingUTF8: bytes)
  }

  // MARK: - Exact lookup

  /// Whether `word` is in the dictionary, exactly (case and accents as given, after NFC): a
  /// word of the blob, or one the user added or learned (``userWords``; ``id(of:)`` finds
  /// only the blob's).
  /// - Complexity: O(length of `word`), no allocation for ASCII words.
  public func contains(_ word: String) -> Bool {
    if id(of: word) != nil { return true }
    guard !userLayer.isEmpty, let entry = userLayer.words.entry(for: word) else { return false }
    return entry.kind != .blocked
  }

  /// The ID of `word`, if it is in the dictionary exactly.
  /// - Complexity: O(length of `word`).
  public func id(of word: String) -> Int? {
    var word = word
    // ASCII fast path over the UTF-8 bytes: no decoding, no normalization needed.
    let fast: FastLookup? = word.utf8.withContiguousStorageIfAvailable { bytes in
      var address = dawg.root
      var output = 0
      for (index, byte) in bytes.enumerated() {
        guard byte < 0x80 else { return .notASCII }
        let label = alphabet.asciiLabelPlusOne(byte)
        guard label != 0, let (next, out) = dawg.step(from: address, label: label &- 1) else {
          // Absent, unless a later non-ASCII part could normalize onto this one ("e" + "◌́").
          return bytes[index...].contains { $0 >= 0x80 } ? .notASCII : .absent
        }
        output &+= out
        address = next
      }
      return dawg.isFinal(address) && output < wordCount ? .found(output) : .absent
    }
    switch fast {
    case .found(let id): return id
    case .absent: return nil
    case .notASCII, nil: break
    }
    word = Normalization.nfc(word)
    var address = dawg.root
    var output = 0
    for scalar in word.unicodeScalars {
      guard let label = alphabet.label(for: scalar),
        let (next, out) = dawg.step(from: address, label: label)
      else { return nil }
      output &+= out
      address = next
    }
    return dawg.isFinal(address) && output >= 0 && output < wordCount ? output : nil
  }

  /// The word with `id`: a blob word for `0..<wordCount`, from ``wordCount`` up a word of
  /// the user's the blob lacks (``userWords``), else `nil`.
  /// - Complexity: O(length of the word × log(fan-out)).
  public func word(for id: Int) -> String? {
    guard let labels = dawg.labels(of: id) else { return userExtra(id)?.word }
    return string(labels)
  }

  /// The user's word with ID `id` (``wordCount`` or more), if any.
  func userExtra(_ id: Int) -> UserLayer.Extra? {
    let index = id &- wordCount
    guard id >= wordCount, index < userLayer.extras.count else { return nil }
    return userLayer.extras[index]
  }

  /// The frequency byte the queries rank word `id` by: the blob's, raised by the user's uses
  /// of the word (``userWords``); for a user's word (ID ``wordCount`` or more), what its uses
  /// give. `nil` if `id` is no word.
  public func personalFrequency(of id: Int) -> UInt8? {
    guard let own = frequencies.byte(at: id) else { return userExtra(id)?.frequency }
    return userLayer.personalFrequency(of: id) ?? own
  }

  /// The quantized frequency of the word with `id` (see ``frequency(of:)-(String)``).
  public func frequency(of id: Int) -> UInt8? {
    frequencies.byte(at: id)
  }

  /// The quantized frequency of `word`: 0…255 on a log scale, 255 for the most frequent
  /// word, `round(255 × ln(1 + count) / ln(1 + maxCount))`, at least 1 for a seen word.
  /// Each step is a factor of `(1 + maxCount)^(1/255)` in count. `nil` if absent.
  public func frequency(of word: String) -> UInt8? {
    id(of: word).flatMap { frequency(of: $0) }
  }

  /// The count a frequency byte stands for, on this blob's scale (approximate, ±½ step).
  public func approximateCount(forFrequency q: UInt8) -> Double {
    FrequencyLayout.approximateCount(q, scale: frequencyScale)
  }

  // MARK: - Folded lookup

  /// The IDs of the words that equal `word` when case and accents are ignored
  /// (`"uber"` finds `"Über"` and `"über"`), in ID order. Letters typed as two ("ss" for
  /// ß, "ae" for æ, "oe" for œ) find them too when the blob has them: `"strasse"` finds
  /// `"Straße"`, `"coeur"` finds `"cœur"`; a letter the blob's alphabet lacks is read as
  /// the letter of its key on the layout (`"łower"` finds `"lower"` on an English blob)
  /// (``foldedSpellings(of:)``).
  /// - Parameters:
  ///   - word: the query.
  ///   - limit: the most IDs to return.
  public func ids(matchingFolded word: String, limit: Int = 64) -> [Int] {
    // No word is longer than the longest one; this also bounds the search's recursion.
    guard word.unicodeScalars.count <= 4 * dawg.longestWord else { return [] }
    let spellings = foldedSpellings(of: word)
    guard spellings.count > 1 else { return spellings.first.map { ids(matching: $0, limit: limit) } ?? [] }
    var all = Set<Int>()
    for classes in spellings { all.formUnion(ids(matching: classes, limit: limit)) }
    return Array(all.sorted().prefix(limit))
  }

  /// The letters a keyboard without them types as two: ß as "ss", æ as "ae", œ as "oe".
  static let twoLetterSpellings: [(letters: [Unicode.Scalar], scalar: Unicode.Scalar)] = [
    (["s", "s"], "ß"), (["a", "e"], "æ"), (["o", "e"], "œ"),
  ]

  /// The folding classes (label ranges) `text` may stand for, one array per spelling:
  /// each character's folding class (a letter the alphabet lacks: its key's letter's, as
  /// the typing model reads it, `ł` on the `l` key as `l`), and, where the blob's alphabet
  /// has ß, æ or œ, each "ss", "ae" or "oe" (any case) also read as exactly that letter (or
  /// its capital): at most 8 spellings (the first three such pairs). Empty when no spelling
  /// can match.
  func foldedSpellings(of text: String) -> [[Range<Int>]] {
    let scalars = Array(Normalization.nfc(text).unicodeScalars)
    // One class per character; empty where a character folds like nothing in the alphabet.
    var classes: [Range<Int>] = []
    classes.reserveCapacity(scalars.count)
    var missing = false
    for scalar in scalars {
      var range = alphabet.foldingLabels(for: scalar)
      if range.isEmpty, case .key(let key) = layout.classify(scalar) {
        range = alphabet.foldingLabels(for: layout.keys[key].character)
      }
      missing = missing || range.isEmpty
      classes.append(range)
    }
    let sites = twoLetterSites(in: scalars)
    if sites.isEmpty { return missing ? [] : [classes] }
    var spellings: [[Range<Int>]] = []
    for mask in 0..<(1 << sites.count) {
      var out: [Range<Int>] = []
      var at = 0
      for (bit, site) in sites.enumerated() {
        out += classes[at..<site.index]
        if mask & (1 << bit) != 0 {
          out.append(site.letter)
        } else {
          out += classes[site.index...(site.index + 1)]
        }
        at = site.index + 2
      }
      out += classes[at...]
      if !out.contains(where: \.isEmpty) { spellings.append(out) }
    }
    return spellings
  }

  /// Whether `text` holds an "ss", "ae" or "oe" that ``foldedSpellings(of:)`` also reads as
  /// one letter of this blob's alphabet (so folded queries of `text` answer more than its
  /// folding classes alone would).
  package func readsLettersTypedAsTwo(in text: String) -> Bool {
    !twoLetterSites(in: Array(Normalization.nfc(text).unicodeScalars)).isEmpty
  }

  /// Where "ss", "ae" or "oe" (any case) in `scalars` stands for a letter the alphabet has:
  /// the pair's index and that letter's labels, the first three such pairs, left to right
  /// without overlap. Most text has no such pair: the alphabet is asked only when one is typed.
  private func twoLetterSites(in scalars: [Unicode.Scalar]) -> [(index: Int, letter: Range<Int>)] {
    var sites: [(index: Int, letter: Range<Int>)] = []
    var i = 0
    while i + 1 < scalars.count, sites.count < 3 {
      let first = KeyboardLayout.lowercase(scalars[i])
      let second = KeyboardLayout.lowercase(scalars[i + 1])
      if let pair = Self.twoLetterSpellings.first(where: { $0.letters[0] == first && $0.letters[1] == second }),
        let letter = twoLetterClass(pair.scalar)
      {
        sites.append((i, letter))
        i += 2
      } else {
        i += 1
      }
    }
    return sites
  }

  /// The labels of a letter typed as two (ß, æ, œ) and of its capital when that is the next
  /// label, or `nil` when the alphabet lacks it.
  private func twoLetterClass(_ scalar: Unicode.Scalar) -> Range<Int>? {
    guard let label = alphabet.label(for: scalar).map(Int.init) else { return nil }
    // The capital (Œ, Æ; ẞ) when it is the next label.
    let capital = scalar.properties.uppercaseMapping.unicodeScalars
    let upper = capital.count == 1 ? alphabet.label(for: capital.first!).map(Int.init) : nil
    return label..<(upper == label + 1 ? label + 2 : label + 1)
  }

  /// The IDs of the words whose characters fall in `classes`, one class per character.
  private func ids(matching classes: [Range<Int>], limit: Int) -> [Int] {
    var results: [Int] = []
    guard classes.count <= dawg.longestWord else { return [] }
    // Depth-first over the matching transitions; a budget bounds the work on any blob.
    var budget = 1 << 16
    func search(_ address: Int, _ depth: Int, _ output: Int) {
      guard results.count < limit, budget > 0, let node = dawg.node(at: address) else { return }
      budget -= 1
      if depth == classes.count {
        if node.isFinal, output < wordCount { results.append(output) }
        return
      }
      let wanted = classes[depth]
      for i in 0..<node.count {
        let label = Int(dawg.label(node, i))
        if label < wanted.lowerBound { continue }
        if label >= wanted.upperBound { break }
        guard let next = dawg.target(node, i) else { return }
        search(next, depth + 1, output &+ dawg.output(node, i))
      }
    }
    search(dawg.root, 0, 0)
    return results
  }

  // MARK: - Prefixes

  /// The IDs of the words that start with `prefix` (exactly): one contiguous range, since IDs
  /// are ranks. Empty when no word has the prefix.
  /// - Complexity: O(length of `prefix` + length of the longest word below it).
  public func idRange(withPrefix prefix: String) -> Range<Int> {
    guard let labels = labels(of: prefix), let (address, output) = dawg.walk(labels),
      let count = dawg.wordCount(below: address), output + count <= wordCount
    else { return 0..<0 }
    return output..<(output + count)
  }

  /// The words that start with `prefix` (exactly), lazily, in ID order.
  ///
  /// `words(withPrefix: "")` lists the whole dictionary.
  public func words(withPrefix prefix: String) -> PrefixWords {
    guard let labels = labels(of: prefix), let (address, output) = dawg.walk(labels) else {
      return PrefixWords(dictionary: self, start: nil, prefix: [], firstID: 0)
    }
    return PrefixWords(dictionary: self, start: address, prefix: labels, firstID: output)
  }

  // MARK: - Helpers

  /// The labels spelling `text`, or `nil` if a character is not in the alphabet.
  func labels(of text: String) -> [UInt8]? {
    var labels: [UInt8] = []
    for scalar in Normalization.nfc(text).unicodeScalars {
      guard let label = alphabet.label(for: scalar) else { return nil }
      labels.append(label)
    }
    return labels
  }

  /// The text a label sequence spells, or `nil` if a label is outside the alphabet.
  func string(_ labels: some Collection<UInt8>) -> String? {
    // The UTF-8 length first, so the string is written in place without a byte array.
    var length = 0
    for label in labels {
      guard Int(label) < alphabet.count else { return nil }
      length &+= UTF8.width(alphabet.scalars[Int(label)])
    }
    return String(unsafeUninitializedCapacity: length) { buffer in
      var at = 0
      for label in labels {
        // safe: every label was checked against the alphabet above.
        let scalar = alphabet.scalars[Int(label)]
        if scalar.value < 0x80 {
          buffer[at] = UInt8(truncatingIfNeeded: scalar.value)
          at &+= 1
        } else {
          for unit in UTF8.encode(scalar)! {  // safe: every scalar encodes
            buffer[at] = unit
            at &+= 1
          }
        }
      }
      return at
    }
  }
}

/// The outcome of the ASCII fast path of `id(of:)`.
private enum FastLookup {
  case found(Int)
  case absent
  case notASCII
}

/// The words below a prefix, in ID order: a lazy sequence of `(id, word)`.
///
/// Each step does work proportional to the length of the words, never more: on a damaged
/// blob the sequence ends early instead of looping.
public struct PrefixWords: Sequence, Sendable {
  let dictionary: SwipeDictionary
  let start: Int?
  let prefix: [UInt8]
  let firstID: Int

  public func makeIterator() -> Iterator {
    Iterator(words: self)
  }

  /// Iterates depth-first over the automaton below the prefix. Entering a node decodes all
  /// its transitions at once onto a shared stack of edges; a level keeps only where its
  /// edges are and the word's UTF-8 length and label count, so a label costs one node decode
  /// (or one link of a chain) and a word one String.
  public struct Iterator: IteratorProtocol {
    private struct Frame {
      /// The level's edges are `start..<end` of `edges`; `next` is the next one to follow.
      var start: Int
      var next: Int
      var end: Int
      /// The word up to this level's node: its UTF-8 length and its number of labels.
      var bytes: Int
      var depth: Int
    }

    private let dictionary: SwipeDictionary
    /// The alphabet's characters, by label.
    private let scalars: [Unicode.Scalar]
    private var stack: [Frame] = []
    private var edges: [DAWGView.Edge] = []
    private var utf8: [UInt8] = []
    private var nextID: Int
    private var pendingRoot: Int?
    /// The number of labels of the prefix.
    private let prefixLength: Int
    /// Whether the node last entered is final.
    private var isFinalEntry = false
    /// The final node without transitions (most words end there), entered without a level,
    /// or -1 if the automaton's header names no such node.
    private let sink: Int
    /// The steps taken so far (levels pushed or popped, chain links followed), counted
    /// apart from the budget that limits them, for the tests that hold `next()` to it.
    private(set) var steps = 0

    init(words: PrefixWords) {
      dictionary = words.dictionary
      scalars = words.dictionary.alphabet.scalars
      nextID = words.firstID
      pendingRoot = words.start
      prefixLength = words.prefix.count
      sink = words.dictionary.dawg.checkedSink ?? -1
      for label in words.prefix where Int(label) < dictionary.alphabet.count {
        Iterator.appendUTF8(dictionary.alphabet.scalars[Int(label)], to: &utf8)
      }
      stack.reserveCapacity(16)
      edges.reserveCapacity(64)
    }

    public mutating func next() -> (id: Int, word: String)? {
      let dawg = dictionary.dawg
      // A valid automaton yields the next word within `longestWord` pops and as many labels
      // (a push or a chain link each): every step is charged, so a damaged one cannot make a
      // call cost more than that.
      var budget = 2 &* dawg.longestWord &+ 4
      if let root = pendingRoot {
        pendingRoot = nil
        guard enter(root, depth: prefixLength, dawg, budget: &budget) else { return nil }
        if isFinalEntry { return emit() }
      }
      while charge(&budget), let top = stack.last {
        steps &+= 1
        if top.next == top.end {
          stack.removeLast()
          // One at a time: `removeLast(_:)` goes through the slower `replaceSubrange`.
          for _ in top.start..<top.end { edges.removeLast() }
          continue
        }
        stack[stack.count &- 1].next = top.next &+ 1
        let edge = edges[top.next]
        while utf8.count > top.bytes { utf8.removeLast() }
        guard append(edge.label, depth: top.depth, dawg),
          enter(Int(edge.target), depth: top.depth &+ 1, dawg, budget: &budget)
        else { break }
        if isFinalEntry { return emit() }
      }
      stack.removeAll()
      return nil
    }

    /// Appends a label's UTF-8 to the word, `depth` being the word's labels before it;
    /// `false` if the label is not in the alphabet or the word would be longer than any.
    @inline(__always)
    private mutating func append(_ label: UInt8, depth: Int, _ dawg: DAWGView) -> Bool {
      guard Int(label) < scalars.count, depth < dawg.longestWord else { return false }
      Iterator.appendUTF8(scalars[Int(label)], to: &utf8)
      return true
    }

    /// Takes one step of `budget`; `false` when none is left.
    @inline(__always)
    private func charge(_ budget: inout Int) -> Bool {
      guard budget > 0 else { return false }
      budget &-= 1
      return true
    }

    /// Pushes the node at `address`, reached with `depth` labels, with its edges; a chain of
    /// single-transition nodes that are not final is followed without a level each, a step
    /// of `budget` per link. `false` if a node is damaged or the budget runs out.
    private mutating func enter(_ address: Int, depth: Int, _ dawg: DAWGView, budget: inout Int) -> Bool {
      var address = address
      var depth = depth
      // Each link's target is below it, so the chain ends.
      while let link = dawg.chainLink(at: address) {
        guard charge(&budget) else { return false }
        steps &+= 1
        guard append(link.label, depth: depth, dawg) else { return false }
        depth &+= 1
        address = Int(link.target)
      }
      if address == sink {
        // No edges to push: the word ends here, and the next call goes on from the level above.
        isFinalEntry = true
        return true
      }
      let start = edges.count
      guard let isFinal = dawg.appendEdges(of: address, to: &edges) else { return false }
      stack.append(Frame(start: start, next: start, end: edges.count, bytes: utf8.count, depth: depth))
      isFinalEntry = isFinal
      return true
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
      if scalar.value < 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: scalar.value))
      } else {
        bytes.append(contentsOf: UTF8.encode(scalar)!)  // safe: every scalar encodes
      }
    }

    private mutating func emit() -> (id: Int, word: String)? {
      guard nextID < dictionary.wordCount else {
        stack.removeAll()
        return nil
      }
      defer { nextID &+= 1 }
      return (nextID, String(decoding: utf8, as: UTF8.self))
    }
  }
}
