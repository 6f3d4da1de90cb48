import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictFiles
import SwipeDictShipping
import SwipeDictTestSupport
import Testing

@Suite("Pack and install")
struct ShippingTests {
  let directory = TemporaryDirectory()
  let layout = try! LayoutFile.parse(Data(qwertyJSON.utf8), file: "mini.json")

  func makeBlob(_ name: String, words: Int = 3000) throws -> String {
    let entries = (0..<words).map { (word: "w" + String($0 * 7919, radix: 26), count: Double($0 % 89 + 1)) }
    let path = directory.path + "/" + name
    try AtomicFile.write(try DictionaryCompiler.compile(words: entries, layout: layout).bytes, to: path)
    return path
  }

  func files(in path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
  }

  @Test func packThenInstallRestoresTheBlobByteForByte() throws {
    let blob = try makeBlob("words.swipedict")
    let pack = try Shipping.pack(blob, to: blob + ".zst")
    #expect(pack.outputBytes < pack.inputBytes)
    let target = directory.path + "/installed"
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    let installed = try Shipping.install(blob + ".zst", into: target)
    #expect(installed.path == target + "/words.swipedict")
    #expect(FileManager.default.contents(atPath: installed.path) == FileManager.default.contents(atPath: blob))
    #expect(files(in: target) == ["words.swipedict"])
  }

  @Test(arguments: ["flip", "truncate", "garbage"])
  func damagedPacksAreRefusedAndTheOldBlobStays(_ damage: String) throws {
    let blob = try makeBlob("words.swipedict")
    _ = try Shipping.pack(blob, to: blob + ".zst")
    let target = directory.path + "/installed"
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    _ = try Shipping.install(blob + ".zst", into: target)
    let before = FileManager.default.contents(atPath: target + "/words.swipedict")

    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: blob + ".zst")))
    switch damage {
    case "flip": bytes[bytes.count / 2] ^= 0x5A
    case "truncate": bytes.removeLast(bytes.count / 3)
    default: bytes = Array(repeating: 0x42, count: 1000)
    }
    let damaged = directory.path + "/damaged/words.swipedict.zst"
    try FileManager.default.createDirectory(
      atPath: directory.path + "/damaged", withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    #expect(throws: (any Error).self) { try Shipping.install(damaged, into: target) }
    #expect(FileManager.default.contents(atPath: target + "/words.swipedict") == before)
    #expect(files(in: target) == ["words.swipedict"])  // no temporary file left behind
  }

  /// A pack of 64 MiB of zeros, and of a blob followed by 64 MiB of zeros: install stops at the
  /// header (no magic) or at the size the blob declares, having written no more than that.
  @Test("decompression bombs stop at the blob's header or at its declared size", arguments: ["zeros", "appended"])
  func decompressionBombsStopEarly(_ kind: String) throws {
    let blob = try makeBlob("words.swipedict")
    let blobBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: blob)))
    let zeros = [UInt8](repeating: 0, count: 64 << 20)
    let payload = kind == "zeros" ? zeros : blobBytes + zeros
    let bomb = directory.path + "/bomb/words.swipedict.zst"
    try FileManager.default.createDirectory(atPath: directory.path + "/bomb", withIntermediateDirectories: true)
    try Data(try ZstdCompressor.compress(payload, level: 1)).write(to: URL(fileURLWithPath: bomb))
    let target = directory.path + "/installed"
    #expect {
      try Shipping.install(bomb, into: target)
    } throws: { error in
      let text = "\(error)"
      return kind == "zeros"
        ? text.contains("does not hold a SwipeDict blob (bad magic bytes")
        : text.contains("decompresses to more than the \(blobBytes.count) bytes its blob declares")
    }
    #expect(files(in: target).isEmpty)
  }

  @Test func aDamagedBlobIsNotPacked() throws {
    let blob = try makeBlob("words.swipedict")
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: blob)))
    bytes[bytes.count - 10] ^= 1
    try Data(bytes).write(to: URL(fileURLWithPath: blob))
    #expect(throws: SwipeDictError.self) { try Shipping.pack(blob, to: blob + ".zst") }
    #expect(!FileManager.default.fileExists(atPath: blob + ".zst"))
  }
}
