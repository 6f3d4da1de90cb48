import SwipeDictFormat

/// The costs and penalties of ``SwipeDictionary/corrections(for:limit:options:)``.
///
/// The operation costs are the Kännsch thesis's adjusted Levenshtein weights, measured from
/// typing logs (omitting a letter is the rarest error, so it costs most).
public struct CorrectionOptions: Sendable, Hashable {
  /// The input letter is the dictionary letter (ignoring case and accents).
  public var copyCost = 0
  /// The input letter's key touches the dictionary letter's key.
  public var nearCost = 1
  /// The input has an extra letter (typed twice, or slipped in).
  public var insertCost = 2
  /// The input lacks a letter of the word.
  public var deleteCost = 7
  /// The input letter is some other letter.
  public var modifyCost = 2
  /// Frequency steps (of 255) subtracted per unit of distance for words of the input's
  /// prefix-tree leaf.
  public var penalty = 24
  /// The same for words reached through the top list only (the thesis: a higher factor,
  /// since those words are very frequent).
  public var topPenalty = 36
  /// Words further than this from the input are not suggested.
  public var maxDistance = 8
  /// How many of the most frequent words below the input's tree node are compared when
  /// the input is shorter than the node's depth (one or two letters).
  public var maxNodeWords = 400

  /// The thesis's weights.
  public init() {}
}

extension SwipeDictionary {
  /// The words the user most likely meant by `input`: the Kännsch correction.
  ///
  /// Each candidate word is compared with the input by the adjusted Levenshtein distance (a
  /// greedy, linear-time walk; see `CorrectionOptions` for the costs; adjacency comes from the
  /// layout), where letters of the word past the end of the input cost nothing, so exact
  /// prefixes (completions) have distance 0. The score is the frequency byte minus the
  /// penalty times the distance. Candidates are the words of the input's prefix-tree leaf
  /// and the top list (with its higher penalty), which catches errors in the first letters
  /// ("ivh" → "ich").
  /// - Parameters:
  ///   - input: what the user typed.
  ///   - limit: the most suggestions to return.
  ///   - options: costs and penalties.
  /// - Returns: suggestions by descending score (ties: frequency, then ID).
  public func corrections(
    for input: String, limit: Int = 10, options: CorrectionOptions = .init()
  ) -> [Suggestion] {
    guard limit > 0, let tree = prefixTree else { return [] }
    let layout = self.layout
    let model = CorrectionModel(dictionary: self, layout: layout, options: options)
    let typed = model.units(of: input)
    guard !typed.isEmpty, typed.count <= 4 * dawg.longestWord + 16 else { return [] }

    var best: [Int: (distance: Int, score: Int)] = [:]
    func consider(_ id: Int, _ labels: [UInt8], penalty: Int) {
      guard let frequency = frequencies.byte(at: id) else { return }
      let distance = model.distance(typed, labels)
      guard distance <= options.maxDistance else { return }
      let score = Int(frequency) - penalty * distance
      if let known = best[id], known.score >= score { return }
      best[id] = (distance, score)
    }

    // The input's leaf: walk the tree by the input's folded letters.
    let path = typed.prefix(PrefixTreeLayout.maxDepth).map(\.treeClass)
    var reference = tree.root
    for treeClass in path {
      guard case .node(let node) = reference else { break }
      reference = tree.child(of: node, treeClass)
    }
    switch reference {
    case .leaf(let index)?:
      if let leaf = tree.leaf(index) {
        for run in leaf.runs {
          var cursor = WordCursor(dawg: dawg, range: run)
          while cursor.next() { consider(cursor.id, cursor.labels, penalty: options.penalty) }
        }
      }
    case .node?:
      var ids: [Int] = []
      forEachByFrequency(below: path) { id in
        ids.append(id)
        return ids.count < options.maxNodeWords
      }
      for id in ids.sorted() {
        if let labels = dawg.labels(of: id) { consider(id, labels, penalty: options.penalty) }
      }
    case nil:
      break
    }

    // The top list, spelled in the section itself.
    let spellings = tree.topSpellings
    var at = 0
    var labels: [UInt8] = []
    for rank in 0..<tree.topCount {
      guard let m = spellings.byte(at: at), let bytes = spellings.slice(offset: at + 1, length: Int(m)),
        let id = tree.topID(rank)
      else { break }
      at += 1 + Int(m)
      labels.removeAll(keepingCapacity: true)
      bytes.withUnsafeBytes { labels.append(contentsOf: $0) }
      consider(id, labels, penalty: options.topPenalty)
    }

    let ranked = best.map { (id: $0.key, distance: $0.value.distance, score: $0.value.score) }
      .sorted { a, b in
        if a.score != b.score { return a.score > b.score }
        let fa = frequencies.byte(at: a.id) ?? 0
        let fb = frequencies.byte(at: b.id) ?? 0
        return fa != fb ? fa > fb : a.id < b.id
      }
    return ranked.prefix(limit).compactMap { entry in
      guard var suggestion = suggestion(entry.id) else { return nil }
      suggestion.distance = entry.distance
      suggestion.score = entry.score
      return suggestion
    }
  }
}

