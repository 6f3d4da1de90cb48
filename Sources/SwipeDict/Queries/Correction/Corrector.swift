@_spi(SwipeDictInternals) import SwipeDictFormat

/// How ``SwipeDictionary/corrections(for:context:limit:model:)`` compares a typed word with the
/// dictionary's words.
public enum CorrectionModel: Sendable, Hashable {
  /// A weighted edit distance fitted to typing errors (adjacent-key slips, omissions, extra
  /// letters, swaps, doubled letters), searched over the whole dictionary with the frequency
  /// prior: the default. See ``TypingCosts``.
  case typing(TypingCosts = .init())
  /// The Kännsch thesis's adjusted Levenshtein distance, a greedy walk over the words of the
  /// input's prefix-tree leaf and the top list, where a word's unwritten rest is free (so
  /// corrections include completions). See ``KaennschCosts``.
  case kaennsch(KaennschCosts = .init())
}

/// The correction model: ``CorrectionModel`` under its first name, which read as a set of
/// options rather than the choice of an algorithm.
@available(*, deprecated, renamed: "CorrectionModel")
public typealias CorrectionOptions = CorrectionModel

extension SwipeDictionary {
  /// The words the user most likely meant by `input` (see ``Corrector``). Makes a corrector
  /// for this one call; keep a ``Corrector`` when you correct after every keystroke.
  /// - Parameters:
  ///   - input: what the user typed.
  ///   - context: the previous word (``context(after:pairWeight:)``); none by default.
  ///   - limit: the most suggestions to return.
  ///   - model: the model and its costs (the typing model's fitted costs by default).
  /// - Returns: suggestions by descending score (ties: frequency, then ID).
  public func corrections(
    for input: String, context: WordContext = .empty, limit: Int = 10, model: CorrectionModel = .typing()
  ) -> [Suggestion] {
    makeCorrector(model: model).corrections(for: input, context: context, limit: limit)
  }

  /// A reusable corrector: it prepares the costs on the layout and, for the typing model, a
  /// table of frequency maxima (n/16 + n/1,024 bytes for n words) once.
  public func makeCorrector(model: CorrectionModel = .typing()) -> Corrector {
    Corrector(dictionary: self, model: model)
  }

  /// ``corrections(for:context:limit:model:)`` with the model's first label.
  @available(*, deprecated, renamed: "corrections(for:context:limit:model:)")
  public func corrections(
    for input: String, context: WordContext = .empty, limit: Int = 10, options: CorrectionModel
  ) -> [Suggestion] {
    corrections(for: input, context: context, limit: limit, model: options)
  }

  /// ``makeCorrector(model:)`` with the model's first label.
  @available(*, deprecated, renamed: "makeCorrector(model:)")
  public func makeCorrector(options: CorrectionModel) -> Corrector { makeCorrector(model: options) }
}

/// Correction over a dictionary, ready to run after every keystroke.
///
/// **The typing model** (``CorrectionModel/typing(_:)``, the default) scores every word of
/// the dictionary within reach as its frequency byte less the cost of the cheapest edits that
/// turn its spelling into the input: a weighted Damerau–Levenshtein distance whose costs
/// (``TypingCosts``) make an adjacent-key slip cheap, an omitted or doubled letter cheaper
/// than an extra one, and a swap one edit. The search walks the automaton once with a row of
/// the distance table per node, stops where no word below can beat the `limit`-th suggestion
/// (the most frequent word below a node bounds it) and visits the best branches first. A
/// word must be whole: "hel" is no correction of "hello" (completion answers that). A
/// suggestion's `distance` is its cost in ``TypingCosts`` units, its `score` the frequency
/// byte less the cost in the blob's frequency steps.
///
/// **The Kännsch model** (``CorrectionModel/kaennsch(_:)``) compares the words of the
/// input's prefix-tree leaf and the top list by the thesis's adjusted Levenshtein distance
/// (a greedy, linear-time walk), where letters of the word past the end of the input cost
/// nothing, so exact prefixes (completions) have distance 0; the score is the frequency byte
/// minus the penalty times the distance.
///
/// **Whitelisted corrections come first**, as AOSP keyboards apply them: when the word list
/// gives the input a whitelisted shortcut (`acomodate` → `accommodate`, `ill` → `I'll`;
/// ``SwipeDictionary/shortcuts(for:)``, the input as typed or lowercased) whose target is a
/// word of the blob that may be suggested, that word leads the list, with its distance and
/// a score one above the best of the rest. Targets of several words ("United States") are
/// no suggestions: read them from `shortcuts(for:)`.
public struct Corrector: Sendable {
  private enum Search: Sendable {
    case typing(TypingSearch)
    case kaennsch(KaennschModel)
  }

