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
