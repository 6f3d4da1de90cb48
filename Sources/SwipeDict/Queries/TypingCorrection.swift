@_spi(SwipeDictInternals) import SwipeDictFormat

/// The costs of the typing corrector's weighted edit distance (``CorrectionModel/typing(_:)``).
///
/// Costs are in frequency steps of 1/32 of a decade, the scale of AOSP's `f=` values: an edit
/// costing 32 ranks a word as if it were ten times rarer. A word's score is its log frequency
/// less the cheapest way its spelling turns into the typed letters, so the costs are the
/// negative log odds of each kind of slip against the frequency prior. The defaults start
/// from AOSP LatinIME's typing costs (`scoring_params.cpp`, converted to these steps) and were
/// fitted on public lists of real English misspellings and on keyboard-style typos; see
/// docs/correction.md for the data, the fit and what each cost buys.
///
/// Letters compare folded (case and accents free); keys are the blob's layout.
public struct TypingCosts: Sendable, Hashable {
  /// A letter typed with a key that touches the intended letter's key (`hrllo`).
  public var proximity = 104
  /// Added when that slip is the word's first letter (people aim the first letter best).
  public var firstLetterProximity = 2
  /// One vowel typed for another (`seperate`): a spelling error, not a slip.
  public var vowel = 92
  /// Any other letter typed for the intended one.
  public var substitution = 135
  /// A letter of the word not typed (`hllo`).
  public var omission = 74
  /// One of a doubled letter not typed (`acomodate`).
  public var doubledOmission = 30
  /// The word's first letter not typed.
  public var firstOmission = 72
  /// A character without a letter key (apostrophe, hyphen) left out or typed extra (`dont`).
  public var punctuation = 23
  /// A letter typed that the word does not have (`heello`).
  public var insertion = 149
  /// The extra letter repeats the letter before it (`helllo`).
  public var repeatedInsertion = 61
  /// The extra letter's key touches the key of a letter typed beside it (a finger on two keys).
  public var nearInsertion = 105
  /// Added when the extra letter is the first one typed.
  public var firstInsertion = 17
  /// Two neighbouring letters typed in the wrong order (`teh`).
  public var transposition = 64
  /// Words whose spelling costs more than this are not suggested; it bounds the search.
  public var maxCost = 300
  /// Suggestions scoring more than this below the best are left out; it bounds the search.
  public var margin = 128
  /// Words that need more edits than this (0…6; larger values count as 6) are not suggested,
  /// however cheap each one; it bounds the search too (real misspellings rarely need more
  /// than two). An edit is any operation of the table but a match.
  public var maxEdits = 2
  /// The most edits an alignment may have while it has consumed no more than the word's first
  /// ``earlyLetters`` letters (people rarely get two of them wrong); it bounds the search
  /// where it branches most. Letters typed beside those first letters count too, so a word
  /// of up to `earlyLetters` letters allows `maxEarlyEdits` edits in all ("thhee" is not
  /// "the" by default).
  public var maxEarlyEdits = 1
  /// How many letters at the start of a word ``maxEarlyEdits`` covers (0…8; larger count as 8).
  public var earlyLetters = 4

  /// The fitted costs.
  public init() {}

  /// The costs' names, as tools spell them (`--cost omission=90`).
  public static let names = [
    "proximity", "firstLetterProximity", "vowel", "substitution", "omission", "doubledOmission",
    "firstOmission", "punctuation", "insertion", "repeatedInsertion", "nearInsertion", "firstInsertion",
    "transposition", "maxCost", "margin", "maxEdits", "maxEarlyEdits", "earlyLetters",
  ]

  /// The cost called `name` (one of ``names``), or `nil` for another name; setting an unknown
  /// name does nothing.
  public subscript(name: String) -> Int? {
    get { Self.keyPath(name).map { self[keyPath: $0] } }
    set {
      if let keyPath = Self.keyPath(name), let newValue { self[keyPath: keyPath] = newValue }
    }
  }

  private static func keyPath(_ name: String) -> WritableKeyPath<TypingCosts, Int>? {
    switch name {
    case "proximity": \.proximity
    case "firstLetterProximity": \.firstLetterProximity
    case "vowel": \.vowel
    case "substitution": \.substitution
    case "omission": \.omission
    case "doubledOmission": \.doubledOmission
    case "firstOmission": \.firstOmission
    case "punctuation": \.punctuation
    case "insertion": \.insertion
    case "repeatedInsertion": \.repeatedInsertion
    case "nearInsertion": \.nearInsertion
    case "firstInsertion": \.firstInsertion
    case "transposition": \.transposition
    case "maxCost": \.maxCost
    case "maxEdits": \.maxEdits
    case "margin": \.margin
    case "maxEarlyEdits": \.maxEarlyEdits
    case "earlyLetters": \.earlyLetters
    default: nil
    }
  }

  /// The largest value a cost may take: larger ones count as this, negative ones as 0 (and
  /// every edit costs at least one of the blob's frequency steps).
  public static let maxValue = 10_000
}

