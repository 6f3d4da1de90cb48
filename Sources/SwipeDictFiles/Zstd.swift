// Streaming wrappers over libzstd. This is the only Swift file that imports CZstd: every
// libzstd call, pointer and error code stays here.
import CZstd

/// The version of the linked libzstd, such as `"1.5.4"`.
///
/// The corresponding C function is `ZSTD_versionNumber` (the `ZSTD_VERSION_NUMBER` macro
/// does not import into Swift).
/// - Returns: the major, minor and release numbers joined by dots.
package func zstdVersion() -> String {
  let number = Int(ZSTD_versionNumber())
  return "\(number / 10_000).\(number / 100 % 100).\(number % 100)"
}

/// A problem reported by libzstd, or a compressed stream that ended inside a frame.
///
/// `reason` texts come from `ZSTD_getErrorName`, for example `"Data corruption detected"`.
/// Offsets count compressed bytes from the start of the stream.
public enum ZstdError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The compressed bytes are not valid zstd data: a damaged or foreign stream.
  ///
  /// `offset` is the number of compressed bytes the decoder had consumed when it stopped.
  case damaged(reason: String, offset: Int)
  /// A frame needs a larger window than the decompressor allows (see
  /// ``ZstdDecompressor/init(windowLogMax:)``); typically made with `zstd --long=N`, N > 27.
  case windowTooLarge(reason: String, offset: Int)
  /// The stream ended inside a frame: the file was cut short.
  ///
  /// `offset` is the total number of compressed bytes seen.
  case truncated(offset: Int)
  /// libzstd refused a compression or decompression parameter.
  case parameterRejected(parameter: String, value: Int, reason: String)
  /// Compressing failed (normally only from running out of memory).
  case compressionFailed(reason: String)
  /// libzstd could not allocate a compression or decompression context.
  case contextAllocationFailed

  /// One line for people: what zstd said and where.
  public var description: String {
    switch self {
    case .damaged(let reason, let offset):
      return "damaged zstd data near compressed byte \(offset): \(reason)"
    case .windowTooLarge(let reason, let offset):
      return "zstd frame at compressed byte \(offset) needs too large a window: \(reason)"
    case .truncated(let offset):
      return "zstd stream ends inside a frame after \(offset) compressed bytes (truncated)"
    case .parameterRejected(let parameter, let value, let reason):
      return "zstd rejected \(parameter) = \(value): \(reason)"
    case .compressionFailed(let reason):
      return "zstd compression failed: \(reason)"
    case .contextAllocationFailed:
      return "zstd could not allocate a context"
    }
  }
}

