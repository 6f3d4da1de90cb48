import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictFiles
import SwipeDictTestSupport
import SwipeDictTools
import Testing

/// A keyboard extension is charged for dirty memory, not for clean mapped pages: opening
/// and querying a blob must leave its mapping clean (no private dirty pages) and add little
/// dirty heap. Linux only (`/proc/self/smaps`).
@Suite("Memory: mapped sections stay clean")
struct MemoryTests {
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/smaps")))
  func openingAndQueryingLeavesTheMappingClean() throws {
    let directory = NSTemporaryDirectory() + "swipedict-memory-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/words.swipedict"
    let words = randomWords(count: 20000, seed: 5, maxLength: 12)
    let entries = words.enumerated().map { (word: $1, count: Double($0 % 500 + 1)) }
    try AtomicFile.write(
      try DictionaryCompiler.compile(words: entries, layout: testLayout()).bytes, to: path)

    let dictionary = try SwipeDictionary(contentsOf: path, verify: true)
    var found = 0
    for word in words where dictionary.contains(word) { found += 1 }
    for id in stride(from: 0, to: dictionary.wordCount, by: 3) { _ = dictionary.word(for: id) }
    for _ in dictionary.words(withPrefix: "a") {}
    #expect(found == words.count)
    // Measure while the dictionary (and so its mapping) is alive.
    let usage = try withExtendedLifetime(dictionary) {
      try #require(ProcessMemory.current(mappingsOf: path))
    }
    #expect(usage.isMapped)
    #expect(usage.mappedResident > 0)  // the queries did read the mapped pages
    #expect(usage.mappedDirty == 0)  // and none of them is dirty
  }
}
