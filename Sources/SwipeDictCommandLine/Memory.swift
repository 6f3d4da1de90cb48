import SwipeDict
import SwipeDictTools

/// What opening the blob and looking `words` up costs in memory, from /proc/self/smaps
/// (Linux): the mapping's resident and private dirty kB, and the growth of dirty anonymous
/// memory (heap). `nil` where smaps does not exist.
package func measureMemory(path: String, words: [String]) -> (
  mappedResident: Int, mappedDirty: Int, heapDirty: Int
)? {
  guard let before = ProcessMemory.current(mappingsOf: path) else { return nil }
  guard let dictionary = try? SwipeDictionary(contentsOf: path) else { return nil }
  var found = 0
  for word in words where dictionary.contains(word) { found &+= 1 }
  blackHole(found)
  return withExtendedLifetime(dictionary) {
    ProcessMemory.current(mappingsOf: path).map { after in
      (after.mappedResident, after.mappedDirty, max(0, after.anonymousDirty - before.anonymousDirty))
    }
  }
}

@inline(never)
package func blackHole(_ value: Int) {
  if value == 0x5EED_5EED { print("") }
}
