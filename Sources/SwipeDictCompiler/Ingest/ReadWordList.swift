import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Streams a word list (plain, zstd- or gzip-compressed) and calls `body` for each entry, in file
/// order.
///
/// The file is read with `read(2)` in 256 KiB chunks and never held whole; a zstd file,
/// recognized by its magic bytes (`28 B5 2F FD`, or a skippable frame), or a gzip file
/// (`1F 8B`), whatever its name, is decompressed while streaming. The text is UTF-8 with LF or CRLF line endings and an
/// optional byte-order mark. Lines starting with `#` are comments; they and blank lines are
/// skipped, as are trailing spaces. The first data line decides the ``WordListFormat``:
///
/// - `dictionary=…` starts an AOSP combined list: ` word=the,f=222,flags=,originalFreq=222`
///   entries give the word, its count `f`, its marks (`possibly_offensive=true`,
///   `flags=abbreviation`) and its shortcuts (the `shortcut=` lines below it, handed over
///   with the entry, so an entry arrives when the next one is read); `not_a_word=true`
///   entries are misspellings kept for their shortcuts; phrases (` word=parce que`) are
///   kept apart (counted in ``WordListReport/multiWord``); `bigram=` lines are ignored.
/// - A line with a space or TAB starts a counted list, `word<TAB>count` or `word count`:
///   the line splits at its last run of spaces and TABs, and the count is a non-negative
///   integer or decimal (`42`, `12.5`; no sign or exponent) of at most 2^53. A third column
///   after a TAB holds the word's marks, comma-separated (`word<TAB>count<TAB>possibly_offensive`,
///   also `abbreviation`), as AOSP's attributes of the same names.
/// - Otherwise the list is bare, one word per line, most frequent first: the entry on the
///   k-th data line (k = 1, 2, …) gets the count `1_000_000 / k`.
///
/// A later line that does not fit the format is an error, as are invalid UTF-8, NUL and
/// other control characters, empty words, whitespace in a word (Unicode White_Space
/// included), bad counts and lines over ``WordListReadOptions/maxLineBytes``: each is a
/// ``WordListError`` with its line and byte column. With
/// ``WordListReadOptions/skipInvalid`` such lines are counted and skipped instead.
/// Words are passed on exactly as written, without normalization.
///
/// ```swift
/// let report = try readWordList(atPath: "en.tsv.zst") { entry in
///   counts[entry.word, default: 0] += entry.count
/// }
/// ```
///
/// Entries are delivered while reading: when the read throws, `body` has already seen the
/// entries before the problem, and the caller should drop them.
///
/// - Parameters:
///   - path: the file to read.
///   - options: how to treat bad lines.
///   - body: called with each entry; an error it throws ends the read and is rethrown.
/// - Returns: what was read, with the CRC-32C of the file as stored.
/// - Throws: ``InputFileError`` when the file cannot be opened or read; ``WordListError``
///   for a bad line (unless skipped), a damaged or truncated zstd stream, or a file with
///   no entries; and whatever `body` throws.
/// - Complexity: O(n) in the file size; memory is O(1) apart from one line
///   (`maxLineBytes`) and the zstd window.
public func readWordList(
  atPath path: String, options: WordListReadOptions = .init(),
  _ body: (WordListEntry) throws -> Void
) throws -> WordListReport {
  precondition(options.maxLineBytes > 0, "maxLineBytes must be positive")
  let file = try InputFile(openingForReading: path)
  var stream = WordListStream(file: path, options: options)
  var buffer = [UInt8](repeating: 0, count: WordListStream.readChunkBytes)
  while true {
    let count = try file.read(into: &buffer)
    if count == 0 { break }
    try stream.consume(buffer[0..<count], body)
  }
  return try stream.finish(body)
}

/// The pipeline behind ``readWordList(atPath:options:_:)``, fed with the raw bytes of one
/// file: checksum, zstd or gzip detection and decompression, line splitting, parsing.
///
/// Tests feed it bytes directly, in chunks of any size.
struct WordListStream {
  /// The size of each `read(2)`.
  static let readChunkBytes = 256 * 1024
  private static let zstdMagic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  private let file: String
  private var checksum = CRC32C()
  private var rawBytes = 0
  private var textBytes = 0
  /// The first bytes, held until there are enough to recognize zstd.
  private var head: [UInt8] = []
  private var decided = false
  /// The first text bytes, held until there are enough to recognize a byte-order mark.
  private var textHead: [UInt8] = []
  private var textStarted = false
  private var decompressor: ZstdDecompressor?
  private var gunzip: GzipDecompressor?
  private var splitter: LineSplitter
  private var parser: WordListParser

  init(file: String, options: WordListReadOptions) {
    self.file = file
    self.splitter = LineSplitter(maxLineBytes: options.maxLineBytes)
    self.parser = WordListParser(file: file, options: options)
  }

  /// Takes the next bytes of the file as stored.
  /// - Parameters:
  ///   - bytes: the next raw (possibly compressed) bytes.
  ///   - body: receives the entries completed by these bytes.
  /// - Throws: ``WordListError`` for a bad line or damaged zstd data; what `body` throws.
  mutating func consume(
    _ bytes: ArraySlice<UInt8>, _ body: (WordListEntry) throws -> Void
  ) throws {
    checksum.update(bytes)
    rawBytes += bytes.count
    if decided {
      try deliver(bytes, body)
      return
    }
    head.append(contentsOf: bytes)
    if head.count >= Self.zstdMagic.count { try decide(body) }
  }

