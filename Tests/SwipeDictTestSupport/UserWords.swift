import SwipeDict

/// A user dictionary in a temporary directory with `setup` applied, and its snapshot: the
/// user words of a test.
package func makeUserWords(_ setup: (UserDictionary) throws -> Void) throws -> UserWords {
  let directory = TemporaryDirectory()
  let store = try UserDictionary(path: directory.path + "/user.words")
  try setup(store)
  return store.words
}