/// The typing corrector: a depth-first walk of the automaton that keeps, per node, the row of
/// a weighted Damerau–Levenshtein table (optimal string alignment) between the typed letters
/// and the node's prefix, and scores each word as its frequency byte less its cost.
///
/// Pruning: a branch ends when its row's least cost exceeds `maxCost`, or when the most
/// frequent word below it (a range maximum over the frequency bytes, since a node's words are
/// a range of IDs) less that least cost cannot beat the current `limit`-th suggestion.
/// Children are visited best bound first, so good suggestions come early and the bound bites.
/// Work is bounded on any blob: at most `nodeBudget` nodes per call.
struct TypingSearch: Sendable {
  /// What the search needs of one label.
  struct Letter: Sendable {
    /// The folded scalar's value (case and accents removed).
    var fold: UInt32
    /// Its key on the layout, or -1.
    var key: Int32
    /// A character without a key that words may contain (apostrophe, hyphen).
    var isPunctuation: Bool
    var isVowel: Bool
  }

  /// The costs in the blob's frequency steps.
  struct Scaled: Sendable {
    var proximity, firstLetterProximity, vowel, substitution: Int32
    var omission, doubledOmission, firstOmission, punctuation: Int32
    var insertion, repeatedInsertion, nearInsertion, firstInsertion, transposition, maxCost: Int32
    var maxEdits: Int32
    var earlyEdits: Int32
    var earlyLetters: Int
    var margin: Int32

    init(_ costs: TypingCosts, stepsPerUnit: Double) {
      // At least one step: an edit must cost something, or a row whose cells have used all
      // their edits could still take a free one (the search's filters assume it cannot).
      func s(_ value: Int) -> Int32 {
        let clamped = min(max(value, 0), TypingCosts.maxValue)
        return max(1, Int32((Double(clamped) * stepsPerUnit).rounded()))
      }
      proximity = s(costs.proximity)
      firstLetterProximity = s(costs.firstLetterProximity)
      vowel = s(costs.vowel)
      substitution = s(costs.substitution)
      omission = s(costs.omission)
      doubledOmission = s(costs.doubledOmission)
      firstOmission = s(costs.firstOmission)
      punctuation = s(costs.punctuation)
      insertion = s(costs.insertion)
      repeatedInsertion = s(costs.repeatedInsertion)
      nearInsertion = s(costs.nearInsertion)
      firstInsertion = s(costs.firstInsertion)
      transposition = s(costs.transposition)
      maxCost = s(costs.maxCost)
      maxEdits = Int32(min(max(costs.maxEdits, 0), 6))
      earlyEdits = Int32(min(max(costs.maxEarlyEdits, 0), 6))
      earlyLetters = min(max(costs.earlyLetters, 0), 8)
      margin = s(costs.margin)
    }
  }

  /// At most this many automaton nodes per call (a damaged or adversarial blob stays cheap).
  static let nodeBudget = 400_000

  let costs: TypingCosts
  let scaled: Scaled
  /// Blob frequency steps per cost unit (1/32 decade).
  let stepsPerUnit: Double
  /// The letter of each label.
  let labelLetters: [Letter]
  private let near: [Bool]
  private let keyCount: Int
  private let layout: KeyboardLayout
  private let alphabet: Alphabet
  /// The frequency bytes the walk ranks by when the user raised words
  /// (``UserLayer/personalFrequencies``; empty: the blob's), and their range maxima.
  private let personalFrequencies: [UInt8]
  private let maxima: FrequencyMaxima

  init(dictionary d: SwipeDictionary, costs: TypingCosts) {
    self.costs = costs
    // The blob's byte is 255 · ln(1 + count) / frequencyScale: 255 · ln 10 / scale per decade.
    let perDecade = d.frequencyScale > 0 ? 255 * 2.302585092994046 / d.frequencyScale : 255
    stepsPerUnit = min(max(perDecade / 32, 1e-3), 64)
    scaled = Scaled(costs, stepsPerUnit: stepsPerUnit)
    layout = d.layout
    alphabet = d.alphabet
    keyCount = layout.keys.count
    var near = [Bool](repeating: false, count: keyCount * keyCount)
    for a in 0..<keyCount { for b in layout.neighbors(of: a) { near[a * keyCount + b] = true } }
    self.near = near
    labelLetters = d.alphabet.scalars.indices.map { label in
      let fold = d.alphabet.folds[label]
      switch d.layout.classify(d.alphabet.scalars[label]) {
      case .key(let k):
        return Letter(fold: fold.value, key: Int32(k), isPunctuation: false, isVowel: Self.isVowel(fold))
      case .skipped:
        return Letter(fold: fold.value, key: -1, isPunctuation: true, isVowel: false)
      case .untypeable:
        return Letter(fold: fold.value, key: -1, isPunctuation: false, isVowel: Self.isVowel(fold))
      }
    }
    personalFrequencies = d.userLayer.personalFrequencies
    maxima = d.userLayer.personalMaxima ?? FrequencyMaxima(d.frequencies, count: d.wordCount)
  }

