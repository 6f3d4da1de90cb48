import Foundation
import SwipeDict
@_exported import SwipeDictFiles
import SwipeDictFormat

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
  ///   - output: the pack to write (atomically); it must not be the blob itself.
  ///   - level: the zstd level (1…22; 19 by default).
  /// - Throws: `FileWriteError.outputIsInput` when `output` is the blob (checked before
  ///   anything is read or written), `SwipeDictError` when the blob does not verify,
  ///   `FileWriteError.io` or `ZstdError` when reading, compressing or writing fails.
  public static func pack(_ blob: String, to output: String, level: Int = 19) throws -> Result {
    try AtomicFile.refuseOverwriting([blob], with: output)
    _ = try SwipeDictionary(contentsOf: blob, verify: true)
    let file = try InputFile(openingForReading: blob)
    let compressor = try ZstdCompressor(level: level, longDistanceMatching: true, windowLog: 27)
    let writer = try AtomicFile.Writer(path: output, protecting: [blob])
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
  ///   - directory: where the blob goes, created (with its parents) if it does not exist;
  ///     the blob is named after the pack without `.zst`.
  /// - Returns: the installed blob's path and sizes.
  /// - Throws: `ZstdError` for a damaged or truncated pack, `SwipeDictError` when the
  ///   decompressed blob does not verify, `FileWriteError.outputIsInput` when the blob would
  ///   replace the pack itself, `FileWriteError.io` when `directory` cannot be created or is
  ///   not a directory; in every case nothing is installed.
  public static func install(_ pack: String, into directory: String) throws -> Result {
    var name = URL(fileURLWithPath: pack).lastPathComponent
    if name.hasSuffix(".zst") { name.removeLast(4) }
    let destination = URL(fileURLWithPath: directory).appendingPathComponent(name).path
    try AtomicFile.refuseOverwriting([pack], with: destination)
    let file = try InputFile(openingForReading: pack)
    let decompressor = try ZstdDecompressor()
    try makeDirectory(directory)
    // Installed only once verified: never streamed into a device or FIFO.
    let writer = try AtomicFile.Writer(path: destination, protecting: [pack], allowsStreaming: false)
    var buffer = [UInt8](repeating: 0, count: 1 << 18)
    var read = 0
    var written = 0
    // The blob's header, as soon as its 64 bytes are out: its magic, and the size it declares,
    // past which nothing more is written (a pack of a gigabyte of zeros stops at once).
    var head: [UInt8] = []
    var declared: Int?
    while true {
      let n = try file.read(into: &buffer)
      if n == 0 { break }
      read += n
      decompressor.push(buffer[0..<n])
      while let chunk = try decompressor.next() {
        if declared == nil {
          head += chunk.prefix(BlobFormat.headerSize - head.count)
          if head.count == BlobFormat.headerSize { declared = try declaredSize(head, pack: pack) }
        }
        if let declared, written + chunk.count > declared {
          throw InstallError(
            pack: pack,
            message: "it decompresses to more than the \(declared) bytes its blob declares: it is damaged or not a pack"
          )
        }
        try writer.write(chunk)
        written += chunk.count
      }
    }
    try decompressor.finish()
    guard declared != nil else {
      throw InstallError(pack: pack, message: "it decompresses to \(written) bytes, shorter than a blob's header")
    }
    // Verify the bytes on disk before they replace anything.
    _ = try SwipeDictionary(contentsOf: writer.temporaryPath, verify: true)
    try writer.commit()
    return Result(path: destination, inputBytes: read, outputBytes: written)
  }

  /// The file size a blob's header declares, after its magic is checked.
  private static func declaredSize(_ head: [UInt8], pack: String) throws(InstallError) -> Int {
    guard head.starts(with: BlobFormat.magic) else {
      throw InstallError(pack: pack, message: "it does not hold a SwipeDict blob (bad magic bytes at its start)")
    }
    let size = (16..<24).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64(head[$1]) }
    guard size >= UInt64(BlobFormat.headerSize), size <= UInt64(Int.max) else {
      throw InstallError(pack: pack, message: "its blob declares an impossible size (\(size) bytes)")
    }
    return Int(size)
  }

  /// Creates `directory` and its parents unless it exists; fails if it exists as a file.
  private static func makeDirectory(_ directory: String) throws(FileWriteError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else { throw .io(path: directory, message: "is not a directory") }
      return
    }
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw .io(path: directory, message: "cannot create the directory (\(error.localizedDescription))")
    }
  }
}

/// Why a pack cannot be installed, found while it decompresses (before its blob is verified).
public struct InstallError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The pack.
  public var pack: String
  /// What is wrong.
  public var message: String

  /// `PACK: what is wrong`, and what to do.
  public var description: String {
    "\(pack): \(message)\n  hint: pack the blob again (swipedict pack BLOB -o PACK)"
  }
}