  private let dictionary: SwipeDictionary
  private let search: Search

  /// The model and costs in use.
  public let model: CorrectionModel

  /// The model and costs in use: ``model`` under its first name.
  @available(*, deprecated, renamed: "model")
  public var options: CorrectionModel { model }

  init(dictionary: SwipeDictionary, model: CorrectionModel) {
    self.dictionary = dictionary
    self.model = model
    switch model {
    case .typing(let costs): search = .typing(TypingSearch(dictionary: dictionary, costs: costs))
    case .kaennsch(let costs):
      search = .kaennsch(KaennschModel(dictionary: dictionary, layout: dictionary.layout, options: costs))
    }
  }

  /// The best corrections of `input`, by descending score (ties: frequency, then ID), its
  /// whitelisted corrections first.
  ///
  /// Words marked possibly offensive are never found, but for the one `input` spells (case
  /// ignored, ``SwipeDictionary/typedWords(_:)``): the user typed it, so it stays.
  ///
  /// With a `context` (the previous word, ``SwipeDictionary/context(after:pairWeight:)``),
  /// the model finds ``contextExtra`` more words than `limit` and each word's score gains its
  /// ``WordContext/boost(of:)`` in the blob's frequency steps before the best `limit` are
  /// kept: the context reorders what the model finds, it finds no word the model would not.
  ///
  /// With ``SwipeDictionary/userWords``, the typing model walks the automaton by the
  /// personal frequencies (``SwipeDictionary/personalFrequency(of:)``), so a word the user's
  /// uses raised is found as a word of the raised frequency, and also scores the user's words
  /// the blob lacks (those sharing a key of their first three letters with the input,
  /// ``UserLayer``) that can score as high as the words the walk found, less its margin; the
  /// Kännsch model only reorders what it finds by the raised frequencies.
  public func corrections(for input: String, context: WordContext = .empty, limit: Int = 10) -> [Suggestion] {
    // Longer than any word of a blob: nothing to correct to, and the search's time grows with
    // the input's length.
    guard input.unicodeScalars.count <= BlobFormat.maxWordLength else { return [] }
    let personal = !dictionary.userLayer.isEmpty
    var reorders = !context.isEmpty
    // Words for a reordering to choose from: `contextExtra` more than asked.
    func wanted() -> Int {
      !reorders || limit <= 0 ? limit : min(limit, Int.max - Self.contextExtra) + Self.contextExtra
    }
    var ranked: [Suggestion]
    switch search {
    case .typing(let search):
      let userWords = personal && limit > 0 && !dictionary.userLayer.correctables.isEmpty
      ranked = typingCorrections(for: input, limit: wanted(), search, userWords: userWords)
    case .kaennsch(let kaennsch):
      reorders = reorders || personal
      ranked = kaennschCorrections(for: input, limit: wanted(), kaennsch)
    }
    if reorders { ranked = dictionary.reranked(ranked, by: context, limit: limit) }
    ranked = typedWordFirst(input, ranked, limit: limit)
    let whitelisted = whitelistedCorrections(for: input)
    guard !whitelisted.isEmpty, limit > 0 else { return ranked }
    var top = (ranked.first?.score ?? 0) + whitelisted.count
    var first: [Suggestion] = []
    for var suggestion in whitelisted {
      if let labels = dictionary.dawg.labels(of: suggestion.id) {
        suggestion.distance = distance(from: input, to: labels)
      }
      suggestion.score = top
      top -= 1
      first.append(suggestion)
    }
    let ids = Set(first.map(\.id))
    return Array((first + ranked.filter { !ids.contains($0.id) }).prefix(limit))
  }

