import Foundation
import PropertyBased
import SwipeDict
import SwipeDictTestSupport
import Testing

/// Every public value that reads a blob keeps the blob's bytes alive: each one is made by a
/// function whose dictionary (and so its own reference to the mapping) is gone when it
/// returns, then used. Before the views held their owner, these reads hit unmapped memory
/// (SIGSEGV from a file, a heap use-after-free from `init(bytes:)`, which AddressSanitizer
/// reports: `swift test --sanitize=address --filter LifetimeTests`).
@Suite("Views outlive their dictionary")
struct LifetimeTests {
  static let words = randomWords(count: 400, seed: 0x11FE)

  /// The blob of `words`, written to a temporary file that is removed with the value.
  final class BlobFile {
    let directory = TemporaryDirectory()
    let path: String
    init() throws {
      path = directory.write("words.swipedict", try openDictionary(LifetimeTests.words).1)
    }
  }

  /// The blob's reference answers, from a dictionary that stays open.
  struct Reference {
    let keyPaths: [[UInt8]?]
    let candidates: [Int]
    let filter: SwipeFilter
    init() throws {
      let (dictionary, _) = try openDictionary(LifetimeTests.words)
      let reader = dictionary.makeKeyPathReader()
      keyPaths = (0..<dictionary.wordCount).map { reader.keyPath(of: $0) }
      // A start near the middle of the keyboard's top row: a fair share of the words pass.
      filter = SwipeFilter(start: dictionary.keyCenters[4])
      candidates = dictionary.candidates(for: filter)
    }
  }

  /// How the dictionary is opened: mapped from a file, or copied from bytes on the heap.
  enum Source: CaseIterable, CustomTestStringConvertible {
    case file, heap
    var testDescription: String { self == .file ? "mapped file" : "heap bytes" }

    /// Opens a dictionary that the caller must not keep.
    func open(_ file: BlobFile) throws -> SwipeDictionary {
      switch self {
      case .file: try SwipeDictionary(contentsOf: file.path)
      case .heap: try SwipeDictionary(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: file.path))))
      }
    }
  }

  @Test("KeyPathReader", arguments: Source.allCases)
  func keyPathReader(source: Source) throws {
    let file = try BlobFile()
    let reference = try Reference()
    func makeReader() throws -> KeyPathReader { try source.open(file).makeKeyPathReader() }
    let reader = try makeReader()
    #expect((0..<Self.words.count).map { reader.keyPath(of: $0) } == reference.keyPaths)
    var visited = 0
    reader.forEachKeyPath(in: 0..<Self.words.count) { id, keys, _ in
      #expect(keys == reference.keyPaths[id])
      visited += 1
    }
    #expect(visited == Self.words.count)
  }

  @Test("KeyPathCursor", arguments: Source.allCases)
  func keyPathCursor(source: Source) throws {
    let file = try BlobFile()
    let reference = try Reference()
    func makeCursor() throws -> KeyPathCursor { try source.open(file).makeKeyPathReader().makeCursor() }
    var cursor = try makeCursor()
    for id in stride(from: 0, to: Self.words.count, by: 3) {
      let moved = cursor.move(to: id)
      #expect(moved)
      #expect(cursor.keys == reference.keyPaths[id])
    }
  }

  @Test("CandidateScan", arguments: Source.allCases)
  func candidateScan(source: Source) throws {
    let file = try BlobFile()
    let reference = try Reference()
    #expect(!reference.candidates.isEmpty)
    func makeScan() throws -> CandidateScan { try source.open(file).makeCandidateScan(for: reference.filter) }
    var scan = try makeScan()
    var found: [Int] = []
    while !scan.isFinished { scan.advance(by: 7, into: &found) }
    #expect(found == reference.candidates)
  }

  @Test("PrefixWords and its iterator", arguments: Source.allCases)
  func prefixWords(source: Source) throws {
    let file = try BlobFile()
    func makeIterator() throws -> PrefixWords.Iterator { try source.open(file).words(withPrefix: "").makeIterator() }
    var iterator = try makeIterator()
    var count = 0
    while iterator.next() != nil { count += 1 }
    #expect(count == Self.words.count)
  }

  @Test("Corrector", arguments: Source.allCases)
  func corrector(source: Source) throws {
    let file = try BlobFile()
    let word = Self.words[Self.words.count / 2]
    func makeCorrector() throws -> Corrector { try source.open(file).makeCorrector() }
    let corrector = try makeCorrector()
    #expect(corrector.corrections(for: word, limit: 3).map(\.word).contains(word))
  }
}

