import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

@testable import SwipeDecoder

/// docs/keyboard.md's code: the same as KeyboardQuickStart.swift, which compiles here, and the
/// keyboard it shows at work.
@MainActor
@Suite("Keyboard quick start")
struct KeyboardQuickStartTests {
  /// The blocks between `// snippet NAME` and `// end` in the Swift file (indentation removed).
  static func sourceSnippets() throws -> [String: String] {
    let file = repositoryRoot.appendingPathComponent("Tests/SwipeDecoderTests/KeyboardQuickStart.swift")
    let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
    var snippets: [String: String] = [:]
    var name: String?
    var body: [String] = []
    for line in lines {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("// snippet ") {
        name = String(trimmed.dropFirst("// snippet ".count))
        body = []
      } else if trimmed == "// end", let current = name {
        let indent = body.filter { !$0.isEmpty }.map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        snippets[current] = body.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
        name = nil
      } else if name != nil {
        body.append(line)
      }
    }
    return snippets
  }

  /// The ```swift blocks of a page of the repository.
  static func pageBlocks(_ name: String = "docs/keyboard.md") throws -> [String] {
    let page = try String(contentsOf: repositoryRoot.appendingPathComponent(name), encoding: .utf8)
    var blocks: [String] = []
    var current: [String]?
    for line in page.components(separatedBy: "\n") {
      if current == nil, line == "```swift" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current!.joined(separator: "\n"))  // safe: checked above
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  @Test("every Swift block of docs/keyboard.md is a block of KeyboardQuickStart.swift, the engine's at most 40 lines")
  func pageMatchesTheCompiledCode() throws {
    let snippets = try Self.sourceSnippets()
    let blocks = try Self.pageBlocks()
    #expect(!blocks.isEmpty)
    for block in blocks {
      #expect(
        snippets.values.contains(block), "a block of docs/keyboard.md is not in KeyboardQuickStart.swift:\n\(block)")
    }
    let engine = try #require(snippets["engine"])
    #expect(blocks.contains(engine))
    #expect(engine.components(separatedBy: "\n").count <= 40)
    // README.md's example too.
    let readme = try Self.pageBlocks("README.md")
    #expect(
      readme == [try #require(snippets["readme"])], "README.md's Swift block differs from KeyboardQuickStart.swift's")
  }

  @Test("the quick start's keyboard swipes, types, commits and blocks on an iPad-sized view")
  func quickStartKeyboardWorks() async throws {
    let directory = TemporaryDirectory()
    let words: [(word: String, count: Double)] = [
      ("hello", 9e5), ("help", 8e5), ("hell", 3e5), ("new", 2e6), ("york", 3e5), ("year", 9e5), ("you", 3e7),
    ]
    let blob = try DictionaryCompiler.compile(
      words: words, bigrams: [("new", "york", 5_000)], layout: repositoryLayout("qwerty-en"))
    let path = directory.write("en.swipedict", blob.bytes)
    let keyboard = try SwipeKeyboard(blob: path, userWords: directory.path + "/user.words")
    let keys = ViewRect(x: 8, y: 300, width: 1024, height: 240)
    keyboard.layOut(keys: keys)
    keyboard.appear()
    let dictionary = try SwipeDictionary(contentsOf: path)
    let mapping = try #require(KeyboardViewMapping(layout: dictionary.layout, keyArea: keys))
    let points = perfectSwipe("hello", on: dictionary).map { mapping.viewPoint(for: LayoutPoint(x: $0.x, y: $0.y)) }
    for (i, point) in points.enumerated() {
      let time = 10 + Double(i) * 0.008
      if i == 0 {
        keyboard.touchDown(point, at: time)
      } else if i < points.count - 1 {
        keyboard.touchMove(point, at: time)
      }
    }
    await keyboard.touchUp(points[points.count - 1], at: 10 + Double(points.count) * 0.008)
    #expect(keyboard.bar.first == "hello")
    for letter in "hel" { keyboard.type(letter) }
    #expect(keyboard.bar.contains("hello"))
    keyboard.pick("new")
    #expect(keyboard.bar == ["york"])
    keyboard.never("york")
    keyboard.pick("new")
    #expect(keyboard.bar.isEmpty)
    #expect(try UserDictionary(path: directory.path + "/user.words").words.isBlocked("york"))
  }
}
