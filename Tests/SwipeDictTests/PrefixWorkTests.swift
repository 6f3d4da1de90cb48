import SwipeDictCompiler
@_spi(SwipeDictInternals) import SwipeDictFormat
import Testing

@testable import SwipeDict

/// `words(withPrefix:)` promises work proportional to the length of the words per step, on
/// any blob. These automata are valid enough to open but list nothing, and walk as much as
/// a damaged one can per call.
@Suite("Prefix listing: bounded work per step on hostile automata")
struct PrefixWorkTests {
  /// A blob whose automaton is `levels` levels of `fanOut`-way general nodes, every
  /// transition leading to one chain of `chain` non-final single-transition nodes that ends
  /// in a non-final node without transitions: no word, and a long walk to find none.
  static func deadEndBlob(chain: Int, fanOut: Int, levels: Int) throws -> [UInt8] {
    let (_, blob) = try openDictionary(randomWords(count: 50, seed: 1))
    let contents = try blob.withUnsafeBytes { try BlobContainer.parse(UnsafeByteView($0)) }
    var area: [UInt8] = [0x00, 0x00]  // address 1: a general node, not final, no transitions
    area += [UInt8](repeating: 0x80, count: chain)  // single, not final, label index 0, target just before
    var target = area.count - 1
    for _ in 0..<levels {
      // Targets (3-byte absolute fields), width codes (all 3), nibble outputs, labels, n, header.
      let value = 2 * target
      for _ in 0..<fanOut { area += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value >> 16)] }
      area += [UInt8](repeating: 0xFF, count: (fanOut + 3) / 4)
      area += [UInt8](repeating: 0, count: fanOut / 2)
      area += [UInt8](repeating: 0, count: fanOut)
      area += [UInt8(fanOut), 0x00]
      target = area.count - 1
    }
    var head = [UInt8](repeating: 0, count: DAWGLayout.headerSize)
    func put(_ value: Int, at offset: Int, width: Int) {
      for i in 0..<width { head[offset + i] = UInt8((value >> (8 * i)) & 0xFF) }
    }
    put(50, at: 0, width: 8)  // word count
    put(area.count, at: 8, width: 8)
    put(target, at: 16, width: 8)  // the root: the last level
    put(area.count, at: 24, width: 4)
    put(area.count, at: 28, width: 4)
    put(chain + levels + 2, at: 32, width: 4)  // longest word
    put(1, at: 36, width: 4)  // sink
    let sections = contents.sections.map { entry in
      BlobContainer.Section(
        tag: entry.tag,
        bytes: entry.tag == .dawg ? head + area : Array(blob[Int(entry.offset)..<Int(entry.offset + entry.length)]))
    }
    return BlobContainer.encode(sections, flags: contents.header.flags)
  }

  @Test("listing stops at the sink without decoding it only when the header names a final node without transitions")
  func sinkShortcutIsChecked() throws {
    let (dictionary, blob) = try openDictionary(["a", "ab", "abc", "b", "bc"])
    let dawg = dictionary.dawg
    #expect(dawg.checkedSink == dawg.sink)
    // The header's sink field names the node after "a", final with a transition: a damaged
    // header, which the shortcut must not trust.
    let afterA = try #require(dawg.walk(dictionary.labels(of: "a")!)).address
    var damaged = blob
    damaged.setHeaderField(of: .dawg, at: 36, to: UInt64(afterA), width: 4)
    let opened = try SwipeDictionary(bytes: damaged.resealed(section: .dawg))
    #expect(opened.dawg.checkedSink == nil)
    // Named correctly, the listing is the same with the shortcut as the words one by one.
    #expect(dictionary.words(withPrefix: "").map(\.word) == (0..<5).map { dictionary.word(for: $0)! })
  }

  @Test("a call of next() takes at most 2 × longest word + 4 steps, chain links included")
  func nextIsBounded() throws {
    let chain = 3_000
    let dictionary = try SwipeDictionary(bytes: Self.deadEndBlob(chain: chain, fanOut: 32, levels: 4))
    let longest = chain + 4 + 2
    var iterator = dictionary.words(withPrefix: "").makeIterator()
    #expect(iterator.next() == nil)
    // Charged only per level, the chain would be walked once per transition: 32⁴ times.
    #expect(iterator.steps > chain, "the walk did not reach the chain")
    #expect(iterator.steps <= 2 * longest + 4)
    #expect(iterator.next() == nil)
  }
}
