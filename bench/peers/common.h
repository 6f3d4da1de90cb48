// Shared helpers for the C++ peer benchmarks (marisa.cc, dawgdic.cc).
// Same CLI and JSON output as bench/peers/fst/src/main.rs:
//   PEER build WORDLIST OUT [--set]
//   PEER bench OUT --hits FILE --misses FILE [--prefixes FILE] [--passes N]
#pragma once

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
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
  std::string cmd, file, out, hits, misses, prefixes;
  bool set = false;
  int passes = 9;
};

inline Args parse_args(int argc, char **argv, const char *name) {
  Args a;
  auto usage = [&]() {
    std::fprintf(stderr,
                 "usage: %s build WORDLIST OUT [--set]\n"
                 "       %s bench OUT --hits FILE --misses FILE [--prefixes FILE] [--passes N]\n",
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