  /// Vowels of the Latin, Cyrillic and Greek alphabets (folded, lowercase).
  static func isVowel(_ s: Unicode.Scalar) -> Bool {
    switch s {
    case "a", "e", "i", "o", "u", "а", "е", "ё", "и", "о", "у", "ы", "э", "ю", "я", "і", "ї", "є",
      "α", "ε", "η", "ι", "ο", "υ", "ω":
      return true
    default:
      return false
    }
  }

  /// The typed characters as letters: those with a key, and punctuation the layout skips;
  /// anything else (digits, emoji) is left out.
  ///
  /// A letter the blob's alphabet lacks folds like its key's letter (`ĥ` on the `h` key is
  /// `h`); typographic apostrophes and dashes, which phones type for ' and -, are read as
  /// those. An input without a single letter on a key has nothing to correct: no letters.
  func letters(of input: String) -> [Letter] {
    var out: [Letter] = []
    for original in Normalization.nfc(input).unicodeScalars {
      let scalar = Self.plainPunctuation(original)
      let range = alphabet.foldingLabels(for: scalar)
      var fold = range.isEmpty ? KeyboardLayout.lowercase(scalar) : alphabet.folds[range.lowerBound]
      switch layout.classify(scalar) {
      case .key(let k):
        if range.isEmpty {
          let keyLetter = layout.keys[k].character
          let keyLabels = alphabet.foldingLabels(for: keyLetter)
          fold = keyLabels.isEmpty ? keyLetter : alphabet.folds[keyLabels.lowerBound]
        }
        out.append(Letter(fold: fold.value, key: Int32(k), isPunctuation: false, isVowel: Self.isVowel(fold)))
      case .skipped:
        out.append(Letter(fold: fold.value, key: -1, isPunctuation: true, isVowel: false))
      case .untypeable:
        continue
      }
    }
    return out.contains { !$0.isPunctuation } ? out : []
  }

  /// ’ ‘ ʼ as ', and ‐ ‑ – as -: what smart punctuation types for the plain characters.
  static func plainPunctuation(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    switch scalar {
    case "\u{2019}", "\u{2018}", "\u{02BC}": "'"
    case "\u{2010}", "\u{2011}", "\u{2013}": "-"
    default: scalar
    }
  }

  func isNear(_ a: Int32, _ b: Int32) -> Bool {
    a >= 0 && b >= 0 && near[Int(a) * keyCount + Int(b)]
  }

  /// The cost of typing `t` for the word's letter `w` (not counting the first-letter extra).
  func substitutionCost(_ t: Letter, _ w: Letter) -> Int32 {
    if t.fold == w.fold { return 0 }
    if t.isPunctuation && w.isPunctuation { return scaled.punctuation }
    if t.isPunctuation || w.isPunctuation { return scaled.substitution }
    if isNear(t.key, w.key) { return scaled.proximity }
    if t.isVowel && w.isVowel { return min(scaled.vowel, scaled.substitution) }
    return scaled.substitution
  }

  /// The cost of typing `typed[i]` as an extra letter.
  func insertionCost(_ typed: [Letter], _ i: Int) -> Int32 {
    let t = typed[i]
    if t.isPunctuation { return scaled.punctuation }
    var cost: Int32
    if i > 0, typed[i - 1].fold == t.fold {
      cost = scaled.repeatedInsertion
    } else if (i > 0 && isNear(t.key, typed[i - 1].key)) || (i + 1 < typed.count && isNear(t.key, typed[i + 1].key)) {
      cost = scaled.nearInsertion
    } else {
      cost = scaled.insertion
    }
    if i == 0 { cost += scaled.firstInsertion }
    return cost
  }

  /// One candidate: a word ID and its cost (in blob steps).
  struct Found {
    var id: Int
    /// The frequency byte it was ranked by.
    var frequency: Int
    var cost: Int32
  }

  /// The words within `maxCost` of `input`, best (frequency byte − cost, in blob steps) first:
  /// at most `limit`, those `isSuggestible` accepts. The frequencies are the blob's
  /// (`frequencies`), or the user's personal ones when the search was made with raised words.
  func search(
    _ input: String, limit: Int, dawg: DAWGView, frequencies: UnsafeByteView, isSuggestible: (Int) -> Bool
  ) -> [Found] {
    search(input, limit: limit, dawg: dawg, frequencies: frequencies, isSuggestible: isSuggestible) { _ in ([], 0) }.found
  }

