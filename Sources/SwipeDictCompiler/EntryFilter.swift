@_spi(SwipeDictInternals) import SwipeDictFormat

/// Which entries of the word table a build keeps, and the characters of those it keeps:
/// the two passes over every word between reading and sorting, each run on two halves of
/// the entries at once (``BackgroundWork``), the halves joined in entry order.
enum EntryFilter {
  /// Entries grouped by what happens to them, each group in entry order.
  struct Outcome: Sendable {
    var kept: [UInt32] = []
    /// Entries with a character the layout cannot type.
    var untypeable: [Int] = []
    /// Entries whose characters type no key (only skipped ones, such as an apostrophe).
    var noKeys: [Int] = []
    var belowMinCount = 0
  }

  /// Classifies the entries of `counts` by how `layout` types them and by their summed
  /// count (each half of them on its own thread).
  /// - Parameters:
  ///   - sums: each entry's summed count.
  ///   - minCount: entries with a lower sum are dropped (after the layout's checks).
  static func outcome(
    of counts: WordCounts, sums: [Double], layout: KeyboardLayout, minCount: Double
  ) -> Outcome {
    let middle = counts.count / 2
    let upper = BackgroundWork {
      outcome(of: middle..<counts.count, in: counts, sums: sums, layout: layout, minCount: minCount)
    }
    var joined = outcome(of: 0..<middle, in: counts, sums: sums, layout: layout, minCount: minCount)
    let rest = upper.wait()
    joined.kept += rest.kept
    joined.untypeable += rest.untypeable
    joined.noKeys += rest.noKeys
    joined.belowMinCount += rest.belowMinCount
    return joined
  }

  /// The characters of the words of `entries` (each half of them on its own thread).
  static func characters(of entries: [UInt32], in counts: WordCounts) -> Set<Unicode.Scalar> {
    let secondHalf = entries[(entries.count / 2)...]
    let upper = BackgroundWork { characters(of: secondHalf, in: counts) }
    return characters(of: entries[..<(entries.count / 2)], in: counts).union(upper.wait())
  }

  private static func characters(of entries: ArraySlice<UInt32>, in counts: WordCounts) -> Set<Unicode.Scalar> {
    var asciiUsed = [Bool](repeating: false, count: 128)
    var scalars: Set<Unicode.Scalar> = []
    for entry in entries {
      counts.withBytes(at: Int(entry)) { bytes in
        UTF8Scalars.forEach(in: bytes) { s in
          if s.value < 128 { asciiUsed[Int(s.value)] = true } else { scalars.insert(s) }
          return true
        }
      }
    }
    for byte in 0..<128 where asciiUsed[byte] { scalars.insert(Unicode.Scalar(UInt8(byte))) }
    return scalars
  }

  private static func outcome(
    of range: Range<Int>, in counts: WordCounts, sums: [Double], layout: KeyboardLayout, minCount: Double
  ) -> Outcome {
    var typing = TypingCache(layout: layout)
    var sorted = Outcome()
    sorted.kept.reserveCapacity(range.count)
    for entry in range {
      switch counts.withBytes(at: entry, { typing.typeability(of: $0) }) {
      case .untypeable: sorted.untypeable.append(entry)
      case .noKeys: sorted.noKeys.append(entry)
      case .typeable:
        if sums[entry] < minCount {
          sorted.belowMinCount += 1
        } else {
          sorted.kept.append(UInt32(entry))
        }
      }
    }
    return sorted
  }

  /// How each character types on a layout, cached: a table for ASCII, a dictionary for the
  /// rest.
  private struct TypingCache {
    enum Typeability { case typeable, untypeable, noKeys }

    let layout: KeyboardLayout
    private var ascii: [KeyboardLayout.Typing]
    private var others: [Unicode.Scalar: KeyboardLayout.Typing] = [:]

    init(layout: KeyboardLayout) {
      self.layout = layout
      ascii = (0..<128).map { layout.classify(Unicode.Scalar(UInt8($0))) }
    }

    mutating func typeability(of word: UnsafeBufferPointer<UInt8>) -> Typeability {
      var hasKey = false
      var result = Typeability.typeable
      UTF8Scalars.forEach(in: word) { s in
        let t: KeyboardLayout.Typing
        if s.value < 128 {
          t = ascii[Int(s.value)]
        } else if let known = others[s] {
          t = known
        } else {
          t = layout.classify(s)
          others[s] = t
        }
        switch t {
        case .key: hasKey = true
        case .skipped: break
        case .untypeable:
          result = .untypeable
          return false
        }
        return true
      }
      return result == .typeable && !hasKey ? .noKeys : result
    }
  }
}