/// The letters of the input and of dictionary words as the correction compares them.
struct CorrectionModel {
  /// One letter: its folded form (case and accents removed), its key, its tree class.
  struct Unit {
    var fold: Unicode.Scalar
    var key: Int
    var treeClass: Int
  }

  let options: CorrectionOptions
  /// Per label: its unit, or `nil` for a character without a key (apostrophe, hyphen).
  private let labelUnits: [Unit?]
  /// Adjacency: `near[a * keys + b]`.
  private let near: [Bool]
  private let keyCount: Int
  private let layout: KeyboardLayout
  private let alphabet: Alphabet

  init(dictionary: SwipeDictionary, layout: KeyboardLayout, options: CorrectionOptions) {
    self.options = options
    self.layout = layout
    self.alphabet = dictionary.alphabet
    keyCount = layout.keys.count
    var near = [Bool](repeating: false, count: keyCount * keyCount)
    for a in 0..<keyCount { for b in layout.neighbours(of: a) { near[a * keyCount + b] = true } }
    self.near = near
    labelUnits = dictionary.alphabet.scalars.indices.map { label in
      let fold = dictionary.alphabet.folds[label]
      switch layout.classify(dictionary.alphabet.scalars[label]) {
      case .key(let k): return Unit(fold: fold, key: k, treeClass: PrefixTreeLayout.treeClass(ofFolded: fold))
      default: return nil
      }
    }
  }

  /// The input's letters (characters without a key are left out; characters not in the
  /// alphabet fold to their lowercase form).
  func units(of input: String) -> [Unit] {
    var units: [Unit] = []
    for scalar in Normalization.nfc(input).unicodeScalars {
      guard case .key(let key) = layout.classify(scalar) else { continue }
      let range = alphabet.foldingLabels(for: scalar)
      let fold = range.isEmpty ? KeyboardLayout.lowercase(scalar) : alphabet.folds[range.lowerBound]
      units.append(Unit(fold: fold, key: key, treeClass: PrefixTreeLayout.treeClass(ofFolded: fold)))
    }
    return units
  }

  /// The Kännsch adjusted Levenshtein distance from `typed` to the word spelled by `labels`.
  ///
  /// A pointer walks the word; for each typed letter, in this order: the same letter →
  /// copy; an adjacent key → near; the word's previous letter → the previous operation was
  /// an inserted letter (revert it, add an insert, the pointer stays); the word's next
  /// letter → a letter was omitted (delete, skip it); else → modify. Typed letters past the
  /// end of the word are inserts; letters of the word past the end of the input are free.
  func distance(_ typed: [Unit], _ labels: [UInt8]) -> Int {
    var word: [Unit] = []
    word.reserveCapacity(labels.count)
    for label in labels where Int(label) < labelUnits.count {
      if let unit = labelUnits[Int(label)] { word.append(unit) }
    }
    var total = 0
    var pointer = 0
    var lastCost = 0
    for letter in typed {
      if total > options.maxDistance { return total }
      guard pointer < word.count else {
        total += options.insertCost
        lastCost = options.insertCost
        continue
      }
      let cost: Int
      if letter.fold == word[pointer].fold {
        cost = options.copyCost
        pointer += 1
      } else if near[letter.key * keyCount + word[pointer].key] {
        cost = options.nearCost
        pointer += 1
      } else if pointer > 0, letter.fold == word[pointer - 1].fold {
        // The previous operation consumed word[pointer − 1] for a stray letter: undo it.
        total -= lastCost
        cost = options.insertCost + options.copyCost
      } else if pointer + 1 < word.count, letter.fold == word[pointer + 1].fold {
        cost = options.deleteCost + options.copyCost
        pointer += 2
      } else {
        cost = options.modifyCost
        pointer += 1
      }
      total += cost
      lastCost = cost
    }
    return total
  }
}
