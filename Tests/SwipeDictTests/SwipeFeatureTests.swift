import Foundation
import SwipeDictCompiler
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import Testing

@testable import SwipeDict

/// A tiny layout whose distances are easy to compute by hand: key width 10, keys on a 3-4-5
/// triangle (a at the origin, b 30 to the right, c 40 below b) and one more key far away.
private func triangleLayout() -> KeyboardLayout {
  KeyboardLayout(
    name: "triangle", unit: "pt", keyWidth: 10,
    keys: [
      .init(character: "a", x: 0, y: 0, width: 10, height: 10),
      .init(character: "b", x: 30, y: 0, width: 10, height: 10),
      .init(character: "c", x: 30, y: 40, width: 10, height: 10),
      .init(character: "d", x: 100, y: 0, width: 10, height: 10),
    ],
    aliases: ["é": "c"])
}

private func open(_ words: [(String, Double)], layout: KeyboardLayout) throws -> SwipeDictionary {
  let blob = try DictionaryCompiler.compile(words: words.map { (word: $0.0, count: $0.1) }, layout: layout)
  return try SwipeDictionary(bytes: blob.bytes, verify: true)
}

@Suite("Swipe features")
struct SwipeFeatureTests {
  @Test("hand-computed features on a 3-4-5 triangle")
  func handComputed() throws {
    let d = try open([("abc", 10), ("ca", 5), ("aab", 3), ("a'b-c", 2), ("Cé", 1), ("d", 1)], layout: triangleLayout())
    // abc: a → b → c: 30 + 40 = 70 pt = 7 key widths; starts due right.
    let abc = try #require(d.features(of: "abc"))
    #expect(abc.firstKey == 0 && abc.secondKey == 1 && abc.lastKey == 2 && abc.keyCount == 3)
    #expect(abc.expectedLength == 70)
    #expect(abc.startAngle == 0)
    #expect(abc.secondLetterDistance == 30)
    #expect(abc.lastPoint == LayoutPoint(x: 30, y: 40))
    // ca: c → a is up and to the left (y grows downwards): atan2(40, −30).
    let ca = try #require(d.features(of: "ca"))
    #expect(ca.expectedLength == 50)
    #expect(abs(ca.startAngle! - atan2f(40, -30)) < 1e-6)
    #expect(abs(ca.startAngle! * 180 / .pi - 126.8699) < 1e-3)
    #expect(ca.secondLetterDistance == 50)
    // Repeated keys collapse; apostrophe and hyphen are skipped; aliases and case fold.
    #expect(d.features(of: "aab")?.keyCount == 2)
    #expect(d.features(of: "aab")?.expectedLength == 30)
    #expect(d.features(of: "a'b-c") == abc.with(frequency: d.features(of: "a'b-c")!.frequency))
    let ce = try #require(d.features(of: "Cé"))
    #expect(ce.keyCount == 1 && ce.secondKey == nil && ce.startAngle == nil)
    #expect(ce.expectedLength == 0 && ce.lastPoint == LayoutPoint(x: 30, y: 40))
    #expect(d.features(of: "zzz") == nil)
    #expect(d.features(of: d.wordCount) == nil)
  }

  @Test("expected length quantization stays within its documented bound")
  func quantizationBound() {
    var generator = SeededGenerator(state: 42)
    for _ in 0..<20_000 {
      let length = Float.random(in: 0...100, using: &generator)
      let stored = FeatureLayout.keyWidths(forLengthCode: FeatureLayout.lengthCode(forKeyWidths: length))
      #expect(abs(stored - length) <= FeatureLayout.quantizationBound(forKeyWidths: length) + 1e-4, "\(length)")
    }
    for code in 0..<512 {
      #expect(FeatureLayout.lengthCode(forKeyWidths: FeatureLayout.keyWidths(forLengthCode: code)) == code)
    }
  }

  @Test(
    "features of random words match the key paths computed from the layout (narrow and 32-bit records)",
    arguments: [false, true])
  func randomWordsMatchTheLayout(digits: Bool) throws {
    let words = randomWords(count: 3000, seed: 9)
    let (d, _) = try openDictionary(words, layout: digits ? testLayoutWithDigits() : testLayout())
    #expect(d.featureView?.isNarrow == !digits)
    let layout = d.layout
    let reader = d.makeKeyPathReader()
    for word in words {
      let id = try #require(d.id(of: word))
      let path = try #require(layout.keyPath(for: word))
      let f = try #require(d.features(of: id))
      #expect(reader.keyPath(of: id) == path.map(UInt8.init), "\(word)")
      var length: Float = 0
      for (a, b) in zip(path, path.dropFirst()) {
        length += hypotf(layout.keys[b].x - layout.keys[a].x, layout.keys[b].y - layout.keys[a].y)
      }
      let bound = FeatureLayout.quantizationBound(forKeyWidths: length / layout.keyWidth) * layout.keyWidth
      #expect(abs(f.expectedLength - length) <= bound + 1e-3, "\(word)")
      #expect(f.firstKey == path.first && f.lastKey == path.last)
      #expect(f.keyCount == min(path.count, FeatureLayout.maxKeyCount))
      #expect(f.secondKey == (path.count > 1 ? path[1] : nil))
      #expect(f.frequency == d.frequency(of: id))
      // The stored record's key count: exact in 32-bit records; in narrow ones the lower
      // bound a decoder's bound may use (1, 2, or 3 when the second key is not the last).
      let record = try #require(d.featureRecord(of: id))
      let exact = min(path.count, FeatureLayout.maxKeyCount)
      if digits {
        #expect(record.keyCount == exact)
      } else {
        #expect(record.keyCount == (path.count == 1 ? 1 : path[1] == path.last ? 2 : 3), "\(word)")
        #expect(record.keyCount <= exact)
      }
    }
  }

