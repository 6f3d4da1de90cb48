// The Swift side of the C API's boundary benchmark (bench/capi/run.sh): the same queries as
// bench/capi/bench.c and bench.py make through the C API, made through the Swift API, timed
// the same way. Built in release with the library's flags (`swift build -c release --product
// capi-bench-swift`), so both run the same optimized SwipeDict and SwipeDecoder code.
//
//   capi-bench-swift BLOB HITS MISSES IDS PREFIXES SWIPES PASSES
//
// HITS, MISSES, PREFIXES: one word per line; IDS: one word ID per line; SWIPES: one swipe per
// line, "x y x y …" in layout units. Prints one JSON object: for each measurement the median
// over PASSES passes (after a warm-up pass) of the mean nanoseconds per operation in a pass.
import SwipeDecoder
import SwipeDict

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func lines(_ path: String) -> [String] {
  guard let file = fopen(path, "r") else { fatalError("cannot read \(path)") }
  defer { fclose(file) }
  var result: [String] = []
  var line: UnsafeMutablePointer<CChar>?
  var capacity = 0
  while getline(&line, &capacity, file) > 0 {
    guard let line else { break }
    var text = String(cString: line)
    if text.hasSuffix("\n") { text.removeLast() }
    result.append(text)
  }
  free(line)
  return result
}

/// The median over `passes` passes (after one warm-up) of the mean ns per operation.
func median(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.sorted()[values.count / 2] }

func measure(_ passes: Int, operations: Int, _ body: () -> Int) -> Double {
  var sink = 0
  var means: [Double] = []
  for pass in 0...passes {
    let start = ContinuousClock.now
    sink &+= body()
    let elapsed = ContinuousClock.now - start
    let (seconds, attoseconds) = elapsed.components
    let ns = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    if pass > 0 { means.append(ns / Double(operations)) }
  }
  if sink == 42 { print("") }  // keeps the work
  means.sort()
  return means[means.count / 2]
}

@main
enum CAPIBenchSwift {
  static func main() throws {
    let arguments = CommandLine.arguments
    guard arguments.count == 8, let passes = Int(arguments[7]) else {
      fatalError("usage: capi-bench-swift BLOB HITS MISSES IDS PREFIXES SWIPES PASSES")
    }
    let dictionary = try SwipeDictionary(contentsOf: arguments[1])
    let hits = lines(arguments[2])
    let misses = lines(arguments[3])
    let ids = lines(arguments[4]).compactMap { Int($0) }
    let prefixes = lines(arguments[5])
    let swipes: [[SwipePoint]] = lines(arguments[6]).map { line in
      let numbers = line.split(separator: " ").compactMap { Float(String($0)) }
      return stride(from: 0, to: numbers.count - 1, by: 2).map { SwipePoint(x: numbers[$0], y: numbers[$0 + 1]) }
    }

    var results: [(String, Double)] = []
    results.append(
      ("hit", measure(passes, operations: hits.count) { hits.reduce(0) { $0 &+ (dictionary.id(of: $1) ?? 0) } }))
    results.append(
      ("miss", measure(passes, operations: misses.count) { misses.reduce(0) { $0 &+ (dictionary.id(of: $1) ?? 0) } }))
    results.append(
      (
        "idToWord",
        measure(passes, operations: ids.count) { ids.reduce(0) { $0 &+ (dictionary.word(for: $1)?.utf8.count ?? 0) } }
      ))
    results.append(
      (
        "complete3",
        measure(passes, operations: prefixes.count) {
          prefixes.reduce(0) { $0 &+ dictionary.completions(prefix: $1, limit: 3).count }
        }
      ))

    // Decoding: a session per run, fed point by point, ended without a deadline, as swipedict
    // decode does; the time of the adds and of the end, per swipe.
    let decoder = SwipeDecoder(dictionary: dictionary)
    var session = decoder.makeSession()
    var adds = [[Double]](repeating: [], count: swipes.count)
    var ends = [[Double]](repeating: [], count: swipes.count)
    var words = 0
    for pass in 0...passes {
      for (i, swipe) in swipes.enumerated() {
        let start = ContinuousClock.now
        for point in swipe { session.add(point) }
        let lift = ContinuousClock.now
        words &+= session.end().words.count
        let done = ContinuousClock.now
        if pass > 0 {
          adds[i].append(
            Double((lift - start).components.attoseconds) / 1e9 + Double((lift - start).components.seconds) * 1e9)
          ends[i].append(
            Double((done - lift).components.attoseconds) / 1e9 + Double((done - lift).components.seconds) * 1e9)
        }
      }
    }
    let pointCount = swipes.reduce(0) { $0 + $1.count }
    let addPerPoint = adds.map(median).reduce(0, +) / Double(max(pointCount, 1))
    let waits = ends.map(median)
    results.append(("addPerPoint", addPerPoint))
    results.append(("waitMean", waits.reduce(0, +) / Double(max(waits.count, 1))))
    results.append(("waitMedian", median(waits)))
    results.append(("swipeMean", (adds.map(median).reduce(0, +) + waits.reduce(0, +)) / Double(max(swipes.count, 1))))
    print(
      "{" + results.map { "\"\($0.0)\": \(($0.1 * 10).rounded() / 10)" }.joined(separator: ", ")
        + ", \"swipes\": \(swipes.count), \"words\": \(words)}")
  }
}
