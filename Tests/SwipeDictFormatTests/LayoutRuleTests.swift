@_spi(SwipeDictInternals) import SwipeDictFormat
import Testing

/// The loader's check of a `LYOT` section holds the layout-file rules the compiler applies,
/// so a blob whose layout the compiler would refuse is refused at open too.
@Suite("Layout rules at open")
struct LayoutRuleTests {
  static func key(_ c: Unicode.Scalar, _ x: Float, _ w: Float = 10, _ h: Float = 14) -> KeyboardLayout.Key {
    .init(character: c, x: x, y: 7, width: w, height: h)
  }
  static let good = KeyboardLayout(
    name: "row", unit: "pt", keyWidth: 10, keys: [key("a", 5), key("b", 15), key("c", 25)],
    aliases: ["ä": "a"])

  static func validates(_ layout: KeyboardLayout) -> Bool {
    layout.encoded().withUnsafeBytes { raw in
      (try? KeyboardLayout.validate(UnsafeByteView(raw))) != nil
    }
  }

  @Test func aGoodLayoutPasses() {
    #expect(Self.validates(Self.good))
  }

  @Test(
    "Each rule of a layout file",
    arguments: [
      ("duplicate key", [key("a", 5), key("a", 15)], [:], Set<Unicode.Scalar>()),
      ("duplicate digit key", [key("1", 5), key("b", 15), key("1", 25)], [:], []),
      ("duplicate non-ASCII key", [key("ñ", 5), key("b", 15), key("ñ", 25)], [:], []),
      ("uppercase key", [key("A", 5), key("b", 15)], [:], []),
      ("zero width", [key("a", 5, 0), key("b", 15)], [:], []),
      ("negative height", [key("a", 5, 10, -1), key("b", 15)], [:], []),
      ("overlapping keys", [key("a", 5), key("b", 9)], [:], []),
      ("alias to no key", [key("a", 5), key("b", 15)], ["é": "e"], []),
      ("alias from a key", [key("a", 5), key("b", 15)], ["a": "b"], []),
      ("skipped key", [key("a", 5), key("b", 15)], [:], ["a"]),
      ("no keys", [], [:], []),
    ] as [(String, [KeyboardLayout.Key], [Unicode.Scalar: Unicode.Scalar], Set<Unicode.Scalar>)])
  func ruleIsChecked(
    rule: String, keys: [KeyboardLayout.Key], aliases: [Unicode.Scalar: Unicode.Scalar],
    skipped: Set<Unicode.Scalar>
  ) {
    let layout = KeyboardLayout(
      name: rule, unit: "pt", keyWidth: 10, keys: keys, aliases: aliases, skipped: skipped)
    #expect(!Self.validates(layout), "\(rule) passed")
  }

  @Test("aliases and skipped characters are stored ascending and once; any other order is refused")
  func tablesMustAscend() {
    let layout = KeyboardLayout(
      name: "row", unit: "pt", keyWidth: 10, keys: [Self.key("a", 5), Self.key("b", 15)],
      aliases: ["ä": "a", "á": "a"], skipped: ["'", "-"])
    var bytes = layout.encoded()
    #expect(bytes.withUnsafeBytes { (try? KeyboardLayout.validate(UnsafeByteView($0))) != nil })
    // The tables after the two keys: aliases at 64 (8 bytes each), skipped at 80 (4 each).
    func swapped(_ a: Int, _ b: Int, width: Int) -> [UInt8] {
      var out = bytes
      for i in 0..<width { out.swapAt(a + i, b + i) }
      return out
    }
    for (name, damaged) in [
      ("aliases", swapped(64, 72, width: 8)), ("skipped", swapped(80, 84, width: 4)),
    ] {
      #expect(damaged.withUnsafeBytes { (try? KeyboardLayout.validate(UnsafeByteView($0))) == nil }, "\(name)")
    }
    // A repeated alias source.
    bytes.replaceSubrange(72..<76, with: bytes[64..<68])
    #expect(bytes.withUnsafeBytes { (try? KeyboardLayout.validate(UnsafeByteView($0))) == nil })
    // What the tables say comes back through the public view of them.
    #expect(layout.aliases == ["ä": "a", "á": "a"] && layout.skipped == ["'", "-"])
    #expect(layout.classify("á") == .key(0) && layout.classify("Á") == .key(0) && layout.classify("-") == .skipped)
    #expect(layout.classify("c") == .untypeable)
  }

  @Test("the name and unit are UTF-8: non-ASCII passes, a broken sequence is refused")
  func nameIsUTF8() {
    let layout = KeyboardLayout(name: "qwertz-dé", unit: "pt", keyWidth: 10, keys: [Self.key("a", 5)])
    var bytes = layout.encoded()
    #expect(
      bytes.withUnsafeBytes { raw in
        (try? KeyboardLayout(decoding: UnsafeByteView(raw)))?.name == "qwertz-dé"
      })
    // The name's last byte (é's second byte) just before the two bytes of the unit.
    bytes[bytes.count - 3] = 0xFF
    #expect(bytes.withUnsafeBytes { (try? KeyboardLayout.validate(UnsafeByteView($0))) == nil })
  }

  @Test func tooManyKeysAreRefused() {
    let keys = (0..<64).map { Self.key(Unicode.Scalar(0x4E00 + $0)!, Float($0) * 10 + 5) }
    #expect(!Self.validates(KeyboardLayout(name: "wide", unit: "pt", keyWidth: 10, keys: keys)))
    #expect(Self.validates(KeyboardLayout(name: "wide", unit: "pt", keyWidth: 10, keys: Array(keys.prefix(63)))))
  }
}
