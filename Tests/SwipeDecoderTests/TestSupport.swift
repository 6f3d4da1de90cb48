import Foundation
import SwipeDict
import SwipeDictCompiler

/// The repository root, from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The 20,000 most frequent words of the repository's English list on qwerty-en.
let english: SwipeDictionary = {
  do {
    let layout = try LayoutFile.load(
      repositoryRoot.appendingPathComponent("corpora/layouts/qwerty-en.json").path)
    let blob = try DictionaryCompiler.compile(
      inputs: [repositoryRoot.appendingPathComponent("corpora/en.tsv.zst").path], layout: layout,
      options: CompileOptions(maxWords: 20_000))
    return try SwipeDictionary(bytes: blob.bytes)
  } catch {
    fatalError("cannot build the English test dictionary: \(error)")
  }
}()
