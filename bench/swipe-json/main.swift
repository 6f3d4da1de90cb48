// Reading a swipe JSON Lines file three ways: the hand-written JSONReader (SwipeDictFiles) that
// SwipeFile and LayoutFile use, Foundation's JSONSerialization, and JSONDecoder. Each parses
// every line and walks the points as SwipeFile does; the best of 5 runs is printed.
//
//   swipedict synth build/en.swipedict --sample 10000 --seed 3 -o /tmp/s10k.jsonl
//   swiftc -O -swift-version 6 -package-name bench bench/swipe-json/main.swift \
//     Sources/SwipeDictFiles/JSONReader.swift -o /tmp/swipe-json && /tmp/swipe-json /tmp/s10k.jsonl
import Foundation

let data = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let bytes = Array(data)
func lines() -> [ArraySlice<UInt8>] { bytes.split(separator: 0x0A) }

// What SwipeFile does per line (NaN and Infinity read as numbers): parse, then walk to the
// points as Float triples.
func handWritten() -> Int {
  var options = JSONReader.Options()
  options.allowsNonFiniteTokens = true
  var n = 0
  for line in lines() {
    let root = try! JSONReader.parse(Array(line), options: options)
    guard case .object(let members) = root.kind else { fatalError() }
    for (key, value) in members where key == "points" {
      guard case .array(let items) = value.kind else { fatalError() }
      for item in items {
        guard case .array(let values) = item.kind else { fatalError() }
        for v in values { if case .number(let d) = v.kind { n &+= Int(Float(d)) } }
      }
    }
  }
  return n
}

func foundation() -> Int {
  var n = 0
  for line in lines() {
    let object = try! JSONSerialization.jsonObject(with: Data(line)) as! [String: Any]
    let points = object["points"] as! [Any]
    for item in points {
      for v in item as! [Any] { n &+= Int(Float((v as! NSNumber).doubleValue)) }
    }
  }
  return n
}

struct Line: Decodable {
  var word: String?
  var points: [[Double]]
}
func decoder() -> Int {
  var n = 0
  let d = JSONDecoder()
  for line in lines() {
    let l = try! d.decode(Line.self, from: Data(line))
    for p in l.points { for v in p { n &+= Int(Float(v)) } }
  }
  return n
}

func time(_ name: String, _ body: () -> Int) {
  var best = Double.infinity
  var r = 0
  for _ in 0..<5 {
    let start = ContinuousClock.now
    r = body()
    let e = ContinuousClock.now - start
    best = min(best, Double(e.components.seconds) + Double(e.components.attoseconds) / 1e18)
  }
  print("\(name): best of 5 \(String(format: "%.3f", best)) s (checksum \(r))")
}
time("JSONReader (hand-written)", handWritten)
time("JSONSerialization", foundation)
time("JSONDecoder", decoder)