  /// ``search(_:limit:dawg:frequencies:isSuggestible:)``, then the costs of more words for the
  /// same input with the same tables (as ``costs(of:sorted:cap:)``): `more` is given what the
  /// search found and returns the words, in label order, and the cap.
  func search(
    _ input: String, limit: Int, dawg: DAWGView, frequencies: UnsafeByteView, isSuggestible: (Int) -> Bool,
    thenCosting more: ([Found]) -> (words: [[UInt8]], cap: Int32)
  ) -> (found: [Found], costs: [Int32?]) {
    let typed = letters(of: input)
    guard !typed.isEmpty else { return ([], more([]).words.map { _ in nil }) }
    // Every letter past the longest word is an insertion: past this, nothing is in reach.
    let cheapest = max(1, min(scaled.insertion, scaled.repeatedInsertion, scaled.nearInsertion, scaled.punctuation))
    let searches = limit > 0 && dawg.wordCount > 0 && typed.count <= dawg.longestWord + Int(scaled.maxCost / cheapest)
    func walk(_ frequencies: UnsafeByteView) -> (found: [Found], costs: [Int32?]) {
      var walk = TypingWalk(
        search: self, typed: typed, frequencies: frequencies, limit: max(1, min(limit, dawg.wordCount)))
      var found: [Found] = []
      if searches, let root = dawg.node(at: dawg.root) {
        walk.run(root: root, dawg: dawg, maxima: maxima, isSuggestible: isSuggestible)
        found = walk.ranked.kept.map { Found(id: $0.id, frequency: $0.frequency, cost: Int32($0.distance)) }
      }
      let (words, cap) = more(found)
      return (found, words.isEmpty ? [] : walk.costs(ofSorted: words, cap: cap))
    }
    guard !personalFrequencies.isEmpty else { return walk(frequencies) }
    // The view lives only for the walk.
    return personalFrequencies.withUnsafeBytes { walk(UnsafeByteView($0)) }
  }

  /// The cost (in blob steps) of the word spelled by `labels` for `input` under the search's
  /// limits (`maxEdits`, `maxEarlyEdits`; a huge value when they rule the word out), or with
  /// `limited: false` under none but the table's six edits. `nil` when the input has no
  /// letters or the word is out of reach.
  func cost(of input: String, _ labels: [UInt8], limited: Bool = true) -> Int32? {
    let typed = letters(of: input)
    guard !typed.isEmpty else { return nil }
    var walk = TypingWalk(
      search: self, typed: typed, frequencies: UnsafeByteView(base: nil, count: 0), limit: 1,
      maxEdits: limited ? nil : 6)
    let cost = walk.cost(of: labels)
    return cost < TypingWalk.cost(TypingWalk.infinity) ? cost : nil
  }

  /// The costs (blob steps, under the search's limits) of several words for one input, with
  /// one table: `nil` for a word out of reach, or for all when the input has no letters.
  func costs(of input: String, _ words: [[UInt8]]) -> [Int32?] {
    // In label order, so that words sharing first letters share their rows.
    let order = words.indices.sorted { words[$0].lexicographicallyPrecedes(words[$1]) }
    var costs = [Int32?](repeating: nil, count: words.count)
    for (index, cost) in zip(order, self.costs(of: input, sorted: order.map { words[$0] })) { costs[index] = cost }
    return costs
  }

  /// ``costs(of:_:)`` of words already in label order, `nil` also for those costing more than
  /// `cap`: the rows of a first few letters out of `cap`'s reach end every word that starts
  /// with them.
  func costs(of input: String, sorted words: [[UInt8]], cap: Int32 = .max) -> [Int32?] {
    let typed = letters(of: input)
    guard !typed.isEmpty else { return words.map { _ in nil } }
    var walk = TypingWalk(
      search: self, typed: typed, frequencies: UnsafeByteView(base: nil, count: 0), limit: 1, maxEdits: nil)
    return walk.costs(ofSorted: words, cap: cap)
  }

  /// A cost in blob steps as ``TypingCosts`` units.
  func units(_ steps: Int32) -> Int {
    Int((Double(steps) / stepsPerUnit).rounded())
  }

}

/// One call's walk of the automaton (see ``TypingSearch``).
private struct TypingWalk {
  /// A node on the path from the root, with the children still to visit.
  struct Frame {
    var depth: Int
    /// Where this node's row is in the arena, and its parent's (-1 at the root).
    var row: Int
    var parentRow: Int
    /// The label into this node (-1 at the root).
    var label: Int
    /// The IDs of the words at or below this node.
    var base: Int
    var end: Int
    /// Where its children's rows start in the arena.
    var rows = 0
    /// Its children still worth a look: a range of `pending`, best bound first.
    var children: Range<Int>
    var next: Int
  }

  /// A child whose row is computed, waiting for its visit.
  struct Child {
    var target: Int
    var label: Int
    var row: Int
    var base: Int
    var end: Int
    /// The best score a word below it could reach.
    var bound: Int32
  }

  let frequencies: UnsafeByteView
  let letters: [TypingSearch.Letter]
  let scaled: TypingSearch.Scaled
  /// The typed length, and the row width (n + 1).
  let n: Int
  let width: Int
  /// Per label × typed position (1-based): the substitution cost, and at the word's first letter.
  let sub: [Int32]
  let firstSub: [Int32]
  /// Per typed position: the cost of it being extra.
  let ins: [Int32]
  /// Whether typed letters i − 1 and i differ (swapping equal letters is no edit).
  let differs: [Bool]
  /// Per label: the typed positions (bit i, 1-based) whose letter it is.
  let matches: [UInt64]
  /// A transposition's cell increment, and the most edits a cell may hold.
  let transposition: Int32
  let maxEdits: Int32
  /// The most edits the first `earlyLetters` letters of a word may take.
  let earlyEdits: Int32
  let earlyLetters: Int

