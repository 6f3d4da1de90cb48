// Shared helpers for the C++ peer benchmarks (marisa.cc, dawgdic.cc).
// Same CLI and JSON output as bench/peers/fst/src/main.rs:
//   PEER build WORDLIST OUT [--set]
//   PEER bench OUT --hits FILE --misses FILE [--prefixes FILE] [--passes N]
//              [--keyboard-words FILE --completions FILE]
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace bench {

inline uint64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

[[noreturn]] inline void die(const std::string &msg) {
  std::fprintf(stderr, "error: %s\n", msg.c_str());
  std::exit(1);
}

// One word per line, UTF-8; strips a trailing CR; skips empty lines.
inline std::vector<std::string> read_lines(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) die("cannot open " + path);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// Bytewise (unsigned) sort + dedupe. std::string compares through
// char_traits<char>, which compares as unsigned char (memcmp order).
inline void sort_unique(std::vector<std::string> &v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

inline uint64_t file_size(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) die("cannot stat " + path);
  return (uint64_t)st.st_size;
}

// Read-only private mapping of a whole file.
struct Mapping {
  void *addr = nullptr;
  size_t len = 0;
  bool open(const char *path) {
    int fd = ::open(path, O_RDONLY);
    if (fd < 0) return false;
    struct stat st;
    if (fstat(fd, &st) != 0) { ::close(fd); return false; }
    len = (size_t)st.st_size;
    addr = mmap(nullptr, len, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (addr == MAP_FAILED) { addr = nullptr; return false; }
    return true;
  }
  void close() {
    if (addr) munmap(addr, len);
    addr = nullptr;
  }
};

struct Args {
  std::string cmd, file, out, hits, misses, prefixes, keyboard_words, completions;
  bool set = false;
  int passes = 9;
};

inline Args parse_args(int argc, char **argv, const char *name) {
  Args a;
  auto usage = [&]() {
    std::fprintf(stderr,
                 "usage: %s build WORDLIST OUT [--set]\n"
                 "       %s bench OUT --hits FILE --misses FILE [--prefixes FILE] [--passes N]\n"
                 "                [--keyboard-words FILE --completions FILE]\n",
                 name, name);
    std::exit(64);
  };
  if (argc < 3) usage();
  a.cmd = argv[1];
  std::vector<std::string> pos;
  for (int i = 2; i < argc; i++) {
    std::string s = argv[i];
    auto val = [&]() -> std::string { if (i + 1 >= argc) usage(); return argv[++i]; };
    if (s == "--hits") a.hits = val();
    else if (s == "--misses") a.misses = val();
    else if (s == "--prefixes") a.prefixes = val();
    else if (s == "--passes") a.passes = std::atoi(val().c_str());
    else if (s == "--keyboard-words") a.keyboard_words = val();
    else if (s == "--completions") a.completions = val();
    else if (s == "--set") a.set = true;
    else if (s.size() > 1 && s[0] == '-' && s[1] == '-') usage();
    else pos.push_back(s);
  }
  if (a.cmd == "build") {
    if (pos.size() != 2) usage();
    a.file = pos[0];
    a.out = pos[1];
  } else if (a.cmd == "bench") {
    if (pos.size() != 1 || a.hits.empty() || a.misses.empty()) usage();
    if (a.keyboard_words.empty() != a.completions.empty()) usage();
    a.file = pos[0];
  } else {
    usage();
  }
  if (a.passes < 7) a.passes = 7;
  return a;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One warm-up pass, then `passes` timed passes; each pass returns its
// number of queries; the result is the median of the per-pass means (ns).
inline double time_passes(int passes, const std::function<size_t()> &pass) {
  pass();
  std::vector<double> means;
  for (int p = 0; p < passes; p++) {
    uint64_t t0 = now_ns();
    size_t n = pass();
    uint64_t t1 = now_ns();
    means.push_back(n ? double(t1 - t0) / double(n) : 0.0);
  }
  return median(means);
}

inline std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace bench

namespace bench {

// Open timing: each pass opens the structure `per_pass` times (into distinct
// slots), and the mean per open is recorded; closing happens outside the
// timed region. Median over `passes` passes after one warm-up pass.
inline double time_open(int passes, int per_pass,
                        const std::function<void(int)> &open_slot,
                        const std::function<void(int)> &close_slot) {
  std::vector<double> means;
  for (int p = -1; p < passes; p++) {
    uint64_t t0 = now_ns();
    for (int i = 0; i < per_pass; i++) open_slot(i);
    uint64_t t1 = now_ns();
    for (int i = 0; i < per_pass; i++) close_slot(i);
    if (p >= 0) means.push_back(double(t1 - t0) / per_pass);
  }
  return median(means);
}

}  // namespace bench

namespace bench {

// ---------------------------------------------------------------- keyboard queries
// The sample files `swipedict-bench queries --keyboard --keyboard-samples DIR` writes:
//   words.tsv        word<TAB>frequency byte<TAB>folded form, in SwipeDict's ID order
//   completions.tsv  letters<TAB>prefix<TAB>folded prefix<TAB>plain, in typing order; plain
//                    is 1 when SwipeDict reads the prefix by its folding classes alone (no
//                    "ss", "ae", "oe" also read as ß, æ, œ), so a folded peer answers the same

inline std::vector<std::string> split_tab(const std::string &line) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return out;
    start = tab + 1;
  }
}

struct KeyboardWord {
  std::string word, folded;
  uint8_t frequency;
};

inline std::vector<KeyboardWord> read_keyboard_words(const std::string &path) {
  std::vector<KeyboardWord> out;
  for (const auto &line : read_lines(path)) {
    auto f = split_tab(line);
    if (f.size() != 3) die(path + ": expected word<TAB>frequency<TAB>folded: " + line);
    out.push_back({f[0], f[2], (uint8_t)std::atoi(f[1].c_str())});
  }
  return out;
}

struct CompletionQuery {
  int letters;
  std::string prefix, folded;
  bool plain;
};

inline std::vector<CompletionQuery> read_completions(const std::string &path) {
  std::vector<CompletionQuery> out;
  for (const auto &line : read_lines(path)) {
    auto f = split_tab(line);
    if (f.size() != 4) die(path + ": expected letters<TAB>prefix<TAB>folded<TAB>plain: " + line);
    out.push_back({std::atoi(f[0].c_str()), f[1], f[2], f[3] == "1"});
  }
  return out;
}

// The `limit` most frequent candidates so far, most frequent first (ties: first seen).
template <typename Payload>
struct TopK {
  size_t limit;
  std::vector<std::pair<uint8_t, Payload>> items;
  explicit TopK(size_t limit) : limit(limit) { items.reserve(limit + 1); }
  void clear() { items.clear(); }
  bool admits(uint8_t f) const { return items.size() < limit || f > items.back().first; }
  // Inserts by frequency; returns the slot's payload to fill, or nullptr if not admitted.
  Payload *insert(uint8_t f) {
    if (!admits(f)) return nullptr;
    if (items.size() == limit) items.pop_back();
    size_t i = items.size();
    items.emplace_back();
    while (i > 0 && items[i - 1].first < f) {
      std::swap(items[i], items[i - 1]);
      i--;
    }
    items[i].first = f;
    return &items[i].second;
  }
};

// Per call: the median over `passes` timed passes (after one warm-up pass) of its ns;
// each call is timed on its own. `call(i)` returns a value folded into `checksum`.
inline std::vector<double> time_calls(int passes, size_t n, const std::function<uint64_t(size_t)> &call,
                                      uint64_t &checksum) {
  for (size_t i = 0; i < n; i++) checksum += call(i);
  std::vector<double> samples(n * passes);
  for (int p = 0; p < passes; p++) {
    for (size_t i = 0; i < n; i++) {
      uint64_t t0 = now_ns();
      checksum += call(i);
      uint64_t t1 = now_ns();
      samples[i * passes + p] = double(t1 - t0);
    }
  }
  std::vector<double> out(n);
  for (size_t i = 0; i < n; i++) {
    std::vector<double> c(samples.begin() + i * passes, samples.begin() + (i + 1) * passes);
    std::sort(c.begin(), c.end());
    out[i] = c[c.size() / 2];
  }
  return out;
}

// Nearest-rank quantile of ascending `v` (0 when empty).
inline double quantile(const std::vector<double> &v, double q) {
  if (v.empty()) return 0;
  long rank = (long)std::ceil(q * v.size()) - 1;
  if (rank < 0) rank = 0;
  if (rank >= (long)v.size()) rank = v.size() - 1;
  return v[rank];
}

inline std::string us(double ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", ns / 1000);
  return buf;
}

// "medianUs": …, "p99Us": …, "meanUs": … of per-call ns.
inline std::string stats_json(std::vector<double> ns) {
  std::sort(ns.begin(), ns.end());
  double sum = 0;
  for (double x : ns) sum += x;
  return "\"medianUs\": " + us(quantile(ns, 0.5)) + ", \"p99Us\": " + us(quantile(ns, 0.99)) +
         ", \"meanUs\": " + us(ns.empty() ? 0 : sum / ns.size());
}

// The check figures of a completion variant: results listed and the sum of their
// frequency bytes (independent of ties), over all queries and over the plain ones.
struct CompletionCheck {
  uint64_t results = 0, frequency_sum = 0, plain_results = 0, plain_frequency_sum = 0;
  template <typename Payload>
  void add(const CompletionQuery &q, const TopK<Payload> &top) {
    for (const auto &it : top.items) {
      results++;
      frequency_sum += it.first;
      if (q.plain) {
        plain_results++;
        plain_frequency_sum += it.first;
      }
    }
  }
};

// One completion variant's JSON: overall and by prefix length (1, 2, 3, 4+ letters), and
// the check figures.
inline std::string completion_json(const std::vector<CompletionQuery> &queries, const std::vector<double> &ns,
                                   const CompletionCheck &check, const std::string &extra) {
  std::string by = "[";
  const char *labels[] = {"1", "2", "3", "4+"};
  for (int b = 0; b < 4; b++) {
    std::vector<double> part;
    for (size_t i = 0; i < queries.size(); i++) {
      int l = queries[i].letters;
      if ((b < 3 && l == b + 1) || (b == 3 && l >= 4)) part.push_back(ns[i]);
    }
    if (b) by += ", ";
    by += std::string("{\"letters\": \"") + labels[b] + "\", \"queries\": " + std::to_string(part.size()) +
          ", " + stats_json(part) + "}";
  }
  by += "]";
  return "{\"queries\": " + std::to_string(queries.size()) + ", \"limit\": 10, " + stats_json(ns) +
         ", \"byLength\": " + by + ", \"results\": " + std::to_string(check.results) +
         ", \"frequencySum\": " + std::to_string(check.frequency_sum) +
         ", \"plainResults\": " + std::to_string(check.plain_results) +
         ", \"plainFrequencySum\": " + std::to_string(check.plain_frequency_sum) + extra + "}";
}

// Median ns of an empty timed call (two clock reads).
inline double timer_overhead_ns() {
  std::vector<double> v(100000);
  for (auto &x : v) {
    uint64_t t0 = now_ns();
    uint64_t t1 = now_ns();
    x = double(t1 - t0);
  }
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace bench
