import CSwipeDict
import SwipeDecoder
import SwipeDict
import SwipeDictFormat

/// What a dictionary handle names: the blob with the user's words it was given, and what the
/// queries prepare on it once. `swipedict_use_user_words` puts a new state in the handle's
/// slot; calls under way finish with the state they looked up.
final class DictionaryState: @unchecked Sendable {
  // @unchecked: `dictionary` and `unitMapping` are immutable Sendable values; `made` is read
  // and written under `lock` only.

  /// The blob with the user's words.
  ///
  /// The queries go through the methods below, which read it as `self.dictionary`: a call on
  /// `state.dictionary` from outside the class copies the value first, retaining each of the
  /// dozen references it holds (800 instructions per lookup, callgrind), where a method
  /// reads the immutable property in place.
  let dictionary: SwipeDictionary
  /// The mapping of the layout's own rectangle (points in layout units map to themselves),
  /// or `nil` for a layout without keys (which no compiler writes).
  let unitMapping: KeyboardViewMapping?
  private let lock = Lock()
  private var made: Corrector?

  init(_ dictionary: SwipeDictionary) {
    self.dictionary = dictionary
    unitMapping = KeyboardViewMapping(layout: dictionary.layout)
  }

  var wordCount: Int { dictionary.wordCount }
  func id(of word: String) -> Int? { dictionary.id(of: word) }
  func word(for id: Int) -> String? { dictionary.word(for: id) }
  func personalFrequency(of id: Int) -> UInt8? { dictionary.personalFrequency(of: id) }
  func completions(prefix: String, context: WordContext, limit: Int) -> [Suggestion] {
    context.isEmpty
      ? dictionary.completions(prefix: prefix, limit: limit)
      : dictionary.completions(prefix: prefix, context: context, limit: limit)
  }
  func nextWords(after previous: String, limit: Int) -> [Suggestion] {
    dictionary.nextWords(after: previous, limit: limit)
  }
  var layout: KeyboardLayout { dictionary.layout }

  /// The typing corrector, made at the first correction (a pass over the frequencies).
  var corrector: Corrector {
    lock.withLock {
      if let made { return made }
      let corrector = dictionary.makeCorrector()
      made = corrector
      return corrector
    }
  }

  /// The mapping of `keyArea` (`nil`: the layout's own rectangle) onto the layout's keys.
  func mapping(_ keyArea: UnsafePointer<swipedict_rect>?) throws(Failure) -> KeyboardViewMapping {
    guard let unitMapping else {
      throw Failure(SWIPEDICT_E_FORMAT, "the blob's layout has no keys to map points onto")
    }
    guard let area = keyArea?.pointee else { return unitMapping }
    guard
      let mapping = KeyboardViewMapping(
        layout: dictionary.layout, keyArea: ViewRect(x: area.x, y: area.y, width: area.width, height: area.height))
    else {
      throw Failure(
        SWIPEDICT_E_ARGUMENT,
        "the key area (x \(area.x), y \(area.y), width \(area.width), height \(area.height)) is not a finite "
          + "rectangle of positive size")
    }
    return mapping
  }

  /// The previous word's context (`nil` or a word the blob lacks: none).
  func context(after previous: String?) -> WordContext {
    previous.map { dictionary.context(after: $0) } ?? .empty
  }

  /// The dictionary state `handle` names.
  @inline(__always)
  static func named(_ handle: OpaquePointer?) throws(Failure) -> DictionaryState {
    guard handle != nil else { throw .null("dict") }
    guard let object = HandleTable.shared.object(handle, kind: .dictionary) else { throw .handle("dictionary") }
    // safe: the table holds only DictionaryState objects under the dictionary kind.
    return unsafeDowncast(object, to: DictionaryState.self)
  }
}

