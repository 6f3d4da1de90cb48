# SwipeDict — key targets in this makefile:
#
#   make             install what is missing (libzstd-dev, zlib1g-dev), build swipedict in release mode,
#                    compile the default dictionaries into build/ and print their summary
#                    (words, bytes, bytes per word of each section)
#   make test        run the whole test suite (Swift Testing)
#   make bench       compare SwipeDict with marisa-trie, dawgdic and fst on the same word
#                    lists (bench/run.sh; QUICK=1 for the en list only)
#   make bench-decoder  the reference decoder's accuracy, latency and memory on real swipes
#                    (../shared/swipes/hws-dev.jsonl, when present) and synthetic ones
#                    (en-10k, en-100k, en, en-900k, multi-2m; bench/decoder.sh; QUICK=1 for
#                    the two small vocabularies, the real swipes and 300 swipes per set)
#   make fuzz        libFuzzer + AddressSanitizer over open and every query (Linux;
#                    FUZZ_SECONDS=600 by default); inputs that crash go to Fuzz/Corpus,
#                    which `make test` replays
#   make tsan        the concurrency tests under ThreadSanitizer (10 s soak of the loader,
#                    and the decoder shared by four tasks)
#   make asan        the lifetime, hostile-bytes and corrupt-blob tests under AddressSanitizer
#                    (views used after their dictionary is gone, damaged blobs)
#   make dictionaries  only (re)compile build/*.swipedict
#   make deps        only install missing system packages
#   make clean       remove build/ and .build/
#
# Dictionaries: build/<lang>.swipedict from corpora/<lang>.tsv.zst and its layout.

SWIFT        ?= swift
BUILD_DIR    := build
RELEASE_BIN   = $(shell $(SWIFT) build -c release --show-bin-path)/swipedict
DICTIONARIES := $(BUILD_DIR)/en.swipedict $(BUILD_DIR)/de.swipedict

layout_en := corpora/layouts/qwerty-en.json
layout_de := corpora/layouts/qwertz-de.json

.PHONY: all deps release dictionaries test bench bench-decoder fuzz tsan asan clean

all: deps release dictionaries

# The system libraries: libzstd (headers and pkg-config file) and zlib (headers; macOS has
# them in its SDK), for compressed word lists.
deps:
	@if pkg-config --exists libzstd 2>/dev/null; then \
	  echo "deps: libzstd $$(pkg-config --modversion libzstd) found"; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "deps: installing libzstd-dev and pkg-config with apt-get"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq libzstd-dev pkg-config >/dev/null; \
	elif command -v brew >/dev/null 2>&1; then \
	  echo "deps: installing zstd and pkg-config with brew"; \
	  brew install zstd pkg-config; \
	else \
	  echo "deps: libzstd is missing; install libzstd-dev (Debian/Ubuntu) or zstd (Homebrew)" >&2; \
	  exit 1; \
	fi
	@if [ "$$(uname)" = Darwin ] || pkg-config --exists zlib 2>/dev/null; then \
	  echo "deps: zlib $$(pkg-config --modversion zlib 2>/dev/null || echo '(macOS SDK)') found"; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "deps: installing zlib1g-dev with apt-get"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq zlib1g-dev >/dev/null; \
	else \
	  echo "deps: zlib is missing; install zlib1g-dev (Debian/Ubuntu)" >&2; \
	  exit 1; \
	fi

release: deps
	$(SWIFT) build -c release --product swipedict

dictionaries: release $(DICTIONARIES)

$(BUILD_DIR)/%.swipedict: corpora/%.tsv.zst FORCE
	@mkdir -p $(BUILD_DIR)
	@$(RELEASE_BIN) build $< --layout $(layout_$*) -o $@

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: release
	bench/run.sh

# Builds its own swipedict (--scratch-path .build-bench, or SWIFT_SCRATCH).
bench-decoder: deps
	bench/decoder.sh

tsan: deps
	SWIPEDICT_CONCURRENCY_SECONDS=10 $(SWIFT) test --sanitize=thread --scratch-path .build-tsan \
	  --filter "ConcurrencyTests|sharedBetweenThreads"

# Leak detection is off: XCTest's runner leaks 144 bytes at exit (its suite objects), which
# LeakSanitizer would report as a failure of a run whose Swift Testing tests all passed.
asan: deps
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build-asan \
	  --filter "LifetimeTests|OutOfRangeIDTests|HostileBytesTests|CorruptBlobTests|SwipeFilterTests|IDBitmapTests|ExplanationTests"

FUZZ_SECONDS ?= 600
fuzz:
	cd Fuzz && $(SWIFT) build -c release
	@mkdir -p Fuzz/.corpus && cp Fuzz/Corpus/* Fuzz/.corpus/
	cd Fuzz && .build/release/SwipeDictFuzz .corpus -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=5 -rss_limit_mb=2048 -print_final_stats=1

clean:
	rm -rf $(BUILD_DIR) .build .build-tsan .build-asan Fuzz/.build Fuzz/.corpus

FORCE:
