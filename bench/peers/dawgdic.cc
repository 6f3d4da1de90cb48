// dawgdic peer (Debian libdawgdic-dev, header-only). Build with:
//   g++ -O2 -std=c++17 -o dawgdic dawgdic.cc
// Build: words sorted bytewise (inside the timed build), inserted with
// value = rank in that order, so the Dictionary is a word -> ID map with
// lexicographic IDs. Because every word carries a distinct value, suffixes
// whose words have different values cannot be merged; `--set` builds the
// plain set variant (all values 0, fully minimized) for comparison.
// File = Dictionary followed by a Guide (needed for prefix completion).
// Open = open + mmap + Dictionary::Map + Guide::Map (dawgdic's own file API is
// Read(std::istream*), which copies; Map is its zero-copy API).
// dawgdic has no ID -> word: idToWordNs is null.
#include <dawgdic/completer.h>
#include <dawgdic/dawg-builder.h>
#include <dawgdic/dictionary-builder.h>
#include <dawgdic/guide-builder.h>

#include "common.h"

using namespace bench;

static int build(const Args &a) {
  uint64_t t0 = now_ns();
  std::vector<std::string> words = read_lines(a.file);
  sort_unique(words);
  dawgdic::DawgBuilder builder;
  for (size_t i = 0; i < words.size(); i++) {
    if (!builder.Insert(words[i].c_str(), words[i].size(),
                        a.set ? 0 : (dawgdic::ValueType)i))
      die("dawgdic: Insert failed for word " + std::to_string(i));
  }
  dawgdic::Dawg dawg;
  if (!builder.Finish(&dawg)) die("dawgdic: Finish failed");
  dawgdic::Dictionary dic;
  if (!dawgdic::DictionaryBuilder::Build(dawg, &dic)) die("dawgdic: DictionaryBuilder failed");
  dawgdic::Guide guide;
  if (!dawgdic::GuideBuilder::Build(dawg, dic, &guide)) die("dawgdic: GuideBuilder failed");
  {
    std::ofstream out(a.out, std::ios::binary | std::ios::trunc);
    if (!dic.Write(&out) || !guide.Write(&out)) die("cannot write " + a.out);
  }
  uint64_t t1 = now_ns();
  std::printf(
      "{\"peer\": \"dawgdic\", \"variant\": \"%s\", \"words\": %zu, \"buildMs\": %s, "
      "\"bytes\": %llu, \"dictBytes\": %llu, \"guideBytes\": %llu, \"dawgStates\": %llu}\n",
      a.set ? "set (values 0)" : "map (value = bytewise rank)", words.size(),
      num((t1 - t0) / 1e6).c_str(), (unsigned long long)file_size(a.out),
      (unsigned long long)dic.file_size(), (unsigned long long)guide.file_size(),
      (unsigned long long)dawg.num_of_states());
  return 0;
}

struct Opened {
  Mapping m;
  dawgdic::Dictionary dic;
  dawgdic::Guide guide;
  bool open(const char *path) {
    if (!m.open(path)) return false;
    dic.Map(m.addr);
    guide.Map(static_cast<const char *>(m.addr) + dic.file_size());
    return true;
  }
  void close() {
    dic.Clear();
    guide.Clear();
    m.close();
  }
};

static int bench_cmd(const Args &a) {
  std::vector<std::string> hits = read_lines(a.hits);
  std::vector<std::string> misses = read_lines(a.misses);
  std::vector<std::string> prefixes;
  if (!a.prefixes.empty()) prefixes = read_lines(a.prefixes);
  uint64_t checksum = 0;

  const int kOpens = 16;
  std::vector<Opened> slots(kOpens);
  double openNs = time_open(
      a.passes, kOpens,
      [&](int i) { if (!slots[i].open(a.file.c_str())) die("cannot map " + a.file); },
      [&](int i) { checksum += slots[i].dic.size(); slots[i].close(); });

  Opened o;
  if (!o.open(a.file.c_str())) die("cannot map " + a.file);
  const dawgdic::Dictionary &dic = o.dic;
  if (dic.file_size() + o.guide.file_size() != o.m.len) die("bad dawgdic file " + a.file);

  size_t hitFound = 0, missFound = 0;
  for (const auto &w : hits) {
    dawgdic::ValueType v;
    if (dic.Find(w.data(), w.size(), &v)) hitFound++;
  }
  for (const auto &w : misses)
    if (dic.Contains(w.data(), w.size())) missFound++;

  double hitNs = time_passes(a.passes, [&]() {
    for (const auto &w : hits) {
      dawgdic::ValueType v;
      if (dic.Find(w.data(), w.size(), &v)) checksum += v;
    }
    return hits.size();
  });
  double missNs = time_passes(a.passes, [&]() {
    for (const auto &w : misses) {
      dawgdic::ValueType v;
      if (dic.Find(w.data(), w.size(), &v)) checksum += v + 1;
    }
    return misses.size();
  });

  dawgdic::Completer completer(dic, o.guide);
  auto list = [&](const std::string &p, uint64_t &sum) {
    size_t n = 0;
    dawgdic::BaseType index = dic.root();
    if (!dic.Follow(p.data(), p.size(), &index)) return n;
    completer.Start(index, p.data(), p.size());
    while (completer.Next()) {
      n++;
      sum += completer.length() + completer.value();
    }
    return n;
  };
  size_t prefixResults = 0;
  uint64_t dummy = 0;
  for (const auto &p : prefixes) prefixResults += list(p, dummy);
  double prefixNs = -1;
  if (!prefixes.empty()) {
    prefixNs = time_passes(a.passes, [&]() {
      for (const auto &p : prefixes) list(p, checksum);
      return prefixes.size();
    });
  }

  std::printf(
      "{\"peer\": \"dawgdic\", \"variant\": \"Dictionary (value = bytewise rank) + Guide, mmap\", "
      "\"bytes\": %llu, \"dictBytes\": %llu, \"guideBytes\": %llu, \"openNs\": %s, "
      "\"lookupHitNs\": %s, \"lookupMissNs\": %s, \"idToWordNs\": null, \"prefixNs\": %s, "
      "\"hits\": %zu, \"hitFound\": %zu, \"misses\": %zu, \"missFound\": %zu, "
      "\"prefixes\": %zu, \"prefixResults\": %zu, \"passes\": %d, \"checksum\": %llu}\n",
      (unsigned long long)o.m.len, (unsigned long long)dic.file_size(),
      (unsigned long long)o.guide.file_size(), num(openNs).c_str(), num(hitNs).c_str(),
      num(missNs).c_str(), prefixes.empty() ? "null" : num(prefixNs).c_str(), hits.size(),
      hitFound, misses.size(), missFound, prefixes.size(), prefixResults, a.passes,
      (unsigned long long)(checksum + dummy));
  return 0;
}

int main(int argc, char **argv) {
  Args a = parse_args(argc, argv, "dawgdic");
  if (a.cmd == "build") return build(a);
  return bench_cmd(a);
}
