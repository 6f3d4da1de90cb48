import SwipeDictTools
import Testing

@testable import SwipeDecoder

@Suite("The candidates' bitmap")
struct IDBitmapTests {
  @Test("inserts, removals and iteration agree with a Set, across resets", arguments: [UInt64(1), 2, 3])
  func agreesWithASet(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    var bitmap = IDBitmap()
    for round in 0..<20 {
      let limit = Int.random(in: 0...5000, using: &random)
      bitmap.reset(limit: limit)
      var reference = Set<Int>()
      for _ in 0..<Int.random(in: 0...400, using: &random) {
        // Some IDs outside 0..<limit, which the bitmap ignores.
        let id = Int.random(in: -3...(limit + 3), using: &random)
        bitmap.insert(id)
        if id >= 0, id < limit { reference.insert(id) }
      }
      #expect(Array(bitmap) == reference.sorted(), "round \(round)")
      #expect(bitmap.count == reference.count)
      let modulus = Int.random(in: 2...5, using: &random)
      bitmap.removeAll { $0 % modulus == 0 }
      reference = reference.filter { $0 % modulus != 0 }
      #expect(Array(bitmap) == reference.sorted(), "round \(round) after removal")
      #expect(bitmap.count == reference.count)
    }
  }

  @Test("a reset empties the set and keeps it usable at another size")
  func reset() {
    var bitmap = IDBitmap()
    bitmap.reset(limit: 100)
    for id in [0, 63, 64, 99] { bitmap.insert(id) }
    #expect(Array(bitmap) == [0, 63, 64, 99])
    bitmap.reset(limit: 100)
    #expect(Array(bitmap).isEmpty && bitmap.count == 0)
    bitmap.reset(limit: 10)
    bitmap.insert(9)
    bitmap.insert(10)
    #expect(Array(bitmap) == [9])
    bitmap.reset(limit: 0)
    bitmap.insert(0)
    #expect(Array(bitmap).isEmpty)
  }
}
