import SwipeDict
import SwipeDictCompiler
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import SwipeDictTools

/// The tools module's seeded generator, under the name every test of this target uses.
typealias SeededGenerator = SwipeDictTools.SeededGenerator

/// Random words over letters that include case and accent variants, so the folding
/// collation and folded lookups are exercised.
func randomWords(count: Int, seed: UInt64, maxLength: Int = 9) -> [String] {
  var generator = SeededGenerator(state: seed)
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
func openDictionary(
  _ words: [String], layout: KeyboardLayout = testLayout(), verify: Bool = true
) throws -> (SwipeDictionary, [UInt8]) {
  let entries = words.enumerated().map { (word: $1, count: Double(1 + ($0 * 7919) % 1000)) }
  let blob = try DictionaryCompiler.compile(words: entries, layout: layout).bytes
  return (try SwipeDictionary(bytes: blob, verify: verify), blob)
}

/// The blob with the sections tagged `tags` left out: a blob as an older writer made it.
func removingSections(_ tags: [SectionTag], from bytes: [UInt8]) throws -> [UInt8] {
  let contents = try bytes.withUnsafeBytes { try BlobContainer.parse(UnsafeByteView($0)) }
  let sections = contents.sections.filter { !tags.contains($0.tag) }.map { entry in
    BlobContainer.Section(tag: entry.tag, bytes: Array(bytes[Int(entry.offset)..<Int(entry.offset + entry.length)]))
  }
  return BlobContainer.encode(sections, flags: contents.header.flags)
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

/// The corrector's last rule, for the brute-force models of the correction tests: the word
/// `input` spells exactly, when the blob has it and may suggest it, comes first, its score
/// one above the best (``Corrector``'s `typedWordFirst`).
func typedWordFirst(
  _ all: inout [(id: Int, score: Int, frequency: Int)], input: String, in d: SwipeDictionary,
  frequency: (Int) -> Int
) {
  guard let id = d.id(of: input), d.isSuggestible(id), all.first?.id != id else { return }
  let own = all.first { $0.id == id }
  let top = all.first?.score ?? 0
  let its = own?.frequency ?? frequency(id)
  all.removeAll { $0.id == id }
  all.insert((id, max(own?.score ?? its, top + 1), its), at: 0)
}