/// Every public entry point that takes a word ID answers `nil` or nothing for an ID outside
/// `0..<wordCount`, including those whose byte offset (`id × 4`) would wrap around.
@Suite("Out-of-range word IDs")
struct OutOfRangeIDTests {
  static let hostileIDs = [
    -1, Int.min, Int.min + 1, Int.max, Int.max / 4 + 1, Int.max / 2, 1 << 62, 1 << 61,
  ]

  @Test func everyIDEntryPointRejects() throws {
    let (dictionary, _) = try openDictionary(randomWords(count: 300, seed: 0x1D))
    let ids = Self.hostileIDs + [dictionary.wordCount, dictionary.wordCount + 1]
    let reader = dictionary.makeKeyPathReader()
    for id in ids {
      #expect(dictionary.word(for: id) == nil, "word(for: \(id))")
      #expect(dictionary.frequency(of: id) == nil, "frequency(of: \(id))")
      #expect(dictionary.features(of: id) == nil, "features(of: \(id))")
      #expect(dictionary.featureRecord(of: id) == nil, "featureRecord(of: \(id))")
      #expect(reader.keyPath(of: id) == nil, "keyPath(of: \(id))")
      var cursor = reader.makeCursor()
      let moved = cursor.move(to: id)
      #expect(!moved, "cursor.move(to: \(id))")
    }
    let everywhere = SwipeFilter(start: dictionary.keyCenters[0])
    #expect(dictionary.candidates(for: everywhere, among: ids).isEmpty)
    var visited = 0
    reader.forEachKeyPath(of: ids) { _, _, _ in visited += 1 }
    reader.forEachKeyPath(in: Int.min..<0) { _, _, _ in visited += 1 }
    reader.forEachKeyPath(in: dictionary.wordCount..<Int.max) { _, _, _ in visited += 1 }
    #expect(visited == 0)
  }

  @Test(.timeLimit(.minutes(1)))
  func hugeLimitsNeitherTrapNorAllocate() throws {
    let (dictionary, _) = try openDictionary(randomWords(count: 300, seed: 0x1F))
    let word = try #require(dictionary.word(for: 150))
    for limit in [Int.max, Int.max - 1, 1 << 40] {
      #expect(dictionary.corrections(for: word, limit: limit).count <= dictionary.wordCount)
      #expect(dictionary.completions(prefix: String(word.prefix(1)), limit: limit).count <= dictionary.wordCount)
      #expect(dictionary.topWords(limit: limit).count <= dictionary.wordCount)
      #expect(dictionary.ids(matchingFolded: word, limit: limit).count <= dictionary.wordCount)
    }
  }
}

@Suite("Opening by URL")
struct URLOpeningTests {
  @Test func fileURLOpensTheSameBlob() throws {
    let (byBytes, bytes) = try openDictionary(randomWords(count: 50, seed: 0x0A))
    let directory = TemporaryDirectory()
    // A space in the name: the URL's path must be percent-decoded.
    let url = URL(fileURLWithPath: directory.write("with space.swipedict", bytes))
    let byURL = try SwipeDictionary(contentsOf: url, verify: true)
    #expect(byURL.wordCount == byBytes.wordCount)
    #expect((0..<byURL.wordCount).map { byURL.word(for: $0) } == (0..<byBytes.wordCount).map { byBytes.word(for: $0) })
  }

  @Test func remoteURLIsRefused() throws {
    let url = try #require(URL(string: "https://example.com/en.swipedict"))
    #expect(throws: SwipeDictError.self) { try SwipeDictionary(contentsOf: url) }
  }
}

/// The same over random IDs from the whole `Int` range, with PropertyBased's shrinking: a
/// failure reports the smallest ID that breaks it and the seed that reproduces it.
@Suite("Word IDs, property-checked")
struct WordIDPropertyTests {
  static let dictionary = Result { try openDictionary(randomWords(count: 300, seed: 0x1E)).0 }

  @Test func anyIntIsAWordIDOrNothing() async throws {
    let dictionary = try Self.dictionary.get()
    let reader = dictionary.makeKeyPathReader()
    let anywhere = Gen.int(in: Int.min...Int.max)
    let nearby = Gen.int(in: -4...(dictionary.wordCount + 4))
    await propertyCheck(count: 2_000, input: Gen.oneOf(anywhere, nearby)) { id in
      let isWord = (0..<dictionary.wordCount).contains(id)
      let word = dictionary.word(for: id)
      #expect((word != nil) == isWord)
      #expect((dictionary.frequency(of: id) != nil) == isWord)
      #expect((dictionary.featureRecord(of: id) != nil) == isWord)
      #expect((reader.keyPath(of: id) != nil) == isWord)
      if let word { #expect(dictionary.id(of: word) == id) }
    }
  }
}