/// Decompresses a zstd stream incrementally: push compressed bytes, pull decompressed chunks.
///
/// Memory stays bounded by the frame's window (at most `2^windowLogMax` bytes) plus one
/// output chunk of `ZSTD_DStreamOutSize()` bytes (about 128 KiB), whatever the stream size.
/// Concatenated frames (`cat a.zst b.zst`) and skippable frames are read as one stream.
///
/// ```swift
/// let decompressor = try ZstdDecompressor()
/// for chunk in compressedChunks {
///   decompressor.push(chunk)
///   while let text = try decompressor.next() { consume(text) }
/// }
/// try decompressor.finish()  // throws .truncated if the last frame is incomplete
/// ```
///
/// A chunk returned by ``next()`` aliases an internal buffer: use it before the next call
/// (keeping it is safe but costs a copy). After an error, start over with a new
/// decompressor.
package final class ZstdDecompressor {
  /// The `ZSTD_DCtx`, owned; freed in `deinit`.
  private let context: OpaquePointer
  /// Compressed bytes not yet consumed start at `inputPosition`.
  private var input: ArraySlice<UInt8> = []
  private var inputPosition: Int = 0
  private var output: [UInt8]
  /// Compressed bytes consumed before the current `input`.
  private var consumedBefore = 0
  /// True while a frame has started and not been completely decoded and flushed.
  private var insideFrame = false
  /// True when the last call filled `output`: the decoder may hold more output.
  private var outputMayBePending = false

  /// Creates a decompressor.
  /// - Parameter windowLogMax: the largest window (as a power of two) a frame may ask for;
  ///   `nil` keeps libzstd's default of 27 (128 MiB). Frames made with `zstd --long=31`
  ///   need 31.
  /// - Throws: ``ZstdError/contextAllocationFailed``, or
  ///   ``ZstdError/parameterRejected(parameter:value:reason:)`` for an unsupported value.
  package init(windowLogMax: Int? = nil) throws(ZstdError) {
    guard let context = ZSTD_createDCtx() else { throw .contextAllocationFailed }
    self.context = context
    self.output = [UInt8](repeating: 0, count: Int(ZSTD_DStreamOutSize()))
    if let windowLogMax {
      let code = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, CInt(clamping: windowLogMax))
      if ZSTD_isError(code) != 0 {
        throw .parameterRejected(
          parameter: "windowLogMax", value: windowLogMax, reason: Self.errorName(code))
      }
    }
  }

  deinit { ZSTD_freeDCtx(context) }

  /// The number of compressed bytes consumed so far.
  package var compressedBytesConsumed: Int { consumedBefore + inputPosition }

  /// Queues compressed bytes; call ``next()`` until it returns `nil` to decompress them.
  /// - Parameter bytes: the next bytes of the compressed stream.
  package func push(_ bytes: ArraySlice<UInt8>) {
    if inputPosition == input.count {
      consumedBefore += inputPosition
      input = bytes
      inputPosition = 0
    } else {
      input.append(contentsOf: bytes)
    }
  }

  /// Queues compressed bytes; call ``next()`` until it returns `nil` to decompress them.
  /// - Parameter bytes: the next bytes of the compressed stream.
  package func push(_ bytes: [UInt8]) { push(bytes[...]) }

  /// Decompresses queued bytes into the next chunk of output.
  /// - Returns: the next decompressed bytes, or `nil` when all queued input is consumed and
  ///   no output is pending.
  /// - Throws: ``ZstdError/damaged(reason:offset:)`` or
  ///   ``ZstdError/windowTooLarge(reason:offset:)``.
  package func next() throws(ZstdError) -> ArraySlice<UInt8>? {
    while inputPosition < input.count || outputMayBePending {
      var produced = 0
      var position = inputPosition
      let code = input.withUnsafeBytes { source in
        output.withUnsafeMutableBytes { target in
          var inBuffer = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: position)
          var outBuffer = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
          let code = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
          produced = outBuffer.pos
          position = inBuffer.pos
          return code
        }
      }
      if ZSTD_isError(code) != 0 {
        let offset = compressedBytesConsumed
        input = []
        inputPosition = 0
        consumedBefore = offset
        // ZSTD_error_frameParameter_windowTooLarge, a stable value of zstd_errors.h, which the
        // shim does not include; libzstd returns error codes as -(code) in a size_t.
        if 0 &- code == 16 {
          throw .windowTooLarge(reason: Self.errorName(code), offset: offset)
        }
        throw .damaged(reason: Self.errorName(code), offset: offset)
      }
      // A call with no input and no output (after a frame ended exactly at the end of the
      // output buffer) only reports the next frame's header size: it says nothing new.
      guard position > inputPosition || produced > 0 else {
        outputMayBePending = false
        break
      }
      inputPosition = position
      // 0 means a frame is completely decoded and flushed; anything else is a size hint.
      insideFrame = code != 0
      outputMayBePending = produced == output.count
      if produced > 0 { return output[0..<produced] }
    }
    if inputPosition == input.count && !input.isEmpty {
      consumedBefore += inputPosition
      input = []
      inputPosition = 0
    }
    return nil
  }

  /// Checks that the stream ended at a frame boundary. Call after the last ``next()``.
  /// - Throws: ``ZstdError/truncated(offset:)`` when the stream stops inside a frame.
  package func finish() throws(ZstdError) {
    if insideFrame || inputPosition < input.count {
      throw .truncated(offset: compressedBytesConsumed + (input.count - inputPosition))
    }
  }

  /// Decompresses a whole stream held in memory.
  /// - Parameter bytes: one or more complete zstd frames.
  /// - Returns: the decompressed bytes.
  /// - Throws: ``ZstdError`` when the data is damaged or truncated.
  package static func decompress(_ bytes: [UInt8]) throws(ZstdError) -> [UInt8] {
    let decompressor = try ZstdDecompressor()
    var result: [UInt8] = []
    decompressor.push(bytes)
    while let chunk = try decompressor.next() { result.append(contentsOf: chunk) }
    try decompressor.finish()
    return result
  }

  fileprivate static func errorName(_ code: Int) -> String {
    String(cString: ZSTD_getErrorName(code))
  }
}

