/// The words of a line of running text, each with the word right before it: what a keyboard
/// would have as the previous word when the user swipes it.
///
/// A word is a run of letters, with apostrophes (`'` or `’`) between letters ("don't",
/// "o’clock"). Only spaces may separate a word from its previous word: punctuation, digits
/// or any other character between them (a comma, a full stop, a hyphen, a quote) ends the
/// context, so the next word has none — a bigram list counts such pairs apart, and a keyboard
/// starts a new context after a sentence ends.
///
/// ```swift
/// SentenceWords.split("Well, I don't know.")
/// // [("Well", nil), ("I", nil), ("don't", "I"), ("know", "don't")]
/// ```
public enum SentenceWords {
  /// The words of `line` in order, each with its previous word (`nil` at the start and after
  /// anything but spaces).
  public static func split(_ line: String) -> [(word: String, previous: String?)] {
    var result: [(word: String, previous: String?)] = []
    var current = String.UnicodeScalarView()
    // The word that ended, while only spaces have followed it.
    var open: String?
    var pendingApostrophe: Unicode.Scalar?
    func finishWord() {
      guard !current.isEmpty else { return }
      let word = String(current)
      result.append((word, open))
      open = word
      current = String.UnicodeScalarView()
    }
    for scalar in line.unicodeScalars {
      if scalar.properties.isAlphabetic {
        if let apostrophe = pendingApostrophe {
          current.append(apostrophe)
          pendingApostrophe = nil
        }
        current.append(scalar)
      } else if scalar == "'" || scalar == "\u{2019}", !current.isEmpty, pendingApostrophe == nil {
        pendingApostrophe = scalar
      } else {
        let apostropheEnded = pendingApostrophe != nil
        pendingApostrophe = nil
        finishWord()
        // A space keeps the context open; anything else (or a dangling apostrophe) ends it.
        if apostropheEnded || !(scalar == " " || scalar == "\t") { open = nil }
      }
    }
    finishWord()
    return result
  }
}