  /// The rows of the nodes on the path and of their pending children (a stack).
  var arena: [Int32] = []
  /// The arena's used length (rows are pushed and popped as a stack; the array only grows).
  var top = 0
  var frames: [Frame] = []
  var pending: [Child] = []
  var ranked: RankedSuggestions

  /// - Parameter maxEdits: the most edits, in place of the costs' `maxEdits` and
  ///   `maxEarlyEdits` (for a distance outside the search).
  init(
    search: TypingSearch, typed: [TypingSearch.Letter], frequencies: UnsafeByteView, limit: Int,
    maxEdits edits: Int32? = nil
  ) {
    self.frequencies = frequencies
    letters = search.labelLetters
    scaled = search.scaled
    n = typed.count
    width = n + 1
    let scaled = search.scaled
    var sub = [Int32](repeating: 0, count: letters.count * width)
    var firstSub = sub
    var matches = [UInt64](repeating: 0, count: letters.count)
    for l in letters.indices {
      for i in 1...n {
        let c = search.substitutionCost(typed[i - 1], letters[l])
        sub[l * width + i] = Self.edit(c)
        if c == 0 {
          firstSub[l * width + i] = 0
          if i <= 62 { matches[l] |= 1 << UInt64(i) }
          continue
        }
        let adjacent = !typed[i - 1].isPunctuation && !letters[l].isPunctuation
          && search.isNear(typed[i - 1].key, letters[l].key)
        firstSub[l * width + i] = Self.edit(adjacent ? c + scaled.firstLetterProximity : c)
      }
    }
    self.sub = sub
    self.firstSub = firstSub
    var ins = [Int32](repeating: 0, count: width)
    for i in 1...n { ins[i] = Self.edit(search.insertionCost(typed, i - 1)) }
    self.ins = ins
    var differs = [Bool](repeating: false, count: width)
    if n >= 2 { for i in 2...n { differs[i] = typed[i - 1].fold != typed[i - 2].fold } }
    self.differs = differs
    transposition = Self.edit(scaled.transposition)
    self.matches = matches
    maxEdits = edits ?? scaled.maxEdits
    earlyEdits = edits ?? min(scaled.maxEdits, scaled.earlyEdits)
    earlyLetters = scaled.earlyLetters
    ranked = RankedSuggestions(limit: limit, frequencies: frequencies, margin: Int(scaled.margin))
    arena = [Int32](repeating: Self.infinity, count: width * 64)  // grows by doubling (reserveRow)
  }

  // A cell holds cost << 3 | edits: the minimum is the cheapest alignment, then the one
  // with fewer edits. Cells over `maxEdits` edits or past `infinity` hold `infinity`.
  static let editBits: Int32 = 3
  static let infinity: Int32 = 1 << 28

  /// An operation of cost `c` as a cell increment: one edit unless it is free.
  static func edit(_ c: Int32) -> Int32 { c > 0 ? (c << editBits) | 1 : 0 }

  /// The cost of a cell.
  static func cost(_ cell: Int32) -> Int32 { cell >> editBits }

  /// `cell`, or `infinity` when it has more than `cap` edits or too much cost.
  @inline(__always)
  func capped(_ cell: Int32, _ cap: Int32) -> Int32 {
    cell & ((1 << Self.editBits) - 1) > cap || cell > Self.infinity ? Self.infinity : cell
  }

  /// Makes room for one more row at `top`.
  mutating func reserveRow() {
    if top + width > arena.count { arena.append(contentsOf: repeatElement(Self.infinity, count: max(arena.count, width))) }
  }

  /// The root's row: the first i typed letters are all extra.
  mutating func appendRootRow() {
    reserveRow()
    arena[top] = 0
    for i in 1...n { arena[top + i] = capped(arena[top + i - 1] + ins[i], earlyEdits) }
    top += width
  }

