import SwipeDictTools
import Testing

@Suite struct SwipeTests {
  @Test func lengthIsThePolylineLength() {
    let swipe = Swipe(points: [.init(x: 0, y: 0), .init(x: 3, y: 4), .init(x: 3, y: 10)])
    #expect(swipe.length == 11)
    #expect(Swipe(points: [.init(x: 1, y: 1)]).length == 0)
  }
}
