import SwipeDict
import SwipeDictCompiler

/// A deterministic generator (SplitMix64) so every random test is reproducible by seed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A QWERTY layout in key widths of 10, with a few aliases and the default skipped characters.
func testLayout() -> KeyboardLayout {
  let rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
  var keys: [KeyboardLayout.Key] = []
  for (row, letters) in rows.enumerated() {
    for (column, letter) in letters.unicodeScalars.enumerated() {
      keys.append(
        .init(
          character: letter, x: Float(column) * 10 + 5 + Float(row) * 5, y: Float(row) * 14 + 7,
          width: 10, height: 14))
    }
  }
  return KeyboardLayout(
    name: "test-qwerty", unit: "pt", keyWidth: 10, keys: keys,
    aliases: ["ä": "a", "ö": "o", "ü": "u", "é": "e", "è": "e", "ß": "s", "ñ": "n"])
}

/// Random words over letters that include case and accent variants, so the folding
/// collation and folded lookups are exercised.
func randomWords(count: Int, seed: UInt64, maxLength: Int = 9) -> [String] {
  var generator = SeededGenerator(seed: seed)
  let letters = Array("aabcdeeefghiklmnoprsstuäöüéABEMSÄ'")
  var words: Set<String> = []
  while words.count < count {
    let length = Int.random(in: 1...maxLength, using: &generator)
    var word = ""
    for _ in 0..<length { word.append(letters.randomElement(using: &generator)!) }
    if word.unicodeScalars.contains(where: { $0 != "'" }) { words.insert(word) }
  }
  return words.sorted()
}

/// Compiles words (count = position-derived, deterministic) and opens the blob from memory.
func openDictionary(_ words: [String], verify: Bool = true) throws -> (SwipeDictionary, [UInt8]) {
  let entries = words.enumerated().map { (word: $1, count: Double(1 + ($0 * 7919) % 1000)) }
  let blob = try DictionaryCompiler.compile(words: entries, layout: testLayout()).bytes
  return (try SwipeDictionary(bytes: blob, verify: verify), blob)
}

/// The words in ID order, computed independently of the automaton: sorted by the labels of
/// the dictionary's alphabet.
func labelOrder(_ words: [String], _ dictionary: SwipeDictionary) -> [String] {
  func labels(_ w: String) -> [UInt8] { w.unicodeScalars.map { dictionary.alphabet.label(for: $0)! } }
  return words.sorted { labels($0).lexicographicallyPrecedes(labels($1)) }
}

/// The folded form used for case- and accent-insensitive matching, computed from the alphabet.
func folded(_ word: String, _ dictionary: SwipeDictionary) -> [Unicode.Scalar]? {
  var out: [Unicode.Scalar] = []
  for s in word.unicodeScalars {
    let range = dictionary.alphabet.foldingLabels(for: s)
    guard let first = range.first else { return nil }
    out.append(dictionary.alphabet.folds[first])
  }
  return out
}
