import SwipeDecoder
import SwipeDict

/// Matches the labels of swipe data sets to the words of a blob, for labels written
/// differently from the stored words: lower case and without apostrophes, as the
/// How-We-Swipe data set writes them (`im` for "I'm", `michael` for "Michael").
public enum LabelMatching {
  /// The stored word a label stands for: the most frequent word of the blob that equals
  /// the label when case, accents and apostrophes are ignored (`im` → "I'm" rather than the
  /// rarer "im"; `dont` → "don't").
  /// Ties go to the label itself, then to the lower word ID.
  /// - Parameters:
  ///   - label: the label.
  ///   - dictionary: the blob.
  /// - Returns: the stored word, or `nil` when none matches.
  public static func storedWord(for label: String, in dictionary: SwipeDictionary) -> String? {
    // The decoder's own matching of labels to stored forms (`decode --explain` uses it).
    let ids = variantIDs(of: label, in: dictionary)
    let exact = dictionary.id(of: label)
    let chosen = ids.max { a, b in
      let (fa, fb) = (dictionary.frequency(of: a) ?? 0, dictionary.frequency(of: b) ?? 0)
      if fa != fb { return fa < fb }
      if (a == exact) != (b == exact) { return b == exact }
      return a > b
    }
    return chosen.flatMap { dictionary.word(for: $0) }
  }
}
