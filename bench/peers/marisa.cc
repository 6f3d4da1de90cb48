// marisa-trie peer (Debian libmarisa-dev). Build with:
//   g++ -O2 -std=c++17 -o marisa marisa.cc -lmarisa
// The trie is built with marisa's defaults (3 tries, text tail, weight
// order). marisa assigns its own key IDs (not lexicographic ranks);
// lookup returns that ID, reverse_lookup maps it back (ID -> word), and
// predictive_search lists the words under a prefix. The trie file is opened
// with Trie::mmap (no copy).
//
// Keyboard completion (--keyboard-words, --completions; see keyboard() below):
// the 10 most frequent words under a prefix, with SwipeDict's frequency bytes
// in an array indexed by marisa's key ID.
#include <marisa.h>

#include "common.h"

using namespace bench;

static int build(const Args &a) {
  uint64_t t0 = now_ns();
  std::vector<std::string> words = read_lines(a.file);
  marisa::Keyset keyset;
  for (const auto &w : words) keyset.push_back(w.data(), w.size());
  marisa::Trie trie;
  trie.build(keyset);
  trie.save(a.out.c_str());
  uint64_t t1 = now_ns();
  std::printf("{\"peer\": \"marisa\", \"words\": %zu, \"buildMs\": %s, \"bytes\": %llu}\n",
              (size_t)trie.num_keys(), num((t1 - t0) / 1e6).c_str(),
              (unsigned long long)file_size(a.out));
  return 0;
}

// Completion by frequency, two ways, each timed call by call:
//  exact:  predictive_search(prefix) on the word trie; keep the 10 most
//          frequent (frequency array indexed by key ID), copying a word out of
//          the agent when it enters the top 10.
//  folded: what SwipeDict answers (case and accents ignored): a second trie
//          of the distinct folded forms (SwipeDict's folding, from words.tsv),
//          whose key IDs index a list of the word-trie IDs that fold to it
//          (offsets + members) and the best frequency in that list;
//          predictive_search(folded prefix), keep the 10 most frequent word
//          IDs, then reverse_lookup each into a string. The folded trie and
//          lists are built here, before timing; their size is reported.
static std::string keyboard(const Args &a, marisa::Trie &trie, uint64_t &checksum) {
  std::vector<KeyboardWord> words = read_keyboard_words(a.keyboard_words);
  std::vector<CompletionQuery> queries = read_completions(a.completions);
  marisa::Agent agent;
  std::vector<uint8_t> freq(trie.num_keys(), 0);
  std::vector<uint32_t> trie_id(words.size());
  for (size_t i = 0; i < words.size(); i++) {
    agent.set_query(words[i].word.data(), words[i].word.size());
    if (!trie.lookup(agent)) die("keyboard word not in the trie: " + words[i].word);
    trie_id[i] = (uint32_t)agent.key().id();
    freq[agent.key().id()] = words[i].frequency;
  }
  // folded trie and its lists
  marisa::Keyset fkeys;
  for (const auto &w : words) fkeys.push_back(w.folded.data(), w.folded.size());
  marisa::Trie ftrie;
  ftrie.build(fkeys);
  std::vector<uint32_t> offsets(ftrie.num_keys() + 1, 0), members(words.size());
  std::vector<uint8_t> fbest(ftrie.num_keys(), 0);
  std::vector<uint32_t> fid(words.size());
  for (size_t i = 0; i < words.size(); i++) {
    agent.set_query(words[i].folded.data(), words[i].folded.size());
    if (!ftrie.lookup(agent)) die("folded form not in the folded trie");
    fid[i] = (uint32_t)agent.key().id();
    offsets[fid[i] + 1]++;
    fbest[fid[i]] = std::max(fbest[fid[i]], words[i].frequency);
  }
  for (size_t k = 0; k < ftrie.num_keys(); k++) offsets[k + 1] += offsets[k];
  {
    std::vector<uint32_t> next(offsets.begin(), offsets.end() - 1);
    for (size_t i = 0; i < words.size(); i++) members[next[fid[i]]++] = trie_id[i];
  }
  size_t foldedBytes = ftrie.io_size() + offsets.size() * 4 + members.size() * 4 + fbest.size();

  TopK<std::string> top(10);
  auto exact = [&](size_t i) -> uint64_t {
    const std::string &p = queries[i].prefix;
    top.clear();
    agent.set_query(p.data(), p.size());
    while (trie.predictive_search(agent)) {
      uint8_t f = freq[agent.key().id()];
      if (std::string *slot = top.insert(f)) slot->assign(agent.key().ptr(), agent.key().length());
    }
    uint64_t sum = 0;
    for (auto &it : top.items) sum += it.first + it.second.size();
    return sum + top.items.size();
  };
  TopK<uint32_t> ftop(10);
  std::vector<std::string> out(10);
  marisa::Agent ragent;
  auto folded = [&](size_t i) -> uint64_t {
    const std::string &p = queries[i].folded;
    ftop.clear();
    agent.set_query(p.data(), p.size());
    while (ftrie.predictive_search(agent)) {
      size_t k = agent.key().id();
      if (!ftop.admits(fbest[k])) continue;
      for (uint32_t m = offsets[k]; m < offsets[k + 1]; m++) {
        uint32_t id = members[m];
        if (uint32_t *slot = ftop.insert(freq[id])) *slot = id;
      }
    }
    uint64_t sum = 0;
    for (size_t r = 0; r < ftop.items.size(); r++) {
      ragent.set_query(ftop.items[r].second);
      trie.reverse_lookup(ragent);
      out[r].assign(ragent.key().ptr(), ragent.key().length());
      sum += ftop.items[r].first + out[r].size();
    }
    return sum + ftop.items.size();
  };
  CompletionCheck exactCheck, foldedCheck;
  for (size_t i = 0; i < queries.size(); i++) {
    exact(i);
    exactCheck.add(queries[i], top);
    folded(i);
    foldedCheck.add(queries[i], ftop);
  }
  double overhead = timer_overhead_ns();
  std::vector<double> exactNs = time_calls(a.passes, queries.size(), exact, checksum);
  std::vector<double> foldedNs = time_calls(a.passes, queries.size(), folded, checksum);
  return "{\"timerOverheadNs\": " + num(overhead) + ", \"exact\": " +
         completion_json(queries, exactNs, exactCheck,
                         ", \"variant\": \"predictive_search(prefix), top 10 by a frequency array\"") +
         ", \"folded\": " +
         completion_json(queries, foldedNs, foldedCheck,
                         ", \"variant\": \"folded trie + ID lists, predictive_search(folded prefix), "
                         "top 10, reverse_lookup\", \"extraBytes\": " +
                             std::to_string(foldedBytes + freq.size())) +
         "}";
}