  /// `ranked` with the word `input` spells exactly (a word of the blob that may be suggested,
  /// or one the user typed of the offensive ones) first: a keyboard leaves a word of its
  /// lexicon as it was typed (the default lexicons hold no known misspellings; issue 33). A
  /// rare word one slip from a frequent one (`lien`, `line`) was second before.
  private func typedWordFirst(_ input: String, _ ranked: [Suggestion], limit: Int) -> [Suggestion] {
    guard limit > 0, let id = dictionary.id(of: input),
      dictionary.isSuggestible(id) || dictionary.typedWords(input).contains(id)
    else { return ranked }
    if ranked.first?.id == id { return ranked }
    let top = ranked.first?.score ?? 0
    var exact =
      ranked.first { $0.id == id }
      ?? dictionary.suggestions([id]).first
      ?? Suggestion(id: id, word: input, frequency: dictionary.frequency(of: id) ?? 0)
    exact.distance = 0
    exact.score = max(exact.score, top + 1)
    return Array(([exact] + ranked.filter { $0.id != id }).prefix(limit))
  }

  /// How many more words than asked the model finds for a context to reorder.
  public static let contextExtra = 8

  /// The distance of the model in use from `input` to the word spelled by `labels`.
  private func distance(from input: String, to labels: [UInt8]) -> Int {
    switch search {
    case .typing(let search): search.cost(of: input, labels, limited: false).map(search.units) ?? TypingCosts.maxValue
    case .kaennsch(let kaennsch): kaennsch.distance(kaennsch.units(of: input), labels)
    }
  }

  /// The user's words the blob lacks (``SwipeDictionary/userWords``) and the blob's words
  /// their uses raised, within the typing model's reach of `input`, scored as the model
  /// scores the blob's words (by the raised frequency). A word's length must be within
  /// `maxEdits` letters of the input's; while the model allows one edit in the first four
  /// letters (its default), only the words sharing a key of their first three letters with
  /// the input (as the model reads it: ``TypingSearch/letters(of:)``) are scored
  /// (``UserLayer/correctionKeys(_:)``), else every one.
  func userCorrections(for input: String, indexed: Bool, scoringAtLeast least: Int = .min) -> [Suggestion] {
    guard case .typing(let search) = search else { return [] }
    let candidates = userCandidates(for: input, search, indexed: indexed, scoringAtLeast: least)
    let costs = search.costs(of: input, sorted: candidates.words, cap: candidates.cap)
    return userSuggestions(candidates.positions, costs: costs, search, scoringAtLeast: least)
  }

  /// The candidates of ``userCorrections(for:indexed:scoringAtLeast:)``: positions in
  /// ``UserLayer/correctables`` (label order), their labels, and the most a word may
  /// cost (within the model's reach, and leaving the best of them at least `least`).
  private func userCandidates(
    for input: String, _ search: TypingSearch, indexed: Bool = true, scoringAtLeast least: Int
  ) -> (positions: [Int32], words: [[UInt8]], cap: Int32) {
    let layer = dictionary.userLayer
    let cap = min(Int(search.scaled.maxCost), Int(layer.correctableMaximum) - max(least, Int(Int32.min)))
    let typed = search.letters(of: input).map(\.fold)
    guard cap >= 0, !typed.isEmpty else { return ([], [], 0) }
    let reach = max(0, search.costs.maxEdits)
    var positions: [Int32]
    if indexed, search.costs.maxEarlyEdits <= 1, search.costs.earlyLetters >= 4 {
      // Those sharing a key with the input.
      var lists = UserLayer.correctionKeys(typed).compactMap { layer.correctionIndex[$0] }
      positions = lists.count == 1 ? lists[0] : Self.union(&lists)
    } else {
      positions = layer.correctables.indices.map { Int32($0) }
    }
    // Out of reach by length or by letters (``UserLayer/letterMask(_:)``), or too rare.
    let typedMask = UserLayer.letterMask(typed)
    positions.removeAll { position in
      let word = layer.correctables[Int(position)]
      return abs(Int(word.length) - typed.count) > reach || Int(word.frequency) < least
        || (word.letters & ~typedMask).nonzeroBitCount > reach || (typedMask & ~word.letters).nonzeroBitCount > reach
    }
    return (positions, positions.map { layer.extras[Int(layer.correctables[Int($0)].index)].labels! }, Int32(cap))
  }

