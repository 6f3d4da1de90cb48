@_spi(SwipeDictInternals) import SwipeDictFormat

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
    search(input, limit: limit, dawg: dawg, frequencies: frequencies, isSuggestible: isSuggestible) { _ in ([], 0) }
      .found
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