  @Test("narrowing a 32-bit record and widening it back keeps every field but the key count")
  func narrowRecordsRoundTrip() {
    var generator = SeededGenerator(state: 31)
    for _ in 0..<10_000 {
      let count = Int.random(in: 1...40, using: &generator)
      let path = (0..<count).map { _ in Int.random(in: 0..<31, using: &generator) }
      let packed = FeatureRecord(
        firstKey: path[0], secondKey: count > 1 ? path[1] : nil, lastKey: path[count - 1],
        keyCount: min(count, FeatureLayout.maxKeyCount), lengthCode: Int.random(in: 0..<512, using: &generator)
      ).packed
      let narrow = FeatureLayout.narrowed(packed)
      #expect(narrow < 1 << 24)
      // The next record's byte above the 24 bits is ignored.
      let wide = FeatureRecord(
        packed: FeatureLayout.widened(narrow | UInt32.random(in: 0...255, using: &generator) << 24))
      let record = FeatureRecord(packed: packed)
      #expect(wide.firstKey == record.firstKey && wide.secondKey == record.secondKey && wide.lastKey == record.lastKey)
      #expect(wide.lengthCode == record.lengthCode)
      #expect(wide.keyCount == (count == 1 ? 1 : path[1] == path[count - 1] ? 2 : 3))
    }
  }

  @Test("key paths over an ID range report the prefix shared with the previous word")
  func keyPathsOverRanges() throws {
    let words = randomWords(count: 2000, seed: 11)
    let (d, _) = try openDictionary(words)
    let reader = d.makeKeyPathReader()
    var previous: [UInt8]?
    var visited = 0
    reader.forEachKeyPath(in: 100..<1700) { id, keys, shared in
      #expect(id == 100 + visited)
      #expect(keys == reader.keyPath(of: id))
      let expected = previous.map { p in zip(p, keys).prefix { $0 == $1 }.count } ?? 0
      #expect(shared == expected)
      previous = keys
      visited += 1
    }
    #expect(visited == 1600)
  }

  @Test("key paths of an ascending ID selection equal the paths read one by one", arguments: [UInt64(12), 13])
  func keyPathsOfSelectedIDs(seed: UInt64) throws {
    let words = randomWords(count: 3000, seed: seed)
    let (d, _) = try openDictionary(words)
    let reader = d.makeKeyPathReader()
    var generator = SeededGenerator(state: seed)
    for density in [0.002, 0.05, 0.5, 1.0] {
      let ids = (0..<d.wordCount).filter { _ in Double.random(in: 0..<1, using: &generator) < density }
      var previous: [UInt8]?
      var visited: [Int] = []
      reader.forEachKeyPath(of: ids) { id, keys, shared in
        #expect(keys == reader.keyPath(of: id))
        let expected = previous.map { p in zip(p, keys).prefix { $0 == $1 }.count } ?? 0
        #expect(shared == expected)
        previous = keys
        visited.append(id)
      }
      #expect(visited == ids, "density \(density)")
    }
    // The visit stops at an ID that does not ascend or is not a word.
    var seen: [Int] = []
    reader.forEachKeyPath(of: [5, 9, 9, 20]) { id, _, _ in seen.append(id) }
    #expect(seen == [5, 9])
    seen = []
    reader.forEachKeyPath(of: [d.wordCount - 1, d.wordCount]) { id, _, _ in seen.append(id) }
    #expect(seen == [d.wordCount - 1])
  }

  @Test("a layout with more keys than records can name is refused")
  func tooManyKeys() {
    let keys = (0..<64).map { i in
      KeyboardLayout.Key(character: Unicode.Scalar(0x4E00 + i)!, x: Float(i) * 10, y: 0, width: 10, height: 10)
    }
    let layout = KeyboardLayout(name: "big", unit: "pt", keyWidth: 10, keys: keys)
    #expect(throws: CompileError.tooManyKeys(count: 64)) {
      try DictionaryCompiler.compile(words: [("一", 1)], layout: layout)
    }
  }

  @Test("words whose key path is empty are dropped and reported")
  func emptyKeyPaths() throws {
    let result = try DictionaryCompiler.compile(
      words: [("abc", 3), ("'", 1), ("-'-", 1), ("a", 1)], layout: triangleLayout())
    #expect(result.report.emptyKeyPath == 2)
    #expect(result.report.emptyKeyPathExamples == ["'", "-'-"])
    #expect(result.report.words == 2)
  }
}

extension SwipeFeatures {
  func with(frequency: UInt8) -> SwipeFeatures {
    var copy = self
    copy.frequency = frequency
    return copy
  }
}
