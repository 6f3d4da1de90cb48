import SwipeDict
import SwipeDictCompiler
import Testing

/// Random damage to a valid blob: whatever opens must answer every query without trapping,
/// reading outside the blob or hanging (the time limit catches a hang). (The libFuzzer
/// target does this at scale.) A setup that fails fails the test: it never passes having
/// exercised nothing.
@Suite("Queries on damaged blobs never trap or hang", .timeLimit(.minutes(1)))
struct HostileBytesTests {
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func randomDamage(seed: UInt64) throws {
    let words = randomWords(count: 400, seed: seed)
    let (dictionary, blob) = try openDictionary(words)
    var generator = SeededGenerator(seed: seed &* 7919)
    // The undamaged blob answers: the queries below exercise something.
    #expect(words.allSatisfy { dictionary.id(of: $0) != nil })
    let dawg = try #require(dictionary.contents.section(.dawg))
    try #require(dawg.length > 0)
    var opened = 0
    for _ in 0..<150 {
      var bytes = blob
      // Damage the automaton (the header check covers the rest), 1 to 8 bytes.
      for _ in 0..<Int.random(in: 1...8, using: &generator) {
        let at = Int(dawg.offset) + Int.random(in: 0..<Int(dawg.length), using: &generator)
        bytes[at] = UInt8.random(in: 0...255, using: &generator)
      }
      // Damage that opening detects is fine; what opens must survive every query.
      guard let damaged = try? SwipeDictionary(bytes: bytes) else { continue }
      opened += 1
      exercise(damaged, words: words)
      _ = try? damaged.verify()
    }
    // Opening checks bounds, not the automaton's bytes: most damaged blobs open.
    #expect(opened > 0, "no damaged blob opened: the queries were never run on one")
  }

  func exercise(_ dictionary: SwipeDictionary, words: [String]) {
    for word in words.prefix(60) {
      _ = dictionary.id(of: word)
      _ = dictionary.ids(matchingFolded: word)
      _ = dictionary.idRange(withPrefix: String(word.prefix(2)))
    }
    for id in stride(from: 0, to: dictionary.wordCount, by: 3) { _ = dictionary.word(for: id) }
    var listed = 0
    for _ in dictionary.words(withPrefix: "") {
      listed += 1
      if listed > 10 * dictionary.wordCount + 10 { break }
    }
  }
}
