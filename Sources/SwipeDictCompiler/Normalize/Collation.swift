import Foundation
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Unicode normalization and the folding collation that numbers the alphabet.
enum Collation {
  /// `word` in Unicode Normalization Form C. ASCII words are returned unchanged.
  static func nfc(_ word: String) -> String {
    Normalization.nfc(word)
  }

  /// Letters whose base letter is not a combining accent away, so that Unicode folding
  /// keeps them (`ł` is not `l` + a mark): folded as a reader of the language would search
  /// for them without the diacritic (`zolw` finds `żółw`). A ligature folds to its first
  /// letter (`æ → a`, `œ → o`), as `ß → s`.
  static let extraFolds: [Unicode.Scalar: Unicode.Scalar] = [
    "ł": "l", "Ł": "l", "ŀ": "l", "Ŀ": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d",
    "ħ": "h", "Ħ": "h", "ŧ": "t", "Ŧ": "t", "ı": "i", "İ": "i", "æ": "a", "Æ": "a", "œ": "o", "Œ": "o",
  ]

  /// The folded form of a character: lowercase with accents removed (`Ä → a`, `É → e`),
  /// and the letters of ``extraFolds`` to their base letter (`ł → l`, `ø → o`, `ı → i`).
  /// When folding gives several characters (`ß → ss`), the first is used.
  static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if scalar.isASCII { return KeyboardLayout.lowercase(scalar) }
    if let base = extraFolds[scalar] { return base }
    let folded = String(Character(scalar))
      .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    return folded.unicodeScalars.first.map(KeyboardLayout.lowercase) ?? scalar
  }

  /// The alphabet of a set of characters, ordered `a < A < ä < Ä < b …`: by folded form,
  /// then plain before accented, then lowercase before uppercase, then code point.
  static func alphabet(of scalars: Set<Unicode.Scalar>) -> Alphabet {
    let keyed = scalars.map { s -> (Unicode.Scalar, Unicode.Scalar, UInt32, UInt32) in
      let f = fold(s)
      let lower = KeyboardLayout.lowercase(s)
      return (s, f, lower == f ? 0 : 1, lower == s ? 0 : 1)
    }.sorted { a, b in
      (a.1.value, a.2, a.3, a.0.value) < (b.1.value, b.2, b.3, b.0.value)
    }
    return Alphabet(scalars: keyed.map(\.0), folds: keyed.map(\.1))
  }
}
