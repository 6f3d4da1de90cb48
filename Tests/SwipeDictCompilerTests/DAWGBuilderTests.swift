import Testing

@testable import SwipeDictCompiler

/// The automaton is exactly minimal: compared with a brute-force minimizer that groups the
/// nodes of the trie by their right language (the set of suffixes they accept).
@Suite("Minimal automaton construction")
struct DAWGBuilderTests {
  /// Builds over words given as label arrays (sorted here).
  func build(_ words: [[UInt8]]) throws -> DAWGBuilder {
    var builder = DAWGBuilder()
    for word in words.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      try word.withUnsafeBufferPointer { try builder.add($0) }
    }
    builder.finish()
    return builder
  }

  /// The states and transitions of the minimal automaton, by brute force: every distinct
  /// right language of a trie node is one state.
  func bruteForce(_ words: [[UInt8]]) -> (states: Int, transitions: Int) {
    var languages: [Set<[UInt8]>: Int] = [:]  // right language → out-degree
    var prefixes: Set<[UInt8]> = [[]]
    for word in words { for n in 0...word.count { prefixes.insert(Array(word.prefix(n))) } }
    for prefix in prefixes {
      let suffixes = Set(words.filter { $0.starts(with: prefix) }.map { Array($0.dropFirst(prefix.count)) })
      let degree = Set(suffixes.compactMap(\.first)).count
      languages[suffixes] = degree
    }
    return (languages.count, languages.values.reduce(0, +))
  }

  func randomLabelWords(_ count: Int, seed: UInt64, letters: UInt8, maxLength: Int) -> [[UInt8]] {
    var state = seed
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    var words: Set<[UInt8]> = []
    while words.count < count {
      let length = 1 + Int(next() % UInt64(maxLength))
      words.insert((0..<length).map { _ in UInt8(next() % UInt64(letters)) })
    }
    return Array(words)
  }

  @Test(
    "state and transition counts equal the brute-force minimum",
    arguments: [(5, 1, 2), (40, 2, 3), (200, 3, 4), (400, 4, 6), (300, 5, 26)] as [(Int, UInt64, UInt8)])
  func minimality(count: Int, seed: UInt64, letters: UInt8) throws {
    let words = randomLabelWords(count, seed: seed, letters: letters, maxLength: 7)
    let dawg = try build(words)
    let expected = bruteForce(words)
    #expect(dawg.stateCount == expected.states)
    #expect(dawg.labels.count == expected.transitions)
    #expect(dawg.wordCount == words.count)
    #expect(dawg.wordCounts[Int(dawg.root)] == Int64(words.count))
  }

  @Test func sharedSuffixesAreMerged() throws {
    // cats, hats, rats share "ats"; the minimal automaton has 5 states:
    // root, {ats}, {ts}, {s}, {ε}.
    let words: [[UInt8]] = [[2, 0, 19, 18], [7, 0, 19, 18], [17, 0, 19, 18]]
    let dawg = try build(words)
    #expect(dawg.stateCount == 5)
    #expect(dawg.labels.count == 6)
  }

  @Test func outOfOrderInputIsRejected() throws {
    var builder = DAWGBuilder()
    try [UInt8]([2, 3]).withUnsafeBufferPointer { try builder.add($0) }
    #expect(throws: CompileError.outOfOrder(previous: [2, 3], got: [1])) {
      try [UInt8]([1]).withUnsafeBufferPointer { try builder.add($0) }
    }
    #expect(throws: CompileError.outOfOrder(previous: [2, 3], got: [2, 3])) {
      try [UInt8]([2, 3]).withUnsafeBufferPointer { try builder.add($0) }
    }
  }
}
