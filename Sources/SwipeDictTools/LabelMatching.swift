import SwipeDict

/// Matches the labels of swipe data sets to the words of a blob, for labels written
/// differently from the stored words: lower case and without apostrophes, as the
/// How-We-Swipe data set writes them (`im` for "I'm", `michael` for "Michael").
public enum LabelMatching {
  /// The stored word a label stands for: the label itself when the blob has it; else the
  /// most frequent word equal to it when case and accents are folded; else the most
  /// frequent one equal to it with one apostrophe (`'` or `’`) put back between two letters
  /// (`dont` → "don't"). Ties go to the lower word ID.
  /// - Parameters:
  ///   - label: the label.
  ///   - dictionary: the blob.
  /// - Returns: the stored word, or `nil` when none matches.
  public static func storedWord(for label: String, in dictionary: SwipeDictionary) -> String? {
    if let id = dictionary.id(of: label), let word = dictionary.word(for: id) { return word }
    func best(_ ids: [Int]) -> String? {
      let chosen = ids.max { a, b in
        let (fa, fb) = (dictionary.frequency(of: a) ?? 0, dictionary.frequency(of: b) ?? 0)
        return fa != fb ? fa < fb : a > b
      }
      return chosen.flatMap { dictionary.word(for: $0) }
    }
    if let word = best(dictionary.ids(matchingFolded: label, limit: 16)) { return word }
    let characters = Array(label)
    guard characters.count >= 2, characters.count <= 64 else { return nil }
    var ids: [Int] = []
    for apostrophe in ["'", "’"] {
      for position in 1..<characters.count {
        let candidate = String(characters[..<position]) + apostrophe + String(characters[position...])
        ids += dictionary.ids(matchingFolded: candidate, limit: 16)
      }
    }
    return best(ids)
  }
}
