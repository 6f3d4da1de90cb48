import CSwipeDict
import SwipeDict

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#elseif canImport(Darwin)
  import Darwin
#endif

/// Strings across the boundary: NUL-terminated UTF-8 in, checked; words out into the fixed
/// buffers of the records.
enum CText {
  /// The string `pointer` holds, or a failure for NULL or bytes that are not UTF-8.
  /// - Parameter argument: the argument's name, for the message.
  @inline(__always)
  static func string(_ pointer: UnsafePointer<CChar>?, _ argument: String) throws(Failure) -> String {
    guard let pointer else { throw .null(argument) }
    let length = strlen(pointer)
    let string: String? = pointer.withMemoryRebound(to: UInt8.self, capacity: length) { start in
      let bytes = UnsafeBufferPointer(start: start, count: length)
      // ASCII, the common case, needs no check; anything else is checked strictly (no
      // overlong forms, surrogates or values past U+10FFFF), not repaired.
      var isASCII = true
      for byte in bytes where byte >= 0x80 {
        isASCII = false
        break
      }
      if !isASCII {
        let invalid = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true) { _ in }
        if invalid { return nil }
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    guard let string else { throw Failure(SWIPEDICT_E_ARGUMENT, "\(argument) is not valid UTF-8") }
    return string
  }

  /// `string`, or `nil` for a NULL pointer (optional arguments).
  static func optionalString(_ pointer: UnsafePointer<CChar>?, _ argument: String) throws(Failure) -> String? {
    guard pointer != nil else { return nil }
    return try string(pointer, argument)
  }

  /// Writes `text` into a record's fixed buffer of `capacity` bytes (NUL included), cut at a
  /// character boundary when it does not fit, and returns its whole length in bytes.
  static func copy(_ text: String, into buffer: UnsafeMutableRawBufferPointer) -> UInt32 {
    var text = text
    return text.withUTF8 { bytes in
      guard let base = buffer.baseAddress, buffer.count > 0 else { return UInt32(clamping: bytes.count) }
      var length = min(bytes.count, buffer.count - 1)
      // Not in the middle of a character: back up over continuation bytes (10xxxxxx).
      if length < bytes.count {
        while length > 0, bytes[length] & 0xC0 == 0x80 { length -= 1 }
      }
      if length > 0, let source = bytes.baseAddress { base.copyMemory(from: source, byteCount: length) }
      buffer[length] = 0
      return UInt32(clamping: bytes.count)
    }
  }

  /// A C size as a count: sizes past `Int.max` (which arrive negative) count as `Int.max`.
  @inline(__always)
  static func count(_ size: Int) -> Int { size < 0 ? Int.max : size }
}

extension swipedict_suggestion {
  /// A record of `word` with its ID and figures.
  init(id: Int, word: String, score: Double, distance: Double, frequency: UInt8) {
    self.init()
    self.id = Int64(id)
    self.score = score
    self.distance = distance
    self.frequency = UInt32(frequency)
    length = withUnsafeMutableBytes(of: &self.word) { CText.copy(word, into: $0) }
  }

  /// The record of a query's suggestion.
  init(_ suggestion: Suggestion) {
    self.init(
      id: suggestion.id, word: suggestion.word, score: Double(suggestion.score), distance: Double(suggestion.distance),
      frequency: suggestion.frequency)
  }
}

extension swipedict_user_entry {
  /// The record of a user dictionary's entry.
  init(_ entry: UserEntry) {
    self.init()
    kind = Int32(entry.kind.rawValue)
    uses = Int64(entry.uses)
    last_use = entry.lastUse
    length = withUnsafeMutableBytes(of: &word) { CText.copy(entry.word, into: $0) }
  }
}

/// A caller's array for results: where they go, how many fit, and where their number goes.
/// Made (and checked) before the query runs, so that a NULL is refused the same way
/// whatever the query finds.
struct Output<Record> {
  private let records: UnsafeMutablePointer<Record>?
  private let count: UnsafeMutablePointer<Int>
  /// How many records fit: `capacity`, at most `maximum`.
  let limit: Int

  /// - Parameter maximum: the most records any call writes (`SWIPEDICT_MAX_RESULTS` for
  ///   queries, whose work grows with the count asked).
  /// - Throws: `E_NULL` for a NULL `count`, or a NULL `records` with a capacity above 0.
  init(
    _ records: UnsafeMutablePointer<Record>?, capacity: Int, count: UnsafeMutablePointer<Int>?,
    maximum: Int = Int(SWIPEDICT_MAX_RESULTS)
  ) throws(Failure) {
    guard let count else { throw .null("count") }
    let capacity = min(CText.count(capacity), maximum)
    guard records != nil || capacity == 0 else { throw .null("the output array") }
    self.records = records
    self.count = count
    limit = capacity
  }

  /// Writes the records `make` makes of the first `limit` items, and their number.
  @inline(__always)
  func write<Item>(_ items: some Collection<Item>, _ make: (Item) -> Record) {
    var written = 0
    if let records {
      for item in items.prefix(limit) {
        records[written] = make(item)
        written += 1
      }
    }
    count.pointee = written
  }
}
