import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictFiles
import SwipeDictShipping
import SwipeDictTestSupport
import Testing

/// Nothing lost: a write never replaces one of its own inputs, whatever the path says.
@Suite("Outputs that are inputs are refused")
struct OutputClashTests {
  let directory = TemporaryDirectory()
  let layout = try! LayoutFile.parse(Data(qwertyJSON.utf8), file: "mini.json")

  func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
  func files() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
  }

  func makeBlob(_ name: String) throws -> String {
    let entries = (0..<500).map { (word: "w" + String($0 * 7919, radix: 26), count: Double($0 % 89 + 1)) }
    let path = directory.path + "/" + name
    try AtomicFile.write(try DictionaryCompiler.compile(words: entries, layout: layout).bytes, to: path)
    return path
  }

  /// `list.tsv`, `./list.tsv`, `dir/../dir/list.tsv`, a symbolic link and a hard link all
  /// name the same file.
  @Test(arguments: ["same", "dot", "dotdot", "symlink", "hardlink"])
  func theSameFileUnderAnyNameIsRefused(_ spelling: String) throws {
    let input = directory.write("list.tsv", "hello\t5\n")
    var output = input
    switch spelling {
    case "dot": output = directory.path + "/./list.tsv"
    case "dotdot":
      let name = URL(fileURLWithPath: directory.path).lastPathComponent
      output = directory.path + "/../\(name)/list.tsv"
    case "symlink":
      output = directory.path + "/link.tsv"
      try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: input)
    case "hardlink":
      output = directory.path + "/hard.tsv"
      try FileManager.default.linkItem(atPath: input, toPath: output)
    default: break
    }
    #expect(throws: FileWriteError.outputIsInput(output: output, input: input)) {
      try AtomicFile.refuseOverwriting(["other.tsv", input], with: output)
    }
    #expect(throws: FileWriteError.outputIsInput(output: output, input: input)) {
      try AtomicFile.write([1, 2, 3], to: output, protecting: [input])
    }
    #expect(contents(input) == Data("hello\t5\n".utf8))
    #expect(!files().contains { $0.contains(".tmp-") })  // no temporary file either
  }

  @Test func anotherFileOrANewOneIsFine() throws {
    let input = directory.write("list.tsv", "hello\t5\n")
    let other = directory.write("other.tsv", "x\n")
    try AtomicFile.refuseOverwriting([input], with: other)
    try AtomicFile.refuseOverwriting([input, "-"], with: directory.path + "/new.swipedict")
    try AtomicFile.write([1], to: other, protecting: [input])
    #expect(contents(other) == Data([1]))
  }

  @Test func theErrorNamesTheClash() {
    let error = FileWriteError.outputIsInput(output: "./a.tsv", input: "a.tsv")
    #expect("\(error)".hasPrefix("./a.tsv: is also an input (the same file as a.tsv); writing it"))
  }

  @Test func packingABlobOntoItselfIsRefusedAndTheBlobStays() throws {
    let blob = try makeBlob("words.swipedict")
    let before = contents(blob)
    #expect(throws: FileWriteError.self) { try Shipping.pack(blob, to: directory.path + "/./words.swipedict") }
    #expect(contents(blob) == before)
    #expect(files() == ["words.swipedict"])
  }

  @Test func installingAPackOverItselfIsRefusedAndThePackStays() throws {
    // A pack without `.zst` installs under its own name: into its own directory, that is itself.
    let blob = try makeBlob("words.swipedict")
    _ = try Shipping.pack(blob, to: directory.path + "/words.pack")
    let before = contents(directory.path + "/words.pack")
    #expect(throws: FileWriteError.self) {
      try Shipping.install(directory.path + "/words.pack", into: directory.path + "/.")
    }
    #expect(contents(directory.path + "/words.pack") == before)
    #expect(files() == ["words.pack", "words.swipedict"])
  }

  @Test func installCreatesAMissingDirectoryAndRefusesAFile() throws {
    let blob = try makeBlob("words.swipedict")
    _ = try Shipping.pack(blob, to: blob + ".zst")
    let target = directory.path + "/Dictionaries/en/"
    let installed = try Shipping.install(blob + ".zst", into: target)
    #expect(contents(installed.path) == contents(blob))
    let file = directory.write("plain", "x")
    #expect(throws: FileWriteError.io(path: file, message: "is not a directory")) {
      try Shipping.install(blob + ".zst", into: file)
    }
  }
}
