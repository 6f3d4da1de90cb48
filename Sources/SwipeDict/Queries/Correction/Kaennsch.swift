@_spi(SwipeDictInternals) import SwipeDictFormat

/// The costs and penalties of the Kännsch correction (``CorrectionModel/kaennsch(_:)``).
///
/// The operation costs are the Kännsch thesis's adjusted Levenshtein weights, measured from
/// typing logs (omitting a letter is the rarest error, so it costs most).
public struct KaennschCosts: Sendable, Hashable {
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
  /// Two neighboring letters are swapped ("teh" for "the"). Not in the thesis, whose
  /// greedy walk charged a swap an omission and an insertion (9, over the distance limit).
  public var transposeCost = 2
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

/// The letters of the input and of dictionary words as the correction compares them.
struct KaennschModel: Sendable {
  /// One letter: its folded form (case and accents removed), its key, its tree class.
  struct Unit {
    var fold: Unicode.Scalar
    var key: Int
    var treeClass: Int
  }

  let options: KaennschCosts
  /// Per label: its unit, or `nil` for a character without a key (apostrophe, hyphen).
  private let labelUnits: [Unit?]
  /// Adjacency: `near[a * keys + b]`.
  private let near: [Bool]
  private let keyCount: Int
  private let layout: KeyboardLayout
  private let alphabet: Alphabet
  /// The blob's tree class rule (by its format version).
  private let rule: PrefixTreeLayout.ClassRule

  init(dictionary: SwipeDictionary, layout: KeyboardLayout, options: KaennschCosts) {
    self.options = options
    self.layout = layout
    self.alphabet = dictionary.alphabet
    let rule = dictionary.treeClassRule
    self.rule = rule
    keyCount = layout.keys.count
    var near = [Bool](repeating: false, count: keyCount * keyCount)
    for a in 0..<keyCount { for b in layout.neighbors(of: a) { near[a * keyCount + b] = true } }
    self.near = near
    labelUnits = dictionary.alphabet.scalars.indices.map { label in
      let fold = dictionary.alphabet.folds[label]
      switch layout.classify(dictionary.alphabet.scalars[label]) {
      case .key(let k):
        return Unit(fold: fold, key: k, treeClass: PrefixTreeLayout.treeClass(ofFolded: fold, rule: rule))
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
      units.append(Unit(fold: fold, key: key, treeClass: PrefixTreeLayout.treeClass(ofFolded: fold, rule: rule)))
    }
    return units
  }

  /// The Kännsch adjusted Levenshtein distance from `typed` to the word spelled by `labels`.
  ///
  /// A pointer walks the word; for each typed letter, in this order: the same letter →
  /// copy; this letter and the next typed one are the word's next two swapped →
  /// transposition (both letters consumed); an adjacent key → near; the word's previous letter → the previous operation was
  /// an inserted letter (revert it, add an insert, the pointer stays); the word's next
  /// letter → a letter was omitted (delete, skip it); else → modify. Typed letters past the
  /// end of the word are inserts; letters of the word past the end of the input are free.
  func distance(_ typed: [Unit], _ labels: [UInt8]) -> Int {
    withUnsafeTemporaryAllocation(of: Unit.self, capacity: labels.count) { buffer in
      var count = 0
      for label in labels where Int(label) < labelUnits.count {
        if let unit = labelUnits[Int(label)] {
          buffer.initializeElement(at: count, to: unit)
          count += 1
        }
      }
      defer { _ = buffer[..<count].deinitialize() }
      return distance(typed, UnsafeBufferPointer(rebasing: buffer[..<count]))
    }
  }

  private func distance(_ typed: [Unit], _ word: UnsafeBufferPointer<Unit>) -> Int {
    var total = 0
    var pointer = 0
    var lastCost = 0
    var i = 0
    while i < typed.count {
      let letter = typed[i]
      i += 1
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
      } else if pointer + 1 < word.count, i < typed.count, letter.fold == word[pointer + 1].fold,
        typed[i].fold == word[pointer].fold
      {
        // Two letters typed the wrong way round ("teh"): one operation for the pair.
        cost = options.transposeCost
        pointer += 2
        i += 1
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