static int bench_cmd(const Args &a) {
  std::vector<std::string> hits = read_lines(a.hits);
  std::vector<std::string> misses = read_lines(a.misses);
  std::vector<std::string> prefixes;
  if (!a.prefixes.empty()) prefixes = read_lines(a.prefixes);
  uint64_t checksum = 0;

  // open
  const int kOpens = 16;
  std::vector<marisa::Trie> slots(kOpens);
  double openNs = time_open(
      a.passes, kOpens,
      [&](int i) { slots[i].mmap(a.file.c_str()); },
      [&](int i) { checksum += slots[i].num_keys(); slots[i].clear(); });

  marisa::Trie trie;
  trie.mmap(a.file.c_str());
  marisa::Agent agent;

  size_t hitFound = 0, missFound = 0;
  std::vector<size_t> ids(hits.size());
  for (size_t i = 0; i < hits.size(); i++) {
    agent.set_query(hits[i].data(), hits[i].size());
    if (trie.lookup(agent)) { hitFound++; ids[i] = agent.key().id(); }
  }
  for (const auto &w : misses) {
    agent.set_query(w.data(), w.size());
    if (trie.lookup(agent)) missFound++;
  }
  size_t roundTrip = 0;
  for (size_t i = 0; i < hits.size(); i++) {
    agent.set_query(ids[i]);
    trie.reverse_lookup(agent);
    if (std::string(agent.key().ptr(), agent.key().length()) == hits[i]) roundTrip++;
  }

  double hitNs = time_passes(a.passes, [&]() {
    for (const auto &w : hits) {
      agent.set_query(w.data(), w.size());
      if (trie.lookup(agent)) checksum += agent.key().id();
    }
    return hits.size();
  });
  double missNs = time_passes(a.passes, [&]() {
    for (const auto &w : misses) {
      agent.set_query(w.data(), w.size());
      if (trie.lookup(agent)) checksum += agent.key().id() + 1;
    }
    return misses.size();
  });
  double idNs = time_passes(a.passes, [&]() {
    for (size_t id : ids) {
      agent.set_query(id);
      trie.reverse_lookup(agent);
      checksum += agent.key().length() + (unsigned char)agent.key().ptr()[0];
    }
    return ids.size();
  });
  size_t prefixResults = 0;
  for (const auto &p : prefixes) {
    agent.set_query(p.data(), p.size());
    while (trie.predictive_search(agent)) prefixResults++;
  }
  double prefixNs = -1;
  if (!prefixes.empty()) {
    prefixNs = time_passes(a.passes, [&]() {
      for (const auto &p : prefixes) {
        agent.set_query(p.data(), p.size());
        while (trie.predictive_search(agent))
          checksum += agent.key().length() + agent.key().id();
      }
      return prefixes.size();
    });
  }

  std::string completion = "null";
  if (!a.completions.empty()) completion = keyboard(a, trie, checksum);

  std::printf(
      "{\"peer\": \"marisa\", \"variant\": \"marisa::Trie (default config), mmap\", "
      "\"words\": %zu, \"bytes\": %llu, \"openNs\": %s, \"lookupHitNs\": %s, "
      "\"lookupMissNs\": %s, \"idToWordNs\": %s, \"prefixNs\": %s, "
      "\"hits\": %zu, \"hitFound\": %zu, \"misses\": %zu, \"missFound\": %zu, "
      "\"idRoundTrip\": %zu, \"prefixes\": %zu, \"prefixResults\": %zu, "
      "\"passes\": %d, \"completion\": %s, \"checksum\": %llu}\n",
      (size_t)trie.num_keys(), (unsigned long long)file_size(a.file), num(openNs).c_str(),
      num(hitNs).c_str(), num(missNs).c_str(), num(idNs).c_str(),
      prefixes.empty() ? "null" : num(prefixNs).c_str(), hits.size(), hitFound,
      misses.size(), missFound, roundTrip, prefixes.size(), prefixResults, a.passes,
      completion.c_str(), (unsigned long long)checksum);
  return 0;
}

int main(int argc, char **argv) {
  Args a = parse_args(argc, argv, "marisa");
  try {
    if (a.cmd == "build") return build(a);
    return bench_cmd(a);
  } catch (const marisa::Exception &e) {
    die(std::string("marisa: ") + e.what());
  }
}