/// Compresses a stream incrementally into one or more zstd frames.
///
/// Feed bytes with ``compress(_:into:)``; ``endFrame(into:)`` ends the current frame, and
/// bytes compressed after it start a new frame of the same stream.
///
/// ```swift
/// let compressor = try ZstdCompressor(level: 19, longDistanceMatching: true)
/// var out: [UInt8] = []
/// for chunk in chunks {
///   try compressor.compress(chunk, into: &out)
///   write(out); out.removeAll(keepingCapacity: true)
/// }
/// try compressor.endFrame(into: &out)
/// write(out)
/// ```
package final class ZstdCompressor {
  /// The `ZSTD_CCtx`, owned; freed in `deinit`.
  private let context: OpaquePointer
  private var scratch: [UInt8]

  /// The compression levels libzstd accepts (negative levels are the fast modes).
  package static var levels: ClosedRange<Int> { Int(ZSTD_minCLevel())...Int(ZSTD_maxCLevel()) }

  /// Creates a compressor.
  /// - Parameters:
  ///   - level: the compression level (see ``levels``); 3 is zstd's default, 19 is slow and
  ///     small.
  ///   - longDistanceMatching: finds repeats far apart (`zstd --long`); helps large sorted
  ///     word lists.
  ///   - windowLog: the window as a power of two (10...31), or `nil` for the level's
  ///     default. Readers need `windowLogMax` at least this large above 27.
  ///   - checksum: appends a content checksum to each frame (as the `zstd` tool does).
  ///   - workers: compression threads; 0 compresses on the calling thread.
  /// - Throws: ``ZstdError/parameterRejected(parameter:value:reason:)`` for a value libzstd
  ///   refuses, or ``ZstdError/contextAllocationFailed``.
  package init(
    level: Int = 3, longDistanceMatching: Bool = false, windowLog: Int? = nil,
    checksum: Bool = true, workers: Int = 0
  ) throws(ZstdError) {
    guard let context = ZSTD_createCCtx() else { throw .contextAllocationFailed }
    self.context = context
    self.scratch = [UInt8](repeating: 0, count: Int(ZSTD_CStreamOutSize()))
    try set(ZSTD_c_compressionLevel, "level", level)
    try set(ZSTD_c_checksumFlag, "checksum", checksum ? 1 : 0)
    if longDistanceMatching {
      try set(ZSTD_c_enableLongDistanceMatching, "longDistanceMatching", 1)
    }
    if let windowLog { try set(ZSTD_c_windowLog, "windowLog", windowLog) }
    if workers > 0 { try set(ZSTD_c_nbWorkers, "workers", workers) }
  }

  deinit { ZSTD_freeCCtx(context) }

  /// Compresses bytes into the current frame, appending whatever output is ready.
  /// - Parameters:
  ///   - bytes: the next bytes of the uncompressed stream.
  ///   - output: receives compressed bytes (appended).
  /// - Throws: ``ZstdError/compressionFailed(reason:)``.
  package func compress(_ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) throws(ZstdError) {
    var position = 0
    while position < bytes.count {
      let (code, produced) = step(bytes, &position, ZSTD_e_continue)
      if ZSTD_isError(code) != 0 {
        throw .compressionFailed(reason: ZstdDecompressor.errorName(code))
      }
      output.append(contentsOf: scratch[0..<produced])
    }
  }

  /// Compresses bytes into the current frame, appending whatever output is ready.
  /// - Parameters:
  ///   - bytes: the next bytes of the uncompressed stream.
  ///   - output: receives compressed bytes (appended).
  /// - Throws: ``ZstdError/compressionFailed(reason:)``.
  package func compress(_ bytes: [UInt8], into output: inout [UInt8]) throws(ZstdError) {
    try compress(bytes[...], into: &output)
  }

  /// Flushes and closes the current frame; later input starts a new frame.
  /// - Parameter output: receives the rest of the frame (appended).
  /// - Throws: ``ZstdError/compressionFailed(reason:)``.
  package func endFrame(into output: inout [UInt8]) throws(ZstdError) {
    var position = 0
    while true {
      let (code, produced) = step([], &position, ZSTD_e_end)
      if ZSTD_isError(code) != 0 {
        throw .compressionFailed(reason: ZstdDecompressor.errorName(code))
      }
      output.append(contentsOf: scratch[0..<produced])
      if code == 0 { return }  // 0: the frame is completely flushed
    }
  }

  /// Compresses a whole buffer into one frame.
  /// - Parameters:
  ///   - bytes: the uncompressed bytes.
  ///   - level: the compression level (see ``levels``).
  /// - Returns: one complete zstd frame.
  /// - Throws: ``ZstdError``.
  package static func compress(_ bytes: [UInt8], level: Int = 3) throws(ZstdError) -> [UInt8] {
    let compressor = try ZstdCompressor(level: level)
    var output: [UInt8] = []
    try compressor.compress(bytes, into: &output)
    try compressor.endFrame(into: &output)
    return output
  }

  /// One `ZSTD_compressStream2` call into `scratch`.
  /// - Returns: libzstd's result code and the number of bytes written to `scratch`.
  private func step(
    _ bytes: ArraySlice<UInt8>, _ position: inout Int, _ directive: ZSTD_EndDirective
  ) -> (code: Int, produced: Int) {
    var inPosition = position
    var produced = 0
    let code = bytes.withUnsafeBytes { source in
      scratch.withUnsafeMutableBytes { target in
        var inBuffer = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: inPosition)
        var outBuffer = ZSTD_outBuffer(dst: target.baseAddress, size: target.count, pos: 0)
        let code = ZSTD_compressStream2(context, &outBuffer, &inBuffer, directive)
        inPosition = inBuffer.pos
        produced = outBuffer.pos
        return code
      }
    }
    position = inPosition
    return (code, produced)
  }

  private func set(_ parameter: ZSTD_cParameter, _ name: String, _ value: Int) throws(ZstdError) {
    let code = ZSTD_CCtx_setParameter(context, parameter, CInt(clamping: value))
    if ZSTD_isError(code) != 0 {
      throw .parameterRejected(
        parameter: name, value: value, reason: ZstdDecompressor.errorName(code))
    }
  }
}
