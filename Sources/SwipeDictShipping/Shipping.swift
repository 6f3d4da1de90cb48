import Foundation
import SwipeDict
import SwipeDictFiles

/// Shipping blobs compressed: `pack` before upload, `install` on the device.
///
/// A pack is one zstd frame (long-distance matching, a 128 MiB window, content checksum) of
/// the blob's bytes. Installing streams it into a temporary file beside the destination,
/// verifies every checksum and the automaton, and only then renames it into place: a
/// damaged or truncated pack is refused and the blob installed before stays.
public enum Shipping {
  /// What `pack` and `install` did.
  public struct Result: Sendable {
    /// The file written.
    public var path: String
    /// Bytes read.
    public var inputBytes: Int
    /// Bytes written.
    public var outputBytes: Int
  }

  /// Verifies a blob and compresses it.
  /// - Parameters:
  ///   - blob: the blob to pack (verified first: a damaged blob is not packed).
  ///   - output: the pack to write (atomically).
  ///   - level: the zstd level (1…22; 19 by default).
  public static func pack(_ blob: String, to output: String, level: Int = 19) throws -> Result {
    _ = try SwipeDictionary(contentsOf: blob, verify: true)
    let file = try InputFile(openingForReading: blob)
    let compressor = try ZstdCompressor(level: level, longDistanceMatching: true, windowLog: 27)
    let writer = try AtomicFile.Writer(path: output)
    var buffer = [UInt8](repeating: 0, count: 1 << 18)
    var compressed: [UInt8] = []
    var read = 0
    var written = 0
    while true {
      let n = try file.read(into: &buffer)
      if n == 0 { break }
      read += n
      compressed.removeAll(keepingCapacity: true)
      try compressor.compress(buffer[0..<n], into: &compressed)
      try writer.write(compressed[...])
      written += compressed.count
    }
    compressed.removeAll(keepingCapacity: true)
    try compressor.endFrame(into: &compressed)
    try writer.write(compressed[...])
    written += compressed.count
    try writer.commit()
    return Result(path: output, inputBytes: read, outputBytes: written)
  }

  /// Decompresses a pack into a directory, verifies it and moves it into place.
  /// - Parameters:
  ///   - pack: the `.zst` pack.
  ///   - directory: where the blob goes; it is named after the pack without `.zst`.
  /// - Returns: the installed blob's path and sizes.
  /// - Throws: `ZstdError` for a damaged or truncated pack, `SwipeDictError` when the
  ///   decompressed blob does not verify; in both cases nothing is installed.
  public static func install(_ pack: String, into directory: String) throws -> Result {
    var name = URL(fileURLWithPath: pack).lastPathComponent
    if name.hasSuffix(".zst") { name.removeLast(4) }
    let destination = URL(fileURLWithPath: directory).appendingPathComponent(name).path
    let file = try InputFile(openingForReading: pack)
    let decompressor = try ZstdDecompressor()
    let writer = try AtomicFile.Writer(path: destination)
    var buffer = [UInt8](repeating: 0, count: 1 << 18)
    var read = 0
    var written = 0
    while true {
      let n = try file.read(into: &buffer)
      if n == 0 { break }
      read += n
      decompressor.push(buffer[0..<n])
      while let chunk = try decompressor.next() {
        try writer.write(chunk)
        written += chunk.count
      }
    }
    try decompressor.finish()
    // Verify the bytes on disk before they replace anything.
    _ = try SwipeDictionary(contentsOf: writer.temporaryPath, verify: true)
    try writer.commit()
    return Result(path: destination, inputBytes: read, outputBytes: written)
  }
}