/// Typed text longer than this many Unicode scalars is neither completed nor corrected: the
/// longest word a blob holds (``SwipeDictionary/maximumWordLength``, 128, which the header
/// states; the lists' longest word has 81). Correction's time grows with the typed length; a
/// hostile caller's megabyte of text gets no work.
let maximumTypedLength = SwipeDictionary.maximumWordLength

private func isTypeable(_ text: String) -> Bool {
  text.unicodeScalars.count <= maximumTypedLength
}

// MARK: - Open and close

private func open(
  flags: UInt32, out: UnsafeMutablePointer<OpaquePointer?>?, _ make: () throws(SwipeDictError) -> SwipeDictionary
) throws(Failure) -> Int32 {
  guard let out else { throw .null("out") }
  out.pointee = nil
  let known = SWIPEDICT_OPEN_VERIFY | SWIPEDICT_OPEN_SUGGEST_OFFENSIVE
  guard flags & ~known == 0 else {
    throw Failure(SWIPEDICT_E_ARGUMENT, "unknown flags 0x\(String(flags & ~known, radix: 16))")
  }
  var dictionary: SwipeDictionary
  do throws(SwipeDictError) {
    dictionary = try make()
  } catch {
    throw Failure(error)
  }
  if flags & SWIPEDICT_OPEN_SUGGEST_OFFENSIVE != 0 { dictionary.blocksOffensiveWords = false }
  guard let handle = HandleTable.shared.insert(DictionaryState(dictionary), kind: .dictionary) else {
    throw Failure(SWIPEDICT_E_LIMIT, "\(HandleTable.capacity) handles are open")
  }
  out.pointee = handle
  return SWIPEDICT_OK
}

@_cdecl("swipedict_open")
public func swipedictOpen(
  _ path: UnsafePointer<CChar>?, _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  api { () throws(Failure) in
    out?.pointee = nil
    let path = try CText.string(path, "path")
    return try open(flags: flags, out: out) { () throws(SwipeDictError) in
      try SwipeDictionary(contentsOf: path, verify: flags & SWIPEDICT_OPEN_VERIFY != 0)
    }
  }
}

@_cdecl("swipedict_open_bytes")
public func swipedictOpenBytes(
  _ bytes: UnsafeRawPointer?, _ length: Int, _ flags: UInt32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
  api { () throws(Failure) in
    out?.pointee = nil
    guard length >= 0 else { throw Failure(SWIPEDICT_E_ARGUMENT, "a length of \(UInt(bitPattern: length)) bytes") }
    guard bytes != nil || length == 0 else { throw .null("bytes") }
    let copy = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
    return try open(flags: flags, out: out) { () throws(SwipeDictError) in
      try SwipeDictionary(bytes: copy, verify: flags & SWIPEDICT_OPEN_VERIFY != 0)
    }
  }
}

@_cdecl("swipedict_close")
public func swipedictClose(_ dict: OpaquePointer?) -> Int32 {
  api { () throws(Failure) in
    guard dict != nil else { return SWIPEDICT_OK }
    guard let state = HandleTable.shared.remove(dict, kind: .dictionary) else { throw .handle("dictionary") }
    withExtendedLifetime(state) {}  // let go of here, outside the table's lock
    return SWIPEDICT_OK
  }
}

// MARK: - Words

