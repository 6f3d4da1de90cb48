// Shared by the libFuzzer target (Fuzz/Sources/SwipeDictFuzz links this file) and by the
// corpus replay test, so both run exactly the same steps on an input.
import SwipeDict

/// Opens `input` as a blob and runs every query on it; then again with the header
/// checksum resealed, so that mutated inputs reach the sections, and with `verify()`.
func fuzzExercise(_ input: [UInt8]) {
  var bytes = input
  if let dictionary = try? SwipeDictionary(bytes: bytes) { fuzzQueries(dictionary) }
  guard fuzzReseal(&bytes), let dictionary = try? SwipeDictionary(bytes: bytes) else { return }
  fuzzQueries(dictionary)
  _ = try? dictionary.verify()
}

/// Every public query, on words taken from the blob itself and on a few fixed ones.
func fuzzQueries(_ dictionary: SwipeDictionary) {
  var probes = ["", "a", "the", "Über", "e\u{301}", "zzzzzzzz"]
  for id in [0, 1, dictionary.wordCount / 2, dictionary.wordCount - 1, dictionary.wordCount, -1] {
    if let word = dictionary.word(for: id) { probes.append(word) }
    _ = dictionary.frequency(of: id)
  }
  for word in probes {
    _ = dictionary.id(of: word)
    _ = dictionary.frequency(of: word)
    _ = dictionary.ids(matchingFolded: word)
    _ = dictionary.idRange(withPrefix: String(word.prefix(2)))
    for _ in dictionary.words(withPrefix: String(word.prefix(1))).prefix(50) {}
  }
  _ = dictionary.layout
  _ = dictionary.metadata
  for id in [-1, 0, dictionary.wordCount / 2, dictionary.wordCount - 1, dictionary.wordCount, Int.max] {
    _ = dictionary.marks(of: id)
  }
  for (source, _) in dictionary.allShortcuts.prefix(20) { _ = dictionary.shortcuts(for: source) }
  for word in probes { _ = dictionary.shortcuts(for: word) }
  fuzzSwipeQueries(dictionary, probes: probes)
  var unblocked = dictionary
  unblocked.blocksOffensiveWords = false
  _ = unblocked.completions(prefix: "a", limit: 5)
  _ = unblocked.topWords(limit: 5)
}

/// The swipe and typing queries: features, key paths, filters, completion, correction.
func fuzzSwipeQueries(_ dictionary: SwipeDictionary, probes: [String]) {
  let reader = dictionary.makeKeyPathReader()
  for id in [0, 1, dictionary.wordCount / 3, dictionary.wordCount - 1, dictionary.wordCount] {
    _ = dictionary.features(of: id)
    _ = dictionary.featureRecord(of: id)
    _ = reader.keyPath(of: id)
  }
  var walked = 0
  reader.forEachKeyPath(in: 0..<min(dictionary.wordCount, 64)) { _, _, _ in walked &+= 1 }
  let spread = Array(stride(from: 0, to: dictionary.wordCount, by: max(1, dictionary.wordCount / 50)))
  reader.forEachKeyPath(of: spread) { _, _, _ in walked &+= 1 }
  for word in probes.prefix(8) {
    _ = dictionary.features(of: word)
    _ = dictionary.completions(prefix: String(word.prefix(2)), limit: 5)
    _ = dictionary.corrections(for: word, limit: 5)
    _ = dictionary.corrections(for: word, limit: 5, model: .kaennsch())
  }
  _ = dictionary.topWords(limit: 20)
  for word in probes.prefix(4) {
    _ = dictionary.nextWords(after: word, limit: 5)
    // The previous word's context, in every query that takes it.
    let context = dictionary.context(after: word)
    for id in [0, dictionary.wordCount / 2, dictionary.wordCount - 1, dictionary.wordCount] {
      _ = context.boost(of: id)
    }
    _ = dictionary.completions(prefix: "", context: context, limit: 5)
    _ = dictionary.completions(prefix: String(word.prefix(1)), context: context, limit: 40)
    _ = dictionary.corrections(for: word, context: context, limit: 5)
  }
  for id in [0, 1, dictionary.wordCount / 2, dictionary.wordCount - 1] {
    _ = dictionary.bigramFrequency(of: 0, after: id)
  }
  let centers = dictionary.keyCenters
  for (i, center) in centers.prefix(4).enumerated() {
    let end = centers[(i * 7) % centers.count]
    let path = [center, LayoutPoint(x: center.x + dictionary.keyWidth * 2, y: center.y), end]
    let filter = SwipeFilter(path: path, keyWidth: dictionary.keyWidth)
    let candidates = dictionary.candidates(for: filter)
    _ = dictionary.candidates(for: filter, among: candidates + [-1, dictionary.wordCount])
    var scan = dictionary.makeCandidateScan(for: filter)
    var found: [Int] = []
    while !scan.isFinished { scan.advance(by: 97, into: &found) }
    let test = dictionary.makeCandidateTest(for: filter)
    for id in [-1, 0, dictionary.wordCount - 1, dictionary.wordCount, Int.max] where test.accepts(id) { walked &+= 1 }
    for id in candidates.prefix(8) { walked &+= dictionary.filterReport(for: id, filter: filter)?.checks.count ?? 0 }
    var cursor = reader.makeCursor()
    for id in candidates.prefix(40) where cursor.move(to: id) { walked &+= cursor.keys.count }
  }
}

/// Rewrites the declared file size and the header checksum of a mutated blob.
func fuzzReseal(_ bytes: inout [UInt8]) -> Bool {
  BlobContainer.reseal(&bytes)
}
