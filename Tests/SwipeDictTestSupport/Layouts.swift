import Foundation
import SwipeDict
import SwipeDictCompiler

// The keyboard layouts and dictionaries the tests build on, in one place. They differ on
// purpose, so each says what it is for; changing one changes the golden bytes and the
// geometry-dependent expectations of the tests that use it.

/// The repository root, from this file's path.
package let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// A layout of the repository (`corpora/layouts/NAME.json`).
/// - Parameter name: the file's name without `.json`, e.g. `qwerty-en` (37.5 pt keys).
package func repositoryLayout(_ name: String) -> KeyboardLayout {
  do {
    return try LayoutFile.load(
      repositoryRoot.appendingPathComponent("corpora/layouts/\(name).json").path)
  } catch {
    fatalError("cannot load the \(name) layout: \(error)")
  }
}

/// The 20,000 most frequent words of the repository's English list on qwerty-en.
package let english: SwipeDictionary = {
  do {
    let blob = try DictionaryCompiler.compile(
      inputs: [repositoryRoot.appendingPathComponent("corpora/en.tsv.zst").path],
      layout: repositoryLayout("qwerty-en"), options: CompileOptions(maxWords: 20_000))
    return try SwipeDictionary(bytes: blob.bytes)
  } catch {
    fatalError("cannot build the English test dictionary: \(error)")
  }
}()

/// A QWERTY layout in key widths of 10 (keys 10 × 14, rows 14 apart, each row shifted half
/// a key), with a few aliases and the default skipped characters: the loader's tests and
/// their golden bytes.
/// ``testLayout()`` with a row of the ten digits above it: 36 keys, more than narrow `FEAT`
/// records (format 1.5) can index, so its blobs keep 32-bit records.
package func testLayoutWithDigits() -> KeyboardLayout {
  let letters = testLayout()
  let digits = "1234567890".unicodeScalars.enumerated().map { column, digit in
    KeyboardLayout.Key(character: digit, x: Float(column) * 10 + 5, y: -7, width: 10, height: 14)
  }
  return KeyboardLayout(
    name: "test-qwerty-digits", unit: "pt", keyWidth: 10, keys: digits + letters.keys, aliases: letters.aliases)
}

package func testLayout() -> KeyboardLayout {
  let rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
  var keys: [KeyboardLayout.Key] = []
  for (row, letters) in rows.enumerated() {
    for (column, letter) in letters.unicodeScalars.enumerated() {
      keys.append(
        .init(
          character: letter, x: Float(column) * 10 + 5 + Float(row) * 5, y: Float(row) * 14 + 7,
          width: 10, height: 14))
    }
  }
  return KeyboardLayout(
    name: "test-qwerty", unit: "pt", keyWidth: 10, keys: keys,
    aliases: ["ä": "a", "ö": "o", "ü": "u", "é": "e", "è": "e", "ß": "s", "ñ": "n"])
}

/// A small QWERTY layout file ("mini", key width 10, rows 15 apart, an unknown field): the
/// compiler's and the shipping tests' layout, parsed as a user's file would be.
package let qwertyJSON = """
  {"name": "mini", "unit": "pt", "keyWidth": 10, "notes": "unknown fields are ignored",
   "keys": [
     {"char": "q", "x": 5, "y": 8}, {"char": "w", "x": 15, "y": 8}, {"char": "e", "x": 25, "y": 8},
     {"char": "r", "x": 35, "y": 8}, {"char": "t", "x": 45, "y": 8}, {"char": "y", "x": 55, "y": 8},
     {"char": "u", "x": 65, "y": 8}, {"char": "i", "x": 75, "y": 8}, {"char": "o", "x": 85, "y": 8},
     {"char": "p", "x": 95, "y": 8}, {"char": "a", "x": 10, "y": 23}, {"char": "s", "x": 20, "y": 23},
     {"char": "d", "x": 30, "y": 23}, {"char": "f", "x": 40, "y": 23}, {"char": "g", "x": 50, "y": 23},
     {"char": "h", "x": 60, "y": 23}, {"char": "j", "x": 70, "y": 23}, {"char": "k", "x": 80, "y": 23},
     {"char": "l", "x": 90, "y": 23}, {"char": "z", "x": 20, "y": 38}, {"char": "x", "x": 30, "y": 38},
     {"char": "c", "x": 40, "y": 38}, {"char": "v", "x": 50, "y": 38}, {"char": "b", "x": 60, "y": 38},
     {"char": "n", "x": 70, "y": 38}, {"char": "m", "x": 80, "y": 38}],
   "aliases": {"é": "e", "ü": "u", "ß": "s"}}
  """

/// The command-line tests' layout file ("cli", key width 10, rows 15 apart, each row shifted
/// half a key, `ü` aliased to `u`).
package let cliLayoutJSON: String = {
  let rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
  var keys: [String] = []
  for (row, letters) in rows.enumerated() {
    for (column, letter) in letters.enumerated() {
      keys.append(
        #"{"char": "\#(letter)", "x": \#(column * 10 + 5 + row * 5), "y": \#(row * 15 + 8)}"#)
    }
  }
  return #"{"name": "cli", "unit": "pt", "keyWidth": 10, "keys": [\#(keys.joined(separator: ","))], "#
    + #""aliases": {"ü": "u"}}"#
}()
