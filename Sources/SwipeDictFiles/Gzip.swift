// Streaming gzip over zlib. This is the only Swift file that imports CZlib: every zlib call,
// pointer and status code stays here.
import CZlib

/// A problem reported by zlib, or a gzip stream that ended inside a member.
///
/// Offsets count compressed bytes from the start of the stream.
public enum GzipError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The bytes are not valid gzip data (a bad header, a damaged block, a wrong checksum).
  case damaged(reason: String, offset: Int)
  /// The stream ended inside a member: the file was cut short.
  case truncated(offset: Int)
  /// zlib could not set up a stream (normally only from running out of memory).
  case streamSetupFailed(reason: String)

  /// One line for people: what zlib said and where.
  public var description: String {
    switch self {
    case .damaged(let reason, let offset):
      return "damaged gzip data near compressed byte \(offset): \(reason)"
    case .truncated(let offset):
      return "gzip stream ends inside a member after \(offset) compressed bytes (truncated)"
    case .streamSetupFailed(let reason):
      return "zlib could not set up a stream: \(reason)"
    }
  }
}

/// Whether `bytes` start a gzip member (`1F 8B`).
package func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
  bytes.starts(with: [0x1F, 0x8B])
}

/// Decompresses a gzip stream incrementally: push compressed bytes, pull decompressed chunks,
/// as ``ZstdDecompressor`` does for zstd.
///
/// Memory stays bounded by zlib's 32 KiB window plus one 128 KiB output chunk, whatever the
/// stream size. Concatenated members (`cat a.gz b.gz`) are read as one stream.
///
/// ```swift
/// let decompressor = try GzipDecompressor()
/// for chunk in compressedChunks {
///   decompressor.push(chunk)
///   while let text = try decompressor.next() { consume(text) }
/// }
/// try decompressor.finish()  // throws .truncated if the last member is incomplete
/// ```
///
/// A chunk returned by ``next()`` aliases an internal buffer: use it before the next call.
/// After an error, start over with a new decompressor.
package final class GzipDecompressor {
  /// The zlib stream, owned: `inflateEnd` in `deinit`.
  private var stream = z_stream()
  private var input: [UInt8] = []
  private var inputPosition = 0
  private var output = [UInt8](repeating: 0, count: 128 * 1024)
  /// Compressed bytes consumed before the current `input`.
  private var consumedBefore = 0
  /// True from a member's first byte until its end.
  private var insideMember = false
  /// True when the last call filled `output`: zlib may hold more output.
  private var outputMayBePending = false

  /// Creates a decompressor.
  /// - Throws: ``GzipError/streamSetupFailed(reason:)``.
  package init() throws(GzipError) {
    // 15 + 16: the largest window, gzip headers only (not raw or zlib-wrapped data).
    let status = inflateInit2_(&stream, 15 + 16, zlibVersion(), CInt(MemoryLayout<z_stream>.size))
    guard status == Z_OK else { throw .streamSetupFailed(reason: Self.describe(status, &stream)) }
  }

  deinit { inflateEnd(&stream) }

  /// The number of compressed bytes consumed so far.
  package var compressedBytesConsumed: Int { consumedBefore + inputPosition }

  /// Queues compressed bytes; call ``next()`` until it returns `nil` to decompress them.
  package func push(_ bytes: some Collection<UInt8>) {
    if inputPosition == input.count {
      consumedBefore += inputPosition
      input = Array(bytes)
      inputPosition = 0
    } else {
      input.append(contentsOf: bytes)
    }
  }

  /// The next decompressed bytes, or `nil` when the queued input is used up.
  /// - Throws: ``GzipError/damaged(reason:offset:)``.
  package func next() throws(GzipError) -> ArraySlice<UInt8>? {
    while inputPosition < input.count || outputMayBePending {
      // A new member starts at the next byte (the first, or one after `cat a.gz b.gz`).
      if !insideMember, inputPosition < input.count { insideMember = true }
      let (status, read, written) = step()
      inputPosition += read
      // A full output buffer may leave more output inside zlib, even with no input left.
      outputMayBePending = written == output.count
      switch status {
      case Z_STREAM_END:
        insideMember = false
        outputMayBePending = false
        inflateReset(&stream)
      case Z_OK:
        break
      case Z_BUF_ERROR:
        // No progress possible: all queued input is in, nothing more comes out.
        outputMayBePending = false
      default:
        throw .damaged(reason: Self.describe(status, &stream), offset: compressedBytesConsumed)
      }
      if written > 0 { return output[..<written] }
      if status == Z_BUF_ERROR { return nil }
    }
    return nil
  }

  /// Ends the stream: every member must be complete.
  /// - Throws: ``GzipError/truncated(offset:)`` when the last member was cut short.
  package func finish() throws(GzipError) {
    guard !insideMember else { throw .truncated(offset: compressedBytesConsumed) }
  }

  /// One call of `inflate` over the queued input into `output`: the status, the compressed
  /// bytes read and the decompressed bytes written.
  private func step() -> (status: CInt, read: Int, written: Int) {
    let available = input.count - inputPosition
    let room = output.count
    let position = inputPosition
    return input.withUnsafeMutableBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target in
        // safe: both pointers are used only within this call, for the counts given.
        stream.next_in = source.baseAddress.map { $0 + position }
        stream.avail_in = uInt(available)
        stream.next_out = target.baseAddress
        stream.avail_out = uInt(room)
        let status = inflate(&stream, Z_NO_FLUSH)
        let read = available - Int(stream.avail_in)
        let written = room - Int(stream.avail_out)
        stream.next_in = nil
        stream.next_out = nil
        return (status, read, written)
      }
    }
  }

  private static func describe(_ status: CInt, _ stream: inout z_stream) -> String {
    if let message = stream.msg { return String(cString: message) }
    switch status {
    case Z_DATA_ERROR: return "invalid or incomplete deflate data"
    case Z_MEM_ERROR: return "out of memory"
    case Z_BUF_ERROR: return "no progress possible"
    case Z_STREAM_ERROR: return "inconsistent stream state"
    case Z_VERSION_ERROR: return "incompatible zlib version"
    default: return "zlib status \(status)"
    }
  }
}

/// `bytes` compressed as one gzip member (for tests and tools; the word-list reader only
/// decompresses).
/// - Parameter level: 1 (fastest) … 9 (smallest).
/// - Throws: ``GzipError/streamSetupFailed(reason:)``.
package func gzipCompress(_ bytes: [UInt8], level: Int = 6) throws(GzipError) -> [UInt8] {
  var stream = z_stream()
  var status = deflateInit2_(
    &stream, CInt(min(9, max(1, level))), Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
    CInt(MemoryLayout<z_stream>.size))
  guard status == Z_OK else { throw .streamSetupFailed(reason: "deflateInit2 status \(status)") }
  defer { deflateEnd(&stream) }
  var input = bytes
  var result: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 64 * 1024)
  let total = input.count
  input.withUnsafeMutableBufferPointer { source in
    stream.next_in = source.baseAddress
    stream.avail_in = uInt(total)
    repeat {
      chunk.withUnsafeMutableBufferPointer { target in
        stream.next_out = target.baseAddress
        stream.avail_out = uInt(target.count)
        status = deflate(&stream, Z_FINISH)
        result.append(contentsOf: target[..<(target.count - Int(stream.avail_out))])
      }
    } while status == Z_OK
    stream.next_in = nil
    stream.next_out = nil
  }
  guard status == Z_STREAM_END else { throw .streamSetupFailed(reason: "deflate status \(status)") }
  return result
}