  mutating func run(root: DAWGView.Node, dawg: DAWGView, maxima: FrequencyMaxima, isSuggestible: (Int) -> Bool) {
    appendRootRow()
    var rootFrame = Frame(
      depth: 0, row: 0, parentRow: -1, label: -1, base: 0, end: dawg.wordCount, children: 0..<0, next: 0)
    expand(&rootFrame, node: root, dawg: dawg, maxima: maxima)
    frames.append(rootFrame)
    var budget = TypingSearch.nodeBudget
    while budget > 0, !frames.isEmpty {
      let last = frames.count - 1
      let next = frames[last].next
      guard next < frames[last].children.upperBound else {
        // Done with this node: free its children's rows and entries.
        let children = frames[last].children
        top = frames[last].rows
        frames.removeLast()
        pending.removeSubrange(children)
        continue
      }
      frames[last].next = next + 1
      let child = pending[next]
      guard ranked.admits(bound: Int(child.bound)), let node = dawg.node(at: child.target) else { continue }
      budget -= 1
      let cost = Self.cost(arena[child.row + n])
      if node.isFinal, cost <= scaled.maxCost, isSuggestible(child.base), let q = frequencies.byte(at: child.base) {
        ranked.insert(id: child.base, distance: Int(cost), score: Int(q) - Int(cost))
      }
      guard node.count > 0, frames.count <= dawg.longestWord else { continue }
      var frame = Frame(
        depth: frames[last].depth + 1, row: child.row, parentRow: frames[last].row, label: child.label,
        base: child.base, end: child.end, children: 0..<0, next: 0)
      expand(&frame, node: node, dawg: dawg, maxima: maxima)
      frames.append(frame)
    }
  }

  /// Computes the rows of `frame`'s children (its automaton node is `node`; into the arena) and queues those still in reach,
  /// best bound first.
  mutating func expand(_ frame: inout Frame, node: DAWGView.Node, dawg: DAWGView, maxima: FrequencyMaxima) {
    let start = pending.count
    frame.rows = top
    let depth = frame.depth + 1
    let previous = frame.label >= 0 ? letters[frame.label] : nil
    let p = frame.row
    let g = frame.parentRow
    let parent = frame.label
    let cap = depth <= earlyLetters ? earlyEdits : maxEdits
    let nextCap = depth + 1 <= earlyLetters ? earlyEdits : maxEdits
    let allowed = saturatedFilter(
      row: p, depth: frame.depth, parentRow: g, parentLabel: parent, cap: cap, nextCap: nextCap)
    // Delta-coded labels are read in one pass, not from the first at every transition.
    var label = node.count > 0 ? Int(dawg.label(node, 0)) : 0
    // The words below each child follow the node's own word and the previous child's.
    var previousEnd = frame.base &+ (node.isFinal ? 1 : 0)
    for t in 0..<node.count {
      if t > 0 {
        label = node.deltaLabels ? label &+ Int(dawg.labelDelta(node, t)) &+ 1 : Int(dawg.label(node, t))
      }
      guard label < letters.count else { continue }
      // A child of a saturated row must spell one of the allowed typed letters.
      if let allowed, matches[label] & allowed == 0 { continue }
      let base = frame.base &+ dawg.output(node, t)
      let end = t &+ 1 < node.count ? frame.base &+ dawg.output(node, t &+ 1) : frame.end
      // Outputs ascend on a valid automaton; a damaged one must not widen a subtree.
      guard base >= previousEnd, base < end, end <= frame.end else { continue }
      previousEnd = end
      let row = top
      let least = appendRow(label: label, depth: depth, previous: previous, parentRow: p, grandparentRow: g, parentLabel: parent)
      // A word below may also be reached through a swap that skips this child's row (see
      // `transpositionReach`): the bound must allow for it. The range maximum is read only
      // for children within maxCost.
      let reach = min(least, transpositionReach(label: label, row: p, cap: nextCap))
      guard reach <= scaled.maxCost else {
        top -= width
        continue
      }
      let bound = Int32(maxima.max(in: base..<end, of: frequencies)) - reach
      guard ranked.admits(bound: Int(bound)), let target = dawg.target(node, t) else {
        top -= width
        continue
      }
      pending.append(Child(target: target, label: label, row: row, base: base, end: end, bound: bound))
    }
    // Best bound first: an insertion sort (a node has few children in reach).
    var i = start + 1
    while i < pending.count {
      let item = pending[i]
      var j = i
      while j > start, pending[j - 1].bound < item.bound {
        pending[j] = pending[j - 1]
        j -= 1
      }
      pending[j] = item
      i += 1
    }
    frame.children = start..<pending.count
    frame.next = start
  }

  /// The least cost a grandchild can reach by swapping this child's letter `label` with its
  /// own, from the row at `p` (the child's parent's), `cap` edits allowed at the grandchild's
  /// depth: such a grandchild skips the child's row, so a child out of reach by its row alone
  /// must still be visited when this is in reach.
  func transpositionReach(label: Int, row p: Int, cap: Int32) -> Int32 {
    guard n >= 2 else { return Self.cost(Self.infinity) }
    var best = Self.infinity
    for i in 2...n where differs[i] && sub[label &* width + i] == 0 {
      best = min(best, capped(arena[p + i - 2] + transposition, cap))
    }
    return Self.cost(best)
  }