@_cdecl("swipedict_word_count")
public func swipedictWordCount(_ dict: OpaquePointer?, _ count: UnsafeMutablePointer<Int64>?) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    guard let count else { throw .null("count") }
    count.pointee = Int64(state.wordCount)
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_lookup")
public func swipedictLookup(
  _ dict: OpaquePointer?, _ word: UnsafePointer<CChar>?, _ id: UnsafeMutablePointer<Int64>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    guard let id else { throw .null("id") }
    guard let found = state.id(of: try CText.string(word, "word")) else { return SWIPEDICT_NOT_FOUND }
    id.pointee = Int64(found)
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_word")
public func swipedictWord(
  _ dict: OpaquePointer?, _ id: Int64, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int,
  _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    let capacity = CText.count(capacity)
    guard buffer != nil || capacity == 0 else { throw .null("buffer") }
    guard let index = Int(exactly: id), var word = state.word(for: index) else { return SWIPEDICT_NOT_FOUND }
    let needed = word.utf8.count
    length?.pointee = needed
    guard needed < capacity, let buffer else {
      throw Failure(
        SWIPEDICT_E_BUFFER, "word \(id) takes \(needed + 1) bytes with its NUL; the buffer holds \(capacity)")
    }
    word.withUTF8 { bytes in
      buffer.withMemoryRebound(to: UInt8.self, capacity: bytes.count + 1) { target in
        if let source = bytes.baseAddress { target.update(from: source, count: bytes.count) }
        target[bytes.count] = 0
      }
    }
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_frequency")
public func swipedictFrequency(_ dict: OpaquePointer?, _ id: Int64, _ frequency: UnsafeMutablePointer<UInt32>?)
  -> Int32
{
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    guard let frequency else { throw .null("frequency") }
    guard let index = Int(exactly: id), let found = state.personalFrequency(of: index) else {
      return SWIPEDICT_NOT_FOUND
    }
    frequency.pointee = UInt32(found)
    return SWIPEDICT_OK
  }
}

// MARK: - Typing

@_cdecl("swipedict_complete")
public func swipedictComplete(
  _ dict: OpaquePointer?, _ prefix: UnsafePointer<CChar>?, _ previous: UnsafePointer<CChar>?,
  _ out: UnsafeMutablePointer<swipedict_suggestion>?, _ capacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    let output = try Output(out, capacity: capacity, count: count)
    let prefix = try CText.string(prefix, "prefix")
    let previous = try CText.optionalString(previous, "previous")
    guard output.limit > 0, isTypeable(prefix) else {
      output.write([Suggestion](), swipedict_suggestion.init)
      return SWIPEDICT_OK
    }
    let found = state.completions(prefix: prefix, context: state.context(after: previous), limit: output.limit)
    output.write(found, swipedict_suggestion.init)
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_correct")
public func swipedictCorrect(
  _ dict: OpaquePointer?, _ typed: UnsafePointer<CChar>?, _ previous: UnsafePointer<CChar>?,
  _ out: UnsafeMutablePointer<swipedict_suggestion>?, _ capacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    let output = try Output(out, capacity: capacity, count: count)
    let typed = try CText.string(typed, "typed")
    let previous = try CText.optionalString(previous, "previous")
    guard output.limit > 0, !typed.isEmpty, isTypeable(typed) else {
      output.write([Suggestion](), swipedict_suggestion.init)
      return SWIPEDICT_OK
    }
    let found = state.corrector.corrections(for: typed, context: state.context(after: previous), limit: output.limit)
    output.write(found, swipedict_suggestion.init)
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_next_words")
public func swipedictNextWords(
  _ dict: OpaquePointer?, _ previous: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<swipedict_suggestion>?,
  _ capacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    let output = try Output(out, capacity: capacity, count: count)
    let previous = try CText.string(previous, "previous")
    guard output.limit > 0, isTypeable(previous) else {
      output.write([Suggestion](), swipedict_suggestion.init)
      return SWIPEDICT_OK
    }
    output.write(state.nextWords(after: previous, limit: output.limit), swipedict_suggestion.init)
    return SWIPEDICT_OK
  }
}

// MARK: - Layout and mapping

@_cdecl("swipedict_layout")
public func swipedictLayout(_ dict: OpaquePointer?, _ info: UnsafeMutablePointer<swipedict_layout_info>?) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    guard let info else { throw .null("info") }
    let layout = state.layout
    var record = swipedict_layout_info()
    if let bounds = state.unitMapping?.layoutBounds {
      record.min_x = Double(bounds.minX)
      record.min_y = Double(bounds.minY)
      record.max_x = Double(bounds.maxX)
      record.max_y = Double(bounds.maxY)
    }
    record.key_width = Double(layout.keyWidth)
    record.key_count = UInt32(clamping: layout.keys.count)
    _ = withUnsafeMutableBytes(of: &record.name) { CText.copy(layout.name, into: $0) }
    _ = withUnsafeMutableBytes(of: &record.unit) { CText.copy(layout.unit, into: $0) }
    info.pointee = record
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_layout_key")
public func swipedictLayoutKey(_ dict: OpaquePointer?, _ index: Int64, _ key: UnsafeMutablePointer<swipedict_key>?)
  -> Int32
{
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    guard let key else { throw .null("key") }
    let keys = state.layout.keys
    guard index >= 0, index < keys.count else {
      throw Failure(SWIPEDICT_E_RANGE, "key index \(index) is not in 0..<\(keys.count)")
    }
    let found = keys[Int(index)]
    var record = swipedict_key()
    record.x = Double(found.x)
    record.y = Double(found.y)
    record.width = Double(found.width)
    record.height = Double(found.height)
    record.codepoint = found.character.value
    key.pointee = record
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_map_to_layout")
public func swipedictMapToLayout(
  _ dict: OpaquePointer?, _ keyArea: UnsafePointer<swipedict_rect>?, _ viewX: Double, _ viewY: Double,
  _ layoutX: UnsafeMutablePointer<Double>?, _ layoutY: UnsafeMutablePointer<Double>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    guard let layoutX else { throw .null("layout_x") }
    guard let layoutY else { throw .null("layout_y") }
    let point = try state.mapping(keyArea).layoutPoint(for: ViewPoint(x: viewX, y: viewY))
    layoutX.pointee = Double(point.x)
    layoutY.pointee = Double(point.y)
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_map_to_view")
public func swipedictMapToView(
  _ dict: OpaquePointer?, _ keyArea: UnsafePointer<swipedict_rect>?, _ layoutX: Double, _ layoutY: Double,
  _ viewX: UnsafeMutablePointer<Double>?, _ viewY: UnsafeMutablePointer<Double>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    guard let viewX else { throw .null("view_x") }
    guard let viewY else { throw .null("view_y") }
    let point = try state.mapping(keyArea).viewPoint(for: LayoutPoint(x: Float(layoutX), y: Float(layoutY)))
    viewX.pointee = point.x
    viewY.pointee = point.y
    return SWIPEDICT_OK
  }
}

@_cdecl("swipedict_clamp_to_keys")
public func swipedictClampToKeys(
  _ dict: OpaquePointer?, _ x: UnsafeMutablePointer<Double>?, _ y: UnsafeMutablePointer<Double>?
) -> Int32 {
  api { () throws(Failure) in
    let state = try DictionaryState.named(dict)
    guard let x else { throw .null("x") }
    guard let y else { throw .null("y") }
    let point = try state.mapping(nil).clamped(LayoutPoint(x: Float(x.pointee), y: Float(y.pointee)))
    x.pointee = Double(point.x)
    y.pointee = Double(point.y)
    return SWIPEDICT_OK
  }
}

// MARK: - Versions and messages

@_cdecl("swipedict_abi_version")
public func swipedictABIVersion() -> Int32 { SWIPEDICT_ABI_VERSION }

/// The version string (`swipedict_version`).
private enum VersionText {
  nonisolated(unsafe) static let text = StaticText.make(
    "swipedict \(SwipeDictVersion.string) (ABI \(SWIPEDICT_ABI_VERSION), blob format \(FormatVersion.current.major)."
      + "\(FormatVersion.current.minor))")
}

@_cdecl("swipedict_version")
public func swipedictVersion() -> UnsafePointer<CChar> { VersionText.text }

@_cdecl("swipedict_errstr")
public func swipedictErrstr(_ status: Int32) -> UnsafePointer<CChar> { StaticText.description(of: status) }

@_cdecl("swipedict_errmsg")
public func swipedictErrmsg() -> UnsafePointer<CChar> { ThreadMessage.current }
