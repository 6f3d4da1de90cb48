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