  /// When every finite cell of the row at `row` has used all its edits (`cap` at the child's
  /// depth), the typed letters a
  /// child's label must equal for its row to hold a finite cell (as a mask of positions):
  /// the next letter after such a cell, or a swap with the parent's letter from a grandparent
  /// cell with an edit to spare. `nil` when some cell can still afford an edit (or the input
  /// is too long for a mask): then any label may do.
  func saturatedFilter(
    row p: Int, depth: Int, parentRow g: Int, parentLabel: Int, cap: Int32, nextCap: Int32
  ) -> UInt64? {
    guard n < 63 else { return nil }
    // Only cells within `maxEdits` of a row's diagonal can be finite (see `appendRow`).
    let band = Int(maxEdits)
    let lo = max(0, depth - band)
    let hi = min(n, depth + band)
    guard lo <= hi else { return 0 }
    var mask: UInt64 = 0
    for i in lo...hi {
      let cell = arena[p + i]
      if cell >= Self.infinity { continue }
      if cell & ((1 << Self.editBits) - 1) < cap { return nil }
      mask |= 1 << UInt64(i + 1)
    }
    if g >= 0, parentLabel >= 0, max(2, lo + 1) <= min(n, hi + 1) {
      // The grandparent's row is one step up the diagonal: its band shifted by one.
      for i in max(2, lo + 1)...min(n, hi + 1) where differs[i] && sub[parentLabel &* width + i] == 0 {
        let cell = arena[g + i - 2]
        if cell < Self.infinity, cell & ((1 << Self.editBits) - 1) < cap { mask |= 1 << UInt64(i - 1) }
      }
    }
    // A child whose own row is out of reach may still lead to a grandchild that swaps the
    // child's letter with the next one, from this row (see `transpositionReach`).
    if max(2, lo + 2) <= min(n, hi + 2) {
      for i in max(2, lo + 2)...min(n, hi + 2) where differs[i] {
        let cell = arena[p + i - 2]
        if cell < Self.infinity, cell & ((1 << Self.editBits) - 1) < nextCap { mask |= 1 << UInt64(i) }
      }
    }
    return mask
  }

  /// Appends the row of a node reached by `label` at `depth` from the node whose row is at
  /// `parentRow` (its own parent's at `grandparentRow`, -1 if none; its label `parentLabel`).
  /// - Returns: the row's least cost.
  mutating func appendRow(
    label: Int, depth: Int, previous: TypingSearch.Letter?, parentRow p: Int, grandparentRow g: Int, parentLabel: Int
  ) -> Int32 {
    let omit = Self.edit(omission(letters[label], previous: previous, depth: depth))
    reserveRow()
    let row = top
    top += width
    let s = label &* width
    let cap = depth <= earlyLetters ? earlyEdits : maxEdits
    // Cells further than `maxEdits` from the diagonal need more edits (each insertion or
    // omission is one): they are out of reach without being computed.
    let lo = max(0, depth - Int(maxEdits))
    let hi = min(n, depth + Int(maxEdits))
    guard lo <= hi else {
      for i in 0...n { arena[row + i] = Self.infinity }
      return Self.cost(Self.infinity)
    }
    for i in 0..<lo { arena[row + i] = Self.infinity }
    var least = lo == 0 ? capped(arena[p] + omit, cap) : Self.infinity
    if lo == 0 { arena[row] = least }
    var i = max(1, lo)
    while i <= hi {
      var v = capped(arena[p + i - 1] + (depth == 1 ? firstSub[s + i] : sub[s + i]), cap)
      v = min(v, capped(arena[p + i] + omit, cap))
      v = min(v, capped(arena[row + i - 1] + ins[i], cap))
      // Typed letters i − 1, i are this node's letter and the parent's, swapped.
      if g >= 0, i >= 2, differs[i], sub[s + i - 1] == 0, sub[parentLabel &* width + i] == 0 {
        v = min(v, capped(arena[g + i - 2] + transposition, cap))
      }
      arena[row + i] = v
      least = min(least, v)
      i += 1
    }
    if hi < n { for i in (hi + 1)...n { arena[row + i] = Self.infinity } }
    return Self.cost(least)
  }

  /// The costs of words in label order (blob steps; labels out of the alphabet are left out),
  /// each word's rows computed from the first letter it does not share with the word before.
  /// `nil` for a word out of reach or costing more than `cap`: a word whose first letters'
  /// row, and every swap from it, cost more than `cap` is not finished, nor is any later word
  /// that starts with the same letters (as the walk prunes a node).
  mutating func costs(ofSorted words: [[UInt8]], cap: Int32) -> [Int32?] {
    let cap = min(cap, Self.cost(Self.infinity) - 1)
    top = 0
    appendRootRow()
    // The labels of the current path and each one's row; the path's length when its last
    // row went out of reach (`nil`: it is in reach).
    var path: [(label: Int, row: Int)] = []
    var outOfReach: Int?
    let beyond = Self.cost(Self.infinity)
    var results: [Int32?] = []
    results.reserveCapacity(words.count)
    let alphabetSize = letters.count
    for word in words {
      let labels = word.compactMap { Int($0) < alphabetSize ? Int($0) : nil }
      var shared = 0
      for label in labels {
        guard shared < path.count, path[shared].label == label else { break }
        shared += 1
      }
      if let outOfReach, shared >= outOfReach {
        results.append(nil)
        continue
      }
      outOfReach = nil
      path.removeLast(path.count - shared)
      top = (path.last?.row ?? 0) + width
      var depth = shared
      for label in labels.dropFirst(shared) {
        depth += 1
        let row = top
        let parent = path.last
        let grandparent = path.count >= 2 ? path[path.count - 2] : nil
        let least = appendRow(
          label: label, depth: depth, previous: parent.map { letters[$0.label] }, parentRow: parent?.row ?? 0,
          grandparentRow: grandparent?.row ?? (parent == nil ? -1 : 0), parentLabel: parent?.label ?? -1)
        path.append((label, row))
        let nextCap = depth + 1 <= earlyLetters ? earlyEdits : maxEdits
        if least > cap, transpositionReach(label: label, row: parent?.row ?? 0, cap: nextCap) > cap {
          outOfReach = path.count
          break
        }
      }
      let cost = outOfReach == nil ? Self.cost(arena[(path.last?.row ?? 0) + n]) : beyond
      results.append(cost <= cap ? cost : nil)
    }
    return results
  }

