import Foundation
import SwipeDict
import SwipeDictCompiler
import SwipeDictTestSupport
import Testing

@testable @_spi(SwipeDictInternals) import SwipeDict

@Suite("Typing corrector: weighted edit distance over the automaton")
struct TypingCorrectionTests {
  /// A dictionary on the English layout with the words of the examples and their neighbours.
  static func english() throws -> SwipeDictionary {
    let entries: [(word: String, count: Double)] = [
      ("the", 5_000_000), ("hello", 40_000), ("help", 90_000), ("hell", 9_000), ("hallo", 300),
      ("world", 60_000), ("would", 200_000), ("word", 50_000), ("don't", 80_000),
      ("accommodate", 2_000), ("accumulate", 900), ("their", 700_000), ("there", 900_000), ("ten", 50_000),
      ("separate", 20_000), ("desperate", 5_000), ("because", 400_000), ("tea", 20_000), ("ich", 10),
      ("I", 3_000_000), ("it", 2_000_000), ("in", 4_000_000),
    ]
    let layout = try LayoutFile.load(repositoryFile("corpora/layouts/qwerty-en.json"))
    return try SwipeDictionary(bytes: DictionaryCompiler.compile(words: entries, layout: layout).bytes, verify: true)
  }

  @Test(
    "each kind of slip finds its word first",
    arguments: [
      ("hrllo", "hello"),  // an adjacent key (README's example)
      ("hllo", "hello"),  // an omitted letter (Kännsch's "hllo")
      ("heello", "hello"),  // a letter typed twice
      ("wrold", "world"),  // two letters swapped
      ("teh", "the"),
      ("acomodate", "accommodate"),  // one of a doubled letter left out
      ("dont", "don't"),  // the apostrophe left out (the lexicons keep no "dont")
      ("seperate", "separate"),  // one vowel for another
      ("becuase", "because"),
      ("HRLLO", "hello"),  // case is free
      ("don\u{2019}t", "don't"),  // a typographic apostrophe, as phones type it
      ("ĥello", "hello"),  // a letter the list lacks, on the h key
    ])
  func slips(typed: String, intended: String) throws {
    let d = try Self.english()
    #expect(d.corrections(for: typed, limit: 3).first?.word == intended, "\(typed)")
  }

  @Test(
    "typed text longer than the longest word a blob holds is neither corrected nor completed, at once",
    .timeLimit(.minutes(1)))
  func overlongInputAnswersNothing() throws {
    let d = try Self.english()
    let longest = String(repeating: "e", count: SwipeDictionary.maximumWordLength)
    let tooLong = longest + "e"
    for model in [CorrectionModel.typing(), .kaennsch()] {
      #expect(d.corrections(for: tooLong, model: model).isEmpty)
      #expect(d.corrections(for: String(repeating: "hello", count: 4_000), model: model).isEmpty)
    }
    #expect(d.completions(prefix: tooLong).isEmpty)
    #expect(d.completions(prefix: tooLong, context: .empty).isEmpty)
    _ = d.corrections(for: longest)  // at the bound it runs (and ends)
  }