  /// Ends the file: flushes the last line and checks the zstd stream and the entry count.
  /// - Parameter body: receives the entry on the last line, if any.
  /// - Returns: the report.
  /// - Throws: ``WordListError`` for a bad last line, a truncated zstd stream or a file
  ///   without entries; what `body` throws.
  mutating func finish(_ body: (WordListEntry) throws -> Void) throws -> WordListReport {
    if !decided { try decide(body) }
    if let decompressor {
      do throws(ZstdError) { try decompressor.finish() } catch { throw damaged(error) }
    }
    if let gunzip {
      do throws(GzipError) { try gunzip.finish() } catch { throw damaged(error) }
    }
    if !textStarted { try startText(body) }
    try splitter.finish { try parser.consume($0, body) }
    try parser.flush(body)
    try parser.finish()
    var report = WordListReport(
      file: file, format: parser.format, entries: parser.entries, lines: parser.lines,
      skipped: parser.skipped, ignored: parser.ignored, warnings: parser.warnings,
      rawBytes: rawBytes, textBytes: textBytes, checksum: checksum.value,
      compressed: decompressor != nil || gunzip != nil)
    report.multiWord = parser.multiWord
    report.multiWordExamples = parser.multiWordExamples
    report.misspellings = parser.misspellings
    report.shortcuts = parser.shortcuts
    return report
  }

  private mutating func decide(_ body: (WordListEntry) throws -> Void) throws {
    decided = true
    if Self.isZstd(head) {
      do throws(ZstdError) { decompressor = try ZstdDecompressor() } catch { throw damaged(error) }
    } else if isGzip(head) {
      do throws(GzipError) { gunzip = try GzipDecompressor() } catch { throw damaged(error) }
    }
    let bytes = head
    head = []
    try deliver(bytes[...], body)
  }

  /// Whether bytes start a zstd frame or a skippable frame (`5? 2A 4D 18`).
  private static func isZstd(_ bytes: [UInt8]) -> Bool {
    bytes.starts(with: zstdMagic)
      || (bytes.count >= 4 && bytes[0] & 0xF0 == 0x50
        && bytes[1...3].elementsEqual([0x2A, 0x4D, 0x18]))
  }

  private mutating func deliver(
    _ bytes: ArraySlice<UInt8>, _ body: (WordListEntry) throws -> Void
  ) throws {
    if let gunzip {
      gunzip.push(bytes)
      while true {
        let chunk: ArraySlice<UInt8>?
        do throws(GzipError) { chunk = try gunzip.next() } catch { throw damaged(error) }
        guard let chunk else { return }
        try split(chunk, body)
      }
    }
    guard let decompressor else {
      try split(bytes, body)
      return
    }
    decompressor.push(bytes)
    while true {
      let chunk: ArraySlice<UInt8>?
      do throws(ZstdError) { chunk = try decompressor.next() } catch { throw damaged(error) }
      guard let chunk else { return }
      try split(chunk, body)
    }
  }

  private mutating func split(
    _ text: ArraySlice<UInt8>, _ body: (WordListEntry) throws -> Void
  ) throws {
    textBytes += text.count
    if textStarted {
      try splitter.feed(text) { try parser.consume($0, body) }
      return
    }
    textHead.append(contentsOf: text)
    if textHead.count >= Self.byteOrderMark.count { try startText(body) }
  }

  /// Drops a byte-order mark at the start of the text, so that line 1's columns and
  /// length count from after it, and splits the first bytes.
  private mutating func startText(_ body: (WordListEntry) throws -> Void) throws {
    textStarted = true
    var text = textHead[...]
    textHead = []
    if text.starts(with: Self.byteOrderMark) { text = text.dropFirst(Self.byteOrderMark.count) }
    try splitter.feed(text) { try parser.consume($0, body) }
  }

  /// A file-level error for a gzip problem.
  private func damaged(_ error: GzipError) -> WordListError {
    let message: String
    switch error {
    case .truncated(let offset):
      message = "the gzip-compressed file is damaged: it ends inside a member after \(offset) bytes (truncated)"
    case .damaged(let reason, let offset):
      message = "the gzip-compressed file is damaged near byte \(offset): \(reason)"
    case .streamSetupFailed:
      message = "the gzip-compressed file cannot be read: \(error)"
    }
    return WordListError(
      location: InputLocation(file: file, line: 0, column: 0), reason: .damagedCompression,
      message: message, hint: "re-download the file, or recompress it from the original (gzip -9 FILE)")
  }

  /// A file-level error for a zstd problem.
  private func damaged(_ error: ZstdError) -> WordListError {
    let message: String
    var hint = "re-download the file, or recompress it from the original (zstd -19 FILE)"
    switch error {
    case .truncated(let offset):
      message =
        "the zstd-compressed file is damaged: it ends inside a frame after \(offset)"
        + " bytes (truncated)"
    case .damaged(let reason, let offset):
      message = "the zstd-compressed file is damaged near byte \(offset): \(reason)"
    case .windowTooLarge(let reason, _):
      message = "the zstd-compressed file needs a window over 128 MiB: \(reason)"
      hint =
        "recompress it with a window of at most 128 MiB, for example:"
        + " zstd -d -c --long=31 FILE | zstd --long=27 -o NEW.zst"
    default:
      message = "the zstd-compressed file cannot be read: \(error)"
    }
    return WordListError(
      location: InputLocation(file: file, line: 0, column: 0), reason: .damagedCompression,
      message: message, hint: hint)
  }
}
