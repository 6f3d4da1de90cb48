import SwipeDict

/// One fuzz input: any bytes, opened as a blob; if they open, every query runs on them.
/// A crash, a sanitizer report or a hang (libFuzzer's -timeout) is a bug in the loader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let dictionary = try? SwipeDictionary(bytes: bytes) { exercise(dictionary) }
  // Most mutations break the header checksum; reseal it so they reach the sections.
  guard reseal(&bytes), let dictionary = try? SwipeDictionary(bytes: bytes) else { return 0 }
  exercise(dictionary)
  _ = try? dictionary.verify()
  return 0
}

/// Rewrites the header checksum (and the declared file size) of a mutated blob.
func reseal(_ bytes: inout [UInt8]) -> Bool {
  guard bytes.count >= 64 else { return false }
  for i in 0..<8 { bytes[16 + i] = UInt8(truncatingIfNeeded: UInt64(bytes.count) >> (8 * UInt64(i))) }
  let sections = Int(bytes[24]) | Int(bytes[25]) << 8
  let end = 64 + 32 * min(sections, 64)
  guard end <= bytes.count else { return false }
  for i in 40..<44 { bytes[i] = 0 }
  let crc = CRC32C.checksum(bytes[0..<end])
  for i in 0..<4 { bytes[40 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
  return true
}

/// Every public query, on words taken from the blob itself and on a few fixed ones.
func exercise(_ dictionary: SwipeDictionary) {
  var probes = ["", "a", "the", "Über", "e\u{301}", "zzzzzzzz"]
  for id in [0, 1, dictionary.wordCount / 2, dictionary.wordCount - 1, dictionary.wordCount, -1] {
    if let word = dictionary.word(for: id) { probes.append(word) }
    _ = dictionary.frequency(of: id)
  }
  for word in probes {
    _ = dictionary.id(of: word)
    _ = dictionary.frequency(of: word)
    _ = dictionary.ids(matchingFolded: word)
    _ = dictionary.idRange(withPrefix: String(word.prefix(2)))
    for _ in dictionary.words(withPrefix: String(word.prefix(1))).prefix(50) {}
  }
  _ = dictionary.layout
  _ = dictionary.metadata
}

/// SwiftPM's entry point for this executable: hands control to libFuzzer's driver.
@_cdecl("SwipeDictFuzz_main")
public func fuzzMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  var count = argc
  var arguments = argv
  return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
    fuzzOneInput(data!, size)
  }
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