  @Test("an input without letters has no corrections; a limit never changes the order")
  func degenerateInputs() throws {
    let d = try Self.english()
    for input in ["", "'", "-", "''-", "123", "😀"] {
      #expect(d.corrections(for: input, limit: 5).isEmpty, "\(input)")
    }
    for input in ["micheal", "bets", "lte", "teh", "hrllo", "wrold"] {
      let ten = d.corrections(for: input, limit: 10)
      for limit in 1...3 {
        #expect(
          d.corrections(for: input, limit: limit).map(\.id) == Array(ten.prefix(limit)).map(\.id), "\(input) \(limit)")
      }
    }
  }

  @Test("a word of the dictionary typed as it is stays first, even beside a much more frequent one")
  func aTypedWordStaysFirstBesideAFrequentOne() throws {
    let d = try SwipeDictionary(
      bytes: DictionaryCompiler.compile(
        words: [("line", 900_000), ("lien", 40), ("lime", 9_000)],
        layout: try LayoutFile.load(repositoryFile("corpora/layouts/qwerty-en.json"))
      ).bytes)
    let found = d.corrections(for: "lien", limit: 3)
    #expect(found.map(\.word).prefix(2) == ["lien", "line"])
    #expect(found.first?.distance == 0 && found[0].score > found[1].score)
    #expect(d.corrections(for: "linw", limit: 1).first?.word == "line")  // a typo still corrects
  }

  @Test("a correctly typed word stays first, with distance 0")
  func exactWordsStay() throws {
    let d = try Self.english()
    for word in ["hello", "help", "world", "would", "the", "their", "separate"] {
      let first = d.corrections(for: word, limit: 3).first
      #expect(first?.word == word && first?.distance == 0, "\(word)")
    }
  }

  @Test("Kännsch's examples on the German layout: hllo → hallo, ivh → ich, hebe → habe")
  func kaennschExamples() throws {
    let d = try PrefixTreeTests.germanLike()
    #expect(d.corrections(for: "hllo", limit: 3).first?.word == "hallo")
    #expect(d.corrections(for: "ivh", limit: 3).first?.word == "ich")
    #expect(d.corrections(for: "hebe", limit: 3).first?.word == "habe")
  }

  @Test("distance is the cost in TypingCosts units; score is the frequency byte less it")
  func distanceAndScore() throws {
    let d = try Self.english()
    let costs = TypingCosts()
    let hello = try #require(d.corrections(for: "hrllo", limit: 1).first)
    #expect(hello.distance == costs.proximity)
    #expect(hello.score < Int(hello.frequency))
    let the = try #require(d.corrections(for: "teh", limit: 5).first { $0.word == "the" })
    #expect(the.distance == costs.transposition)
    let dont = try #require(d.corrections(for: "dont", limit: 5).first { $0.word == "don't" })
    #expect(dont.distance == costs.punctuation)
  }

  @Test("costs are honoured: a huge omission cost loses hllo's hello, maxEdits 1 loses two-edit words")
  func costsMatter() throws {
    let d = try Self.english()
    var costs = TypingCosts()
    costs.omission = 5_000
    costs.firstOmission = 5_000
    #expect(!d.corrections(for: "hllo", limit: 10, model: .typing(costs)).contains { $0.word == "hello" })
    var one = TypingCosts()
    one.maxEdits = 1
    #expect(d.corrections(for: "acomodate", limit: 10).contains { $0.word == "accommodate" })
    #expect(!d.corrections(for: "acomodate", limit: 10, model: .typing(one)).contains { $0.word == "accommodate" })
  }

  @Test("costs by name: every name reads and writes its cost; unknown names do nothing")
  func costsByName() {
    var costs = TypingCosts()
    for (i, name) in TypingCosts.names.enumerated() {
      #expect(costs[name] != nil, "\(name)")
      costs[name] = 1_000 + i
      #expect(costs[name] == 1_000 + i)
    }
    #expect(Set(TypingCosts.names).count == TypingCosts.names.count)
    #expect(costs["nonsense"] == nil)
    let before = costs
    costs["nonsense"] = 3
    #expect(costs == before)
  }

  @Test("no cost value traps: negative, zero and huge costs give answers")
  func extremeCosts() throws {
    let d = try Self.english()
    for value in [Int.min, -1, 0, 1, TypingCosts.maxValue, Int.max] {
      var costs = TypingCosts()
      for name in TypingCosts.names { costs[name] = value }
      _ = d.corrections(for: "hrllo wrold", limit: 5, model: .typing(costs))
      _ = d.corrections(for: String(repeating: "x", count: 300), limit: 5, model: .typing(costs))
      _ = d.corrections(for: "", limit: 5, model: .typing(costs))
    }
  }

  @Test("the pruned search returns exactly the best words by the distance table (random dictionaries)")
  func searchMatchesBruteForce() throws {
    for seed in UInt64(1)...4 {
      let words = randomWords(count: 1500, seed: seed, maxLength: 8)
      let (d, _) = try openDictionary(words)
      var generator = SeededGenerator(state: seed &* 31)
      var costs = TypingCosts()
      if seed > 2 {
        // Random costs, zeros included (an edit still costs one step).
        for name in TypingCosts.names
        where !["maxCost", "margin", "maxEdits", "maxEarlyEdits", "earlyLetters"].contains(name) {
          costs[name] = Int.random(in: 0...200, using: &generator)
        }
      }
      costs.margin = TypingCosts.maxValue  // keep every word in reach: the brute force has no margin
      let search = TypingSearch(dictionary: d, costs: costs)
      for _ in 0..<30 {
        // A word of the dictionary with a random edit or two, or random letters.
        var typed = Array(words.randomElement(using: &generator)!.lowercased())
        for _ in 0..<Int.random(in: 0...2, using: &generator) where !typed.isEmpty {
          let i = Int.random(in: 0..<typed.count, using: &generator)
          switch Int.random(in: 0..<4, using: &generator) {
          case 0: typed.remove(at: i)
          case 1: typed.insert(Array("abdeiklmnrs'").randomElement(using: &generator)!, at: i)
          case 2: typed[i] = Array("abdeiklmnrs").randomElement(using: &generator)!
          default: if i + 1 < typed.count { typed.swapAt(i, i + 1) }
          }
        }
        let input = String(typed)
        let limit = Int.random(in: 1...12, using: &generator)
        let found = d.corrections(for: input, limit: limit, model: .typing(costs))
        // The batch of many words (rows shared between words with the same first letters)
        // costs each word as alone.
        let sample = (0..<min(d.wordCount, 200)).compactMap { d.dawg.labels(of: ($0 * 7919) % d.wordCount) }
        #expect(search.costs(of: input, sample) == sample.map { search.cost(of: input, $0) }, "\(input)")
        // Brute force: every word's cost by the same table, ranked the same way.
        var all: [(id: Int, score: Int, frequency: Int)] = []
        for id in 0..<d.wordCount {
          guard let labels = d.dawg.labels(of: id), let q = d.frequency(of: id) else { continue }
          guard let cost = search.cost(of: input, labels), cost <= search.scaled.maxCost else { continue }
          all.append((id, Int(q) - Int(cost), Int(q)))
        }
        all.sort { ($0.score, $0.frequency, -$0.id) > ($1.score, $1.frequency, -$1.id) }
        typedWordFirst(&all, input: input, in: d) { Int(d.frequency(of: $0)!) }
        #expect(found.map(\.id) == all.prefix(limit).map(\.id), "\(input) limit \(limit) seed \(seed)")
        #expect(found.map(\.score) == all.prefix(limit).map(\.score))
        // A smaller limit gives the first words of a larger one.
        let one = d.corrections(for: input, limit: 1, model: .typing(costs))
        #expect(one.map(\.id) == Array(found.prefix(1)).map(\.id), "\(input) limit 1")
      }
    }
  }

  @Test("the margin leaves out only words scoring that far below the best")
  func margin() throws {
    let d = try Self.english()
    var wide = TypingCosts()
    wide.margin = TypingCosts.maxValue
    let steps = TypingSearch(dictionary: d, costs: TypingCosts()).stepsPerUnit
    let margin = Int((Double(TypingCosts().margin) * steps).rounded())
    var cut = 0
    for input in ["hrllo", "teh", "wrold", "helo", "ten", "tje", "ot", "hrlp"] {
      let all = d.corrections(for: input, limit: 10, model: .typing(wide))
      let kept = d.corrections(for: input, limit: 10)
      let best = try #require(all.first).score
      #expect(kept.map(\.id) == all.filter { $0.score >= best - margin }.map(\.id), "\(input)")
      cut += all.count - kept.count
    }
    #expect(cut > 0)
  }

  @Test("the range maxima agree with a scan", arguments: [1, 15, 16, 17, 1023, 1024, 5000])
  func frequencyMaxima(count: Int) {
    var generator = SeededGenerator(state: UInt64(count))
    let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes.withUnsafeBytes { raw in
      let maxima = FrequencyMaxima(UnsafeByteView(raw), count: count)
      for _ in 0..<300 {
        let a = Int.random(in: -2...count + 2, using: &generator)
        let b = Int.random(in: -2...count + 2, using: &generator)
        let range = min(a, b)..<max(a, b)
        let lo = max(0, range.lowerBound)
        let hi = min(count, range.upperBound)
        let expected = lo < hi ? bytes[lo..<hi].max()! : 0
        #expect(maxima.max(in: range, of: UnsafeByteView(raw)) == expected, "\(range)")
      }
    }
  }
}
