/// Cuts a stream of text chunks into lines, without buffering more than one line.
///
/// A line ends at LF; a CR just before the LF is dropped (CRLF). A line inside one chunk is
/// handed over as a slice of that chunk; only a line that spans chunks is copied. A line
/// longer than `maxLineBytes` is not buffered: the splitter keeps its first bytes, counts
/// the rest up to the next LF, and reports it as ``Event/tooLong(length:prefix:)``.
///
/// Slices passed to the handler are valid only during the call.
struct LineSplitter {
  /// What the splitter found.
  enum Event {
    /// A line without its line ending.
    case line(ArraySlice<UInt8>)
    /// A line over the limit: its length in bytes without the line ending, and its first
    /// bytes (up to `prefixLength`), enough to recognize a comment or a byte-order mark.
    case tooLong(length: Int, prefix: [UInt8])
  }

  static let prefixLength = 4
  private static let lineFeed: UInt8 = 0x0A
  private static let carriageReturn: UInt8 = 0x0D

  let maxLineBytes: Int
  /// The start of a line that began in an earlier chunk.
  private var carry: [UInt8] = []
  /// Whether the current line went over the limit and is being read past.
  private var skipping = false
  private var skippedLength = 0
  private var skippedPrefix: [UInt8] = []
  private var skippedLastByte: UInt8 = 0

  /// A splitter.
  /// - Parameter maxLineBytes: the longest line, without its line ending, passed as `.line`.
  init(maxLineBytes: Int) {
    self.maxLineBytes = maxLineBytes
  }

  /// Splits the next chunk of text.
  /// - Parameters:
  ///   - chunk: the next bytes of the text.
  ///   - handle: called for every line that ends in this chunk, in order.
  mutating func feed(
    _ chunk: ArraySlice<UInt8>, _ handle: (Event) throws -> Void
  ) rethrows {
    var start = chunk.startIndex
    let end = chunk.endIndex
    while start < end {
      guard let newline = chunk[start..<end].firstIndex(of: Self.lineFeed) else {
        absorbPartial(chunk[start..<end])
        return
      }
      let piece = chunk[start..<newline]
      start = newline + 1
      if skipping {
        absorbSkipped(piece)
        try handle(endSkipping())
      } else if carry.isEmpty {
        try handle(event(for: piece))
      } else if carry.count + piece.count > maxLineBytes + 1 {
        // Over the limit even if the piece ends with CR: report without copying the piece.
        skipping = true
        skippedPrefix = Array((carry + piece.prefix(Self.prefixLength)).prefix(Self.prefixLength))
        skippedLength = carry.count
        carry.removeAll(keepingCapacity: true)
        absorbSkipped(piece)
        try handle(endSkipping())
      } else {
        carry.append(contentsOf: piece)
        try handle(event(for: carry[...]))
        carry.removeAll(keepingCapacity: true)
      }
    }
  }

  /// Hands over the last line when the text does not end with a line feed.
  /// - Parameter handle: called for the last line, if any.
  mutating func finish(_ handle: (Event) throws -> Void) rethrows {
    if skipping {
      try handle(endSkipping())
    } else if !carry.isEmpty {
      try handle(event(for: carry[...]))
      carry.removeAll()
    }
  }

  private func event(for piece: ArraySlice<UInt8>) -> Event {
    var line = piece
    if line.last == Self.carriageReturn { line = line.dropLast() }
    if line.count > maxLineBytes {
      return .tooLong(length: line.count, prefix: Array(line.prefix(Self.prefixLength)))
    }
    return .line(line)
  }

  /// Keeps the start of a line that continues in the next chunk, or starts skipping it.
  private mutating func absorbPartial(_ piece: ArraySlice<UInt8>) {
    if skipping {
      absorbSkipped(piece)
    } else if carry.count + piece.count > maxLineBytes + 1 {
      skipping = true
      skippedPrefix = Array((carry + piece.prefix(Self.prefixLength)).prefix(Self.prefixLength))
      skippedLength = carry.count
      carry.removeAll(keepingCapacity: true)
      absorbSkipped(piece)
    } else {
      carry.append(contentsOf: piece)
    }
  }

  private mutating func absorbSkipped(_ piece: ArraySlice<UInt8>) {
    skippedLength += piece.count
    if let last = piece.last { skippedLastByte = last }
  }

  private mutating func endSkipping() -> Event {
    let length = skippedLength - (skippedLastByte == Self.carriageReturn ? 1 : 0)
    let event = Event.tooLong(length: length, prefix: skippedPrefix)
    skipping = false
    skippedLength = 0
    skippedLastByte = 0
    skippedPrefix = []
    return event
  }
}