  /// The candidates' suggestions that score at least `least`, given their costs.
  private func userSuggestions(
    _ positions: [Int32], costs: [Int32?], _ search: TypingSearch, scoringAtLeast least: Int
  ) -> [Suggestion] {
    let layer = dictionary.userLayer
    return zip(positions, costs).compactMap { position, cost in
      let index = Int(layer.correctables[Int(position)].index)
      let frequency = layer.extras[index].frequency
      guard let cost, Int(frequency) - Int(cost) >= least else { return nil }
      return Suggestion(
        id: dictionary.wordCount + index, word: layer.extras[index].word, frequency: frequency,
        distance: search.units(cost), score: Int(frequency) - Int(cost))
    }
  }

  /// The union of ascending lists, ascending, each value once.
  private static func union(_ lists: inout [[Int32]]) -> [Int32] {
    var merged: [Int32] = []
    merged.reserveCapacity(lists.reduce(0) { $0 + $1.count })
    var heads = [Int](repeating: 0, count: lists.count)
    while true {
      var smallest = Int32.max
      var any = false
      for (i, list) in lists.enumerated() where heads[i] < list.count {
        smallest = min(smallest, list[heads[i]])
        any = true
      }
      guard any else { return merged }
      merged.append(smallest)
      for (i, list) in lists.enumerated() where heads[i] < list.count && list[heads[i]] == smallest { heads[i] += 1 }
    }
  }

