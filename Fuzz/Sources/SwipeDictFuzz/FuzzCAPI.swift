// The C API's entry points under the fuzzer: the @_cdecl functions of SwipeDictC, called by
// their Swift names (the same code a C caller runs), on the fuzzer's bytes.
import CSwipeDict
import SwipeDictC

/// Opens `input` through `swipedict_open_bytes` and runs every C query on it; then again with
/// the header checksum resealed (so that mutations reach the sections); then the calls on
/// the handle after it was closed, which must be refused.
func fuzzCAPI(_ input: [UInt8]) {
  var bytes = input
  fuzzCAPIQueries(bytes)
  if fuzzReseal(&bytes) { fuzzCAPIQueries(bytes) }
}

private func fuzzCAPIQueries(_ bytes: [UInt8]) {
  var handle: OpaquePointer?
  let opened = bytes.withUnsafeBytes { swipedictOpenBytes($0.baseAddress, $0.count, 0, &handle) }
  guard opened == SWIPEDICT_OK, let dict = handle else { return }
  var count: Int64 = 0
  _ = swipedictWordCount(dict, &count)
  var probes = ["hello", "the", "wrold", "Über", "e\u{301}", "", "zzzzzzzz"]
  var buffer = [CChar](repeating: 0, count: Int(SWIPEDICT_WORD_CAPACITY))
  for id in [0, 1, count / 2, count - 1, count, -1, Int64.max] {
    var length = 0
    if swipedictWord(dict, id, &buffer, buffer.count, &length) == SWIPEDICT_OK {
      probes.append(String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    var frequency: UInt32 = 0
    _ = swipedictFrequency(dict, id, &frequency)
  }
  var results = [swipedict_suggestion](repeating: swipedict_suggestion(), count: 8)
  var found = 0
  for probe in probes {
    var id: Int64 = 0
    _ = swipedictLookup(dict, probe, &id)
    _ = swipedictComplete(dict, String(probe.prefix(2)), nil, &results, results.count, &found)
    _ = swipedictComplete(dict, String(probe.prefix(1)), "the", &results, results.count, &found)
    _ = swipedictCorrect(dict, probe, nil, &results, results.count, &found)
    _ = swipedictNextWords(dict, probe, &results, results.count, &found)
  }
  var info = swipedict_layout_info()
  _ = swipedictLayout(dict, &info)
  var key = swipedict_key()
  for index in [0, Int64(info.key_count) - 1, Int64(info.key_count), -1] { _ = swipedictLayoutKey(dict, index, &key) }
  var x = 1.0
  var y = 1.0
  var area = swipedict_rect(x: 0, y: 10, width: 1080, height: 480)
  _ = swipedictMapToLayout(dict, &area, 500, 200, &x, &y)
  _ = swipedictMapToView(dict, &area, x, y, &x, &y)
  _ = swipedictClampToKeys(dict, &x, &y)
  // A swipe across the keys' rectangle, through the touch trace and unfiltered.
  for flags in [0, SWIPEDICT_SESSION_UNFILTERED] {
    var session: OpaquePointer?
    guard swipedictSessionCreate(dict, nil, flags, &session) == SWIPEDICT_OK else { continue }
    _ = swipedictSessionSetPreviousWord(session, "the")
    let (width, height) = (info.max_x - info.min_x, info.max_y - info.min_y)
    for i in 0..<30 {
      let t = Double(i) / 29
      _ = swipedictSessionAdd(session, info.min_x + t * width, info.min_y + (0.5 + 0.4 * (t - 0.5)) * height, t / 2)
    }
    _ = swipedictSessionEnd(session, 20_000, &results, 4, &found, nil)
    _ = swipedictSessionFree(session)
  }
  _ = swipedictClose(dict)
  // Closed: refused, never dereferenced.
  var id: Int64 = 0
  _ = swipedictLookup(dict, "hello", &id)
  _ = swipedictComplete(dict, "he", nil, &results, results.count, &found)
  _ = swipedictClose(dict)
}