  /// The cost of the word spelled by `labels` (blob steps; labels out of the alphabet are left out).
  mutating func cost(of labels: [UInt8]) -> Int32 {
    top = 0
    appendRootRow()
    var p = 0
    var g = -1
    var previous = -1
    var depth = 0
    for label in labels where Int(label) < letters.count {
      depth += 1
      let row = top
      _ = appendRow(
        label: Int(label), depth: depth, previous: previous >= 0 ? letters[previous] : nil, parentRow: p,
        grandparentRow: g, parentLabel: previous)
      g = p
      p = row
      previous = Int(label)
    }
    return Self.cost(arena[p + n])
  }

  /// The cost of leaving out the word's letter `w` at `depth` (1-based) after `previous`.
  func omission(_ w: TypingSearch.Letter, previous: TypingSearch.Letter?, depth: Int) -> Int32 {
    if w.isPunctuation { return scaled.punctuation }
    if depth == 1 { return scaled.firstOmission }
    if let previous, previous.fold == w.fold { return scaled.doubledOmission }
    return scaled.omission
  }
}

/// The most frequent word of an ID range in O(1)-ish: maxima of 16-ID blocks and of 1,024-ID
/// superblocks over the frequency bytes (n/16 + n/1,024 bytes, built in one pass). It keeps
/// no view of the bytes: ``max(in:of:)`` reads the ones it was built from (the blob's, or
/// the user's personal copy, ``UserLayer/personalFrequencies``).
struct FrequencyMaxima: Sendable {
  static let blockShift = 4
  static let superShift = 10

  private let count: Int
  private let blocks: [UInt8]
  private let supers: [UInt8]

  init(_ frequencies: UnsafeByteView, count: Int) {
    let count = min(count, frequencies.count)
    self.count = count
    let blockSize = 1 << Self.blockShift
    var blocks = [UInt8](repeating: 0, count: (count + blockSize - 1) >> Self.blockShift)
    frequencies.withUnsafeBytes { bytes in
      for b in blocks.indices {
        let lo = b << Self.blockShift
        let hi = Swift.min(lo + blockSize, count)
        var m: UInt8 = 0
        for i in lo..<hi { m = Swift.max(m, bytes[i]) }
        blocks[b] = m
      }
    }
    let perSuper = 1 << (Self.superShift - Self.blockShift)
    supers = stride(from: 0, to: blocks.count, by: perSuper).map { blocks[$0..<Swift.min($0 + perSuper, blocks.count)].max() ?? 0 }
    self.blocks = blocks
  }

  /// The largest frequency byte of IDs `range` (0 for an empty range or outside the words),
  /// reading `frequencies`, the bytes the maxima were built from, at the range's ends.
  func max(in range: Range<Int>, of frequencies: UnsafeByteView) -> UInt8 {
    var lo = Swift.max(range.lowerBound, 0)
    let hi = Swift.min(range.upperBound, count, frequencies.count)
    var m: UInt8 = 0
    guard lo < hi else { return 0 }
    // safe: 0 <= lo < hi <= frequencies.count in each loop below.
    func scan(_ to: Int) {
      while lo < to {
        m = Swift.max(m, frequencies.uncheckedByte(at: lo))
        lo += 1
      }
    }
    let blockSize = 1 << Self.blockShift
    let superSize = 1 << Self.superShift
    if hi - lo <= 2 * blockSize {
      scan(hi)
      return m
    }
    scan(Swift.min(hi, (lo + blockSize - 1) & ~(blockSize - 1)))
    while lo + blockSize <= hi, lo & (superSize - 1) != 0 {
      m = Swift.max(m, blocks[lo >> Self.blockShift])
      lo += blockSize
    }
    while lo + superSize <= hi {
      m = Swift.max(m, supers[lo >> Self.superShift])
      lo += superSize
    }
    while lo + blockSize <= hi {
      m = Swift.max(m, blocks[lo >> Self.blockShift])
      lo += blockSize
    }
    scan(hi)
    return m
  }
}
