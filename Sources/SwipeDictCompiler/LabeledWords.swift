import Foundation
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Words as label sequences in one flat buffer, for sorting and building.
struct LabeledWords {
  private var labels: [UInt8] = []
  /// Word i's labels are `labels[starts[i]..<starts[i + 1]]`.
  /// - Precondition: fewer than 2^32 labels in all (4 GiB of words in memory; a list read
  ///   from files that large would fail for memory first).
  private var starts: [UInt32] = [0]

  /// The words of entries `entries` of `counts`, in that order.
  /// - Precondition: the alphabet has every character of those words.
  init(_ entries: [UInt32], of counts: WordCounts, alphabet: Alphabet) {
    labels.reserveCapacity(entries.count * 9)
    starts.reserveCapacity(entries.count + 1)
    for entry in entries {
      counts.withBytes(at: Int(entry)) { bytes in
        UTF8Scalars.forEach(in: bytes) { s in
          // safe: the alphabet was made from these words' scalars.
          labels.append(alphabet.label(for: s)!)
          return true
        }
      }
      starts.append(UInt32(labels.count))
    }
  }

  private init() {}

  /// The words of `first`, then those of `second`.
  init(joining first: LabeledWords, _ second: LabeledWords) {
    labels = first.labels + second.labels
    let shift = UInt32(first.labels.count)
    starts = first.starts + second.starts.dropFirst().lazy.map { $0 + shift }
  }

  /// The words of entries `entries` of `counts` in label order, and `order`, where
  /// `order[i]` is the index in `entries` of the i-th of them.
  static func sorted(
    _ entries: [UInt32], of counts: WordCounts, alphabet: Alphabet
  ) -> (words: LabeledWords, order: [UInt32]) {
    let unsorted = LabeledWords(entries, of: counts, alphabet: alphabet)
    let order = unsorted.sortedOrder()
    return (unsorted.permuted(by: order), order)
  }

  /// `entries` split in two at a first label: first those whose word starts with a label
  /// below it, then the others, each part in the order given. The label is the one that
  /// makes the parts' sizes closest.
  /// - Returns: the entries, and where the second part starts.
  /// - Precondition: every word is non-empty and the alphabet has its first character.
  static func splitByFirstLabel(
    _ entries: [UInt32], of counts: WordCounts, alphabet: Alphabet
  ) -> (entries: [UInt32], split: Int) {
    var firstLabels: [UInt8] = []
    firstLabels.reserveCapacity(entries.count)
    var histogram = [Int](repeating: 0, count: 256)
    for entry in entries {
      let label = counts.withBytes(at: Int(entry)) { bytes in
        var first: UInt8 = 0
        UTF8Scalars.forEach(in: bytes) { s in
          first = alphabet.label(for: s)!  // safe: the alphabet was made from these words
          return false
        }
        return first
      }
      firstLabels.append(label)
      histogram[Int(label)] += 1
    }
    // The split label: below it lie `below` entries; the one with the smallest imbalance.
    var (splitLabel, below, bestImbalance) = (0, 0, entries.count)
    for label in 0...256 {
      let imbalance = abs(2 * below - entries.count)
      if imbalance < bestImbalance { (splitLabel, bestImbalance) = (label, imbalance) }
      if label < 256 { below += histogram[label] }
    }
    var reordered: [UInt32] = []
    reordered.reserveCapacity(entries.count)
    for (entry, label) in zip(entries, firstLabels) where Int(label) < splitLabel { reordered.append(entry) }
    let split = reordered.count
    for (entry, label) in zip(entries, firstLabels) where Int(label) >= splitLabel { reordered.append(entry) }
    return (reordered, split)
  }

  var count: Int { starts.count - 1 }

  /// The words in the order `order` gives (`order[i]` is the index of the i-th word).
  func permuted(by order: [UInt32]) -> LabeledWords {
    var out = LabeledWords()
    out.labels.reserveCapacity(labels.count)
    out.starts.reserveCapacity(order.count + 1)
    for index in order.lazy.map(Int.init) {
      out.labels.append(contentsOf: labels[Int(starts[index])..<Int(starts[index + 1])])
      out.starts.append(UInt32(out.labels.count))
    }
    return out
  }

  func withLabels<R, E: Error>(
    of index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
  ) throws(E) -> R {
    let start = Int(starts[index])
    let end = Int(starts[index + 1])
    let result: Result<R, E> = labels.withUnsafeBufferPointer { all in
      do throws(E) {
        return .success(try body(UnsafeBufferPointer(rebasing: all[start..<end])))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Word indices in label order.
  ///
  /// Sorted by their first eight labels packed into an integer (integer comparisons), then
  /// each run of equal keys (words that share eight labels, or shorter words padded alike)
  /// by the whole comparison.
  func sortedOrder() -> [UInt32] {
    guard count > 0 else { return [] }
    return labels.withUnsafeBufferPointer { all in
      starts.withUnsafeBufferPointer { s in
        let base = all.baseAddress!  // safe: a word has at least one label
        func precedes(_ a: UInt32, _ b: UInt32) -> Bool {
          let (a, b) = (Int(a), Int(b))
          let la = Int(s[a + 1] - s[a])
          let lb = Int(s[b + 1] - s[b])
          let c = memcmp(base + Int(s[a]), base + Int(s[b]), min(la, lb))
          return c != 0 ? c < 0 : la < lb
        }
        var keyed: [(key: UInt64, index: UInt32)] = (0..<count).map { i in
          var key: UInt64 = 0
          let start = Int(s[i])
          let length = Int(s[i + 1]) - start
          for k in 0..<8 { key = key << 8 | UInt64(k < length ? base[start + k] : 0) }
          return (key, UInt32(i))
        }
        keyed.sort { $0.key < $1.key }
        var order = keyed.map(\.index)
        var runStart = 0
        for i in 1...keyed.count where i == keyed.count || keyed[i].key != keyed[runStart].key {
          if i - runStart > 1 { order[runStart..<i].sort(by: precedes) }
          runStart = i
        }
        return order
      }
    }
  }
}
