// The code of docs/keyboard.md, compiled and run by the tests (KeyboardQuickStartTests): each
// block between `// snippet NAME` and `// end` is a block of the page, character for
// character. Change both together; the test says which block differs.

import SwipeDecoder
import SwipeDict

#if canImport(UIKit)
  import UIKit
#endif

// snippet engine
@MainActor
final class SwipeKeyboard {
  let engine: KeyboardEngine
  private(set) var bar: [String] = []  // the suggestion bar
  private var typed = ""

  init(blob: String, userWords: String?) throws {
    let english = try SwipeDictionary(contentsOf: blob)
    let store = try userWords.map { try UserDictionary(path: $0) }
    engine = try KeyboardEngine(languages: [.init(name: "en", dictionary: english)], userDictionary: store)
  }

  func layOut(keys: ViewRect) { engine.keyArea = keys }  // rotation, resizing: keys in view coordinates
  func appear() { engine.refreshUserWords() }  // the app may have changed the user's words

  func touchDown(_ point: ViewPoint, at time: Double) { engine.touchBegan(at: point, time: time) }
  func touchMove(_ point: ViewPoint, at time: Double) { engine.touchMoved(to: point, time: time) }
  func touchUp(_ point: ViewPoint, at time: Double) async {
    let swipe = await engine.touchEnded(at: point, time: time)  // decoded off the main thread
    bar = swipe.words.map(\.word)
  }

  func type(_ letter: Character) {
    typed.append(letter)
    bar = (engine.corrections(for: typed, limit: 1) + engine.completions(for: typed, limit: 2)).map(\.word)
  }

  func pick(_ word: String) {  // a tap on the bar, or space after a swipe
    engine.commit(word)  // learned, and the previous word of the next suggestions
    typed = ""
    bar = engine.nextWords(limit: 3).map(\.word)
  }

  func undo(_ word: String) { engine.retract(word) }  // the user deleted what was just committed
  func never(_ word: String) { engine.block(word) }  // "don't suggest this word"
}
// end

/// README.md's example, compiled here (it needs a blob and a touch to run).
@MainActor
func readmeExample(groupFolder: String, touch: (timestamp: Double, phase: Int)) async throws -> [String] {
  // snippet readme
  let english = try SwipeDictionary(contentsOf: "en.swipedict")  // maps it: O(1)
  let store = try UserDictionary(path: groupFolder + "/user.words")  // the user's words, shared with the app
  let engine = try KeyboardEngine(languages: [.init(name: "en", dictionary: english)], userDictionary: store)

  engine.keyArea = ViewRect(x: 0, y: 8, width: 390, height: 168)  // where the letter keys are drawn
  engine.touchBegan(at: ViewPoint(x: 240, y: 92), time: touch.timestamp)
  engine.touchMoved(to: ViewPoint(x: 100, y: 36), time: touch.timestamp)
  let swipe = await engine.touchEnded(at: ViewPoint(x: 350, y: 40), time: touch.timestamp)
  let top4 = swipe.words.map(\.word)  // decoded off the main thread within 50 ms
  engine.commit("hello")  // learned; ranks what comes next
  let completions = engine.completions(for: "wor")  // world, work, words
  let corrections = engine.corrections(for: "wrold")  // world
  engine.block("heck")  // never suggested again, in every query
  // end
  return top4 + completions.map(\.word) + corrections.map(\.word)
}

#if canImport(UIKit)
  // snippet uikit
  final class KeyboardViewController: UIInputViewController {
    var keyboard: SwipeKeyboard!
    var keys: UIView!  // the view that draws the letter rows

    override func viewDidLayoutSubviews() {
      super.viewDidLayoutSubviews()
      let frame = keys.convert(keys.bounds, to: view)
      keyboard.layOut(keys: ViewRect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height))
    }

    override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
      guard let touch = touches.first else { return }
      let point = touch.location(in: view)
      keyboard.touchDown(ViewPoint(x: point.x, y: point.y), at: touch.timestamp)
    }
  }
// end
#endif
