@_spi(SwipeDictInternals) import SwipeDictFormat

/// Options of a build. The same inputs and options always give byte-identical blobs.
public struct CompileOptions: Sendable, Hashable {
  /// Keep only the this many most frequent words (ties: earlier in code-point order).
  public var maxWords: Int?
  /// Drop words whose merged count is below this.
  public var minCount: Double
  /// Turn per-line input errors into counted warnings instead of failing.
  public var skipInvalid: Bool
  /// Fail when the blob would be larger than this many bytes.
  public var budget: Int?

  /// Creates options; the defaults keep every typeable word and fail on the first bad line.
  public init(maxWords: Int? = nil, minCount: Double = 0, skipInvalid: Bool = false, budget: Int? = nil) {
    self.maxWords = maxWords
    self.minCount = minCount
    self.skipInvalid = skipInvalid
    self.budget = budget
  }
}

/// What a long build is doing, for progress display.
public struct CompileProgress: Sendable {
  /// The stage.
  public enum Stage: String, Sendable {
    case reading, filtering, sorting, building, writing
  }
  /// The current stage.
  public var stage: Stage
  /// Detail: the file being read, or a count.
  public var detail: String
}

/// What a build did: inputs, what was dropped and why, and what the blob holds.
public struct CompileReport: Sendable {
  /// One report per input file, in processing order.
  public var inputs: [WordListReport]
  /// Entries read from all inputs.
  public var entriesRead: Int
  /// Distinct words after NFC normalization and merging.
  public var distinctWords: Int
  /// Words dropped because a character cannot be typed on the layout.
  public var untypeable: Int
  /// Up to ten of those, in code-point order.
  public var untypeableExamples: [String]
  /// Words dropped because no character has a key (only apostrophes or hyphens, say): their
  /// key path is empty, so they cannot be swiped.
  public var emptyKeyPath: Int
  /// Up to ten of those, in code-point order.
  public var emptyKeyPathExamples: [String]
  /// Words dropped by `--min-count`.
  public var belowMinCount: Int
  /// Words dropped by `--max-words`.
  public var beyondMaxWords: Int
  /// Words in the blob.
  public var words: Int
  /// Words of the blob marked possibly offensive: accepted, never suggested while the
  /// loader blocks offensive words.
  public var neverSuggested: Int
  /// Words of the blob marked as abbreviations.
  public var abbreviations: Int
  /// Misspellings (AOSP `not_a_word`) kept only as shortcut sources, not as words.
  public var misspellings: Int
  /// Shortcuts stored.
  public var shortcuts: Int
  /// Shortcuts that are whitelisted corrections.
  public var whitelisted: Int
  /// Word pairs of the bigram lists kept in the `BIGR` section (both words in the blob,
  /// exactly or, where the blob has one spelling of it, ignoring case).
  public var bigrams = 0
  /// Distinct word pairs of the bigram lists left out: a word not in the blob, or a count
  /// of 0.
  public var bigramsDropped = 0
  /// The bigram lists read.
  public var bigramInputs: [WordListReport] = []
  /// Distinct characters in the words.
  public var alphabetSize: Int
  /// Automaton states and transitions.
  public var states: Int
  /// Automaton transitions.
  public var transitions: Int
  /// Each section's tag and size, in file order.
  public var sections: [(tag: SectionTag, bytes: Int)]
  /// The whole blob's size.
  public var bytes: Int
}

/// A compiled blob and its report.
public struct CompiledDictionary: Sendable {
  /// The blob's bytes.
  public var bytes: [UInt8]
  /// What the build did.
  public var report: CompileReport
}