  /// The typing model's ranking, best first: at most `limit` words within its margin of the
  /// best; with `userWords`, of the blob's words and the user's words the blob lacks
  /// (``userCorrections(for:indexed:scoringAtLeast:)``, scored with the walk's tables).
  private func typingCorrections(for input: String, limit: Int, _ search: TypingSearch, userWords: Bool)
    -> [Suggestion]
  {
    let d = dictionary
    var least = Int.min
    var positions: [Int32] = []
    let typed = d.typedWords(input)
    let (found, costs) = search.search(
      input, limit: limit, dawg: d.dawg, frequencies: d.frequencies,
      isSuggestible: { d.isSuggestible($0) || typed.contains($0) }
    ) { found in
      guard userWords else { return ([], 0) }
      // A user's word scoring below every one of the `limit` words found, or more than the
      // margin below the best, cannot place: their context boosts are at least a user's
      // word's (no pair lists it).
      least = found.first.map { $0.frequency - Int($0.cost) - Int(search.scaled.margin) } ?? Int.min
      if found.count >= limit, let last = found.last { least = max(least, last.frequency - Int(last.cost)) }
      let candidates = userCandidates(for: input, search, scoringAtLeast: least)
      positions = candidates.positions
      return (candidates.words, candidates.cap)
    }
    let words = Dictionary(d.suggestions(found.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let ranked = found.compactMap { found -> Suggestion? in
      guard var suggestion = words[found.id] else { return nil }
      // The byte the walk ranked by: the user's (raised) one when there are user words.
      suggestion.frequency = UInt8(clamping: found.frequency)
      suggestion.distance = search.units(found.cost)
      suggestion.score = found.frequency - Int(found.cost)
      return suggestion
    }
    let user = userSuggestions(positions, costs: costs, search, scoringAtLeast: least)
    guard !user.isEmpty else { return ranked }
    // The best `limit` of both, within the margin of the best of both: what the walk would
    // keep if the user's words were the blob's (a blob word it left out is below its own
    // best less the margin, so below the best of both less the margin).
    var merged = ranked + user
    let best = merged.map(\.score).max()!
    merged.removeAll { $0.score < best - Int(search.scaled.margin) }
    merged.sort { ($0.score, $0.frequency, -$0.id) > ($1.score, $1.frequency, -$1.id) }
    return Array(merged.prefix(max(0, limit)))
  }

  /// The suggestible words the list's whitelisted shortcuts give `input` (as typed, then
  /// lowercased), in the section's order, each once.
  private func whitelistedCorrections(for input: String) -> [Suggestion] {
    let d = dictionary
    guard d.markView?.shortcutCount ?? 0 > 0 else { return [] }
    var spellings = [input]
    if input.lowercased() != input { spellings.append(input.lowercased()) }
    var seen = Set<Int>()
    return spellings.flatMap { d.shortcuts(for: $0) }.filter(\.isWhitelisted).compactMap { shortcut in
      guard let id = d.id(of: shortcut.target), d.isSuggestible(id), seen.insert(id).inserted else { return nil }
      return d.suggestion(id)
    }
  }

  /// The Kännsch model's ranking (by the adjusted distance and frequency alone).
  private func kaennschCorrections(for input: String, limit: Int, _ model: KaennschModel) -> [Suggestion] {
    let d = dictionary
    let options = model.options
    guard limit > 0, let tree = d.prefixTree else { return [] }
    // No more suggestions than words: a huge limit must not overflow or allocate.
    let limit = min(limit, d.wordCount)
    let typed = model.units(of: input)
    guard !typed.isEmpty, typed.count <= 4 * d.dawg.longestWord + 16 else { return [] }

    var ranked = RankedSuggestions(limit: limit, frequencies: d.frequencies)
    let typedWords = d.typedWords(input)
    func consider(_ id: Int, _ labels: [UInt8], penalty: Int) {
      guard d.isSuggestible(id) || typedWords.contains(id), let frequency = d.frequencies.byte(at: id),
        ranked.admits(Int(frequency), id)
      else { return }
      let distance = model.distance(typed, labels)
      guard distance <= options.maxDistance else { return }
      ranked.insert(id: id, distance: distance, score: Int(frequency) - penalty * distance)
    }

    // The input's leaf: walk the tree by the input's folded letters.
    let path = typed.prefix(PrefixTreeLayout.maxDepth).map(\.treeClass)
    var reference = tree.root
    for treeClass in path {
      guard case .node(let node) = reference else { break }
      reference = tree.child(of: node, treeClass)
    }
    switch reference {
    case .leaf(let index)?:
      if let leaf = tree.leaf(index) {
        for run in leaf.runs {
          var cursor = WordCursor(dawg: d.dawg, range: run)
          while cursor.next() { consider(cursor.id, cursor.labels, penalty: options.penalty) }
        }
      }
    case .node?:
      var ids: [Int] = []
      d.forEachByFrequency(below: path) { id in
        ids.append(id)
        return ids.count < options.maxNodeWords
      }
      for id in ids where ranked.admits(Int(d.frequencies.byte(at: id) ?? 0), id) {
        if let labels = d.dawg.labels(of: id) { consider(id, labels, penalty: options.penalty) }
      }
    case nil:
      break
    }

    // The top list, most frequent first and spelled in the section itself: stop at the
    // first word whose frequency cannot reach the current limit-th score.
    let spellings = tree.topSpellings
    var at = 0
    var labels: [UInt8] = []
    for rank in 0..<tree.topCount {
      guard let (m, size) = spellings.varint(at: at), m <= UInt64(spellings.count),
        let bytes = spellings.slice(offset: at + size, length: Int(m)),
        let id = tree.topID(rank), let frequency = d.frequencies.byte(at: id)
      else { break }
      at += size + Int(m)
      if !ranked.admits(Int(frequency), id) { break }
      labels.removeAll(keepingCapacity: true)
      bytes.withUnsafeBytes { labels.append(contentsOf: $0) }
      consider(id, labels, penalty: options.topPenalty)
    }

    return ranked.entries.compactMap { entry in
      guard var suggestion = d.suggestion(entry.id) else { return nil }
      suggestion.distance = entry.distance
      suggestion.score = entry.score
      return suggestion
    }
  }
}

extension SwipeDictionary {
  /// `suggestions` with each score raised by its word's boost in `context` (in this blob's
  /// frequency steps) and by what the user's uses add to its frequency, best first (ties:
  /// frequency, then ID), at most `limit`.
  func reranked(_ suggestions: [Suggestion], by context: WordContext, limit: Int) -> [Suggestion] {
    let steps = WordContext.steps(frequencyScale: frequencyScale)
    let scored = suggestions.map { suggestion in
      var suggestion = suggestion
      suggestion.score += WordContext.score(0, context.boost(of: suggestion.id), steps: steps)
      if let personal = personalFrequency(of: suggestion.id), personal > suggestion.frequency {
        suggestion.score += Int(personal) - Int(suggestion.frequency)
        suggestion.frequency = personal
      }
      return suggestion
    }
    let sorted = scored.sorted {
      ($0.score, $0.frequency, -$0.id) > ($1.score, $1.frequency, -$1.id)
    }
    return Array(sorted.prefix(max(0, limit)))
  }
}
