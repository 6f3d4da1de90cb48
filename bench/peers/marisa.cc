// marisa-trie peer (Debian libmarisa-dev). Build with:
//   g++ -O2 -std=c++17 -o marisa marisa.cc -lmarisa
// The trie is built with marisa's defaults (3 tries, text tail, weight
// order). marisa assigns its own key IDs (not lexicographic ranks);
// lookup returns that ID, reverse_lookup maps it back (ID -> word), and
// predictive_search lists the words under a prefix. The trie file is opened
// with Trie::mmap (no copy).
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

  std::printf(
      "{\"peer\": \"marisa\", \"variant\": \"marisa::Trie (default config), mmap\", "
      "\"words\": %zu, \"bytes\": %llu, \"openNs\": %s, \"lookupHitNs\": %s, "
      "\"lookupMissNs\": %s, \"idToWordNs\": %s, \"prefixNs\": %s, "
      "\"hits\": %zu, \"hitFound\": %zu, \"misses\": %zu, \"missFound\": %zu, "
      "\"idRoundTrip\": %zu, \"prefixes\": %zu, \"prefixResults\": %zu, "
      "\"passes\": %d, \"checksum\": %llu}\n",
      (size_t)trie.num_keys(), (unsigned long long)file_size(a.file), num(openNs).c_str(),
      num(hitNs).c_str(), num(missNs).c_str(), num(idNs).c_str(),
      prefixes.empty() ? "null" : num(prefixNs).c_str(), hits.size(), hitFound,
      misses.size(), missFound, roundTrip, prefixes.size(), prefixResults, a.passes,
      (unsigned long long)checksum);
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
