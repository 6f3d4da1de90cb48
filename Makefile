# SwipeDict — key targets in this makefile:
#
#   make             install what is missing (libzstd-dev, zlib1g-dev), build swipedict in release mode,
#                    compile the default dictionaries into build/ and print their summary
#                    (words, bytes, bytes per word of each section)
#   make test        run the whole test suite (Swift Testing), after check-apple
#   make capi        the C API: build/lib/libswipedict.so (.dylib on macOS, release, the Swift runtime
#                    linked in on Linux) and build/include/swipedict.h, and build/en.swipedict when
#                    missing (docs/c-api.md; make test runs its C and Python tests, Tests/CAPI/run.sh)
#   make python      a wheel of the Python package with the library in it, in build/python/
#                    (bindings/python; checked by installing it into a temporary directory)
#   make lint        swift-format over every Swift file (.swift-format): fails on any difference
#                    (CI runs it); `make format` rewrites the files
#   make check-apple no Swift API above the Apple floors Package.swift declares, in any target
#                    (Linux builds check no availability; scripts/check_apple_availability.py)
#   make bench       compare SwipeDict with marisa-trie, dawgdic and fst on the same word
#                    lists (bench/run.sh; QUICK=1 for the en list only)
#   make bench-capi  the cost of the C API's boundary: lookups, completion and decoding through the
#                    Swift API, the C API and the Python package, on the same queries, 3 rounds
#                    (bench/capi/run.sh; PASSES=N, ROUNDS=N)
#   make bench-build the en build of swipedict, fst, marisa and dawgdic in turn, 21 rounds:
#                    medians and ratios (bench/build-rounds.py; after make bench, QUICK=1 is
#                    enough; LIST=de, ROUNDS=N)
#   make bench-decoder  the reference decoder's accuracy, latency and memory on real swipes
#                    (../shared/swipes/hws-dev.jsonl, when present) and synthetic ones
#                    (en-10k, en-100k, en, en-900k, multi-2m; bench/decoder.sh; QUICK=1 for
#                    the two small vocabularies, the real swipes and 300 swipes per set)
#   make bench-bilingual  en and de swiped on qwerty-en: each language's blob alone against
#                    a bilingual session over both (bench/bilingual.sh)
#   make bench-serve the playground server under load: 20 sessions streaming swipe points at
#                    120 Hz on the whole en list; per-point latency, lift to top 4 (bench/serve.sh)
#   make bench-serve-heads  the server against huge and stalled request heads while a client
#                    keeps asking; answers and that client's latency (bench/serve-heads.sh)
#   make bench-context  ranking by the previous word: Debian fortunes sentences swiped with the
#                    human swipe model, decoded without and with context; next-word predictions,
#                    keystrokes saved (bench/context.sh; needs make bigrams, which it runs)
#   make fuzz        libFuzzer + AddressSanitizer over open and every query, in Swift and through
#                    the C API's entry points (Linux;
#                    FUZZ_SECONDS=600 by default); inputs that crash go to Fuzz/Corpus,
#                    which `make test` replays
#   make user-stress the user dictionary's crash test: 100,000 random operations in a writer
#                    process killed with SIGKILL every 1-5 ms and restarted, while a reader
#                    process checks every state it sees (`swipedict-bench user FILE stress`)
#   make bench-tools only build swipedict-bench (the benchmarks', load and stress tool)
#   make bench-user  the user dictionary's log against SQLite (WAL, C API; needs libsqlite3-dev):
#                    open, write, refresh, size, kill test (bench/user-store/run.sh)
#   make bench-user-words  the user's words in the queries: a word learned three times decoded as
#                    a dictionary word of equal frequency; completion, correction and the decoder's
#                    wait with 20,000 entries (bench/user-words.sh)
#   make tsan        the concurrency tests under ThreadSanitizer (10 s soak of the loader,
#                    and the decoder and the multilingual decoder shared by four tasks), and the
#                    C API's test (a dictionary closed and its user words swapped under threads)
#   make asan        the lifetime, hostile-bytes, corrupt-blob, MARK, BIGR, typing-corrector, context and user-dictionary tests under AddressSanitizer
#                    (views used after their dictionary is gone, damaged blobs), and the C API's
#                    test (Tests/CAPI/capi_test.c) against the library built with it
#   make dictionaries  only (re)compile build/*.swipedict
#   make LANGS="en de fr es it pt nl pl sv ru"
#                    the dictionaries of these languages (corpora/languages.tsv names each one's
#                    layout), each after its lexicon report (kept, dropped by reason, marked):
#                    en and de from corpora/, the others from wordfreq `large` lists made into
#                    build/corpora/<lang>.tsv.zst by the lexicon pipeline, corpora/make_corpora.py,
#                    in a virtualenv (build/venv, corpora/requirements.txt from PyPI), with the
#                    Debian hunspell dictionaries and word lists that vouch for words (installed
#                    if missing)
#   make all-languages  the same for every language with a wordfreq `large` list and a layout
#   make corpora     the word lists of LANGS made anew (no layout needed): the committed en and de
#                    into corpora/, byte for byte, the others into build/corpora/
#   make pairs       the English word pairs corpora/en-pairs.tsv.zst (committed; the default en
#                    dictionary is built with them), counted from Jane Austen's novels and WordNet's
#                    examples (Debian packages), made anew byte for byte
#   make bigrams     symspellpy's English bigram list build/corpora/en-bigrams.tsv.zst (Web 1T
#                    counts, not shippable: for build --bigrams and make bench-context)
#   make aosp        build every AOSP list in ../shared/wordlists/aosp (AOSP_DIR=…) as it ships,
#                    with its locale's layout, into build/aosp/ and print one table (bench/aosp.py)
#   make test-browser  the playground end to end: `swipedict serve build/en.swipedict` driven by
#                    a real headless Chromium (Debian's chromium, installed if missing; playwright
#                    from Tests/Browser/requirements.txt in build/browser-venv): swipes "hello",
#                    checks the top 4 and prints the lift-to-top-4 time (Tests/Browser/;
#                    UPDATE_SCREENSHOT=1 also writes docs/playground.png)
#   make deps        only install missing system packages
#   make clean       remove build/ and .build/
#
# Dictionaries: build/<lang>.swipedict from its word list and layout, as corpora/languages.tsv
# says: corpora/<lang>.tsv.zst (committed: en, de) or build/corpora/<lang>.tsv.zst (generated).

SWIFT        ?= swift
PYTHON       ?= python3
BUILD_DIR    := build
# The release swipedict. On Linux it links the Swift runtime and Foundation statically
# (--static-swift-stdlib), so that it needs no Swift libraries to run (ldd: libc, libstdc++,
# libm, libgcc_s, libz, libzstd) and maps far fewer pages: its en build peaks at 32 MB
# instead of 40 (docs/cli.md, "The binary"). It is linked by lld (gold warns about
# the static Foundation's use of mktemp) with packed relative relocations where glibc reads
# them (2.36 and later): 1.9 MB of relocation table in 34 KB, touched by every start.
# A toolchain without the static libraries, or without lld, builds as before.
# SWIFT_SCRATCH=DIR builds it in DIR instead of .build (the benchmarks use .build-bench).
SWIFT_BIN_DIR := $(dir $(realpath $(shell command -v $(SWIFT) 2>/dev/null)))
SWIFT_STATIC  := $(wildcard $(SWIFT_BIN_DIR)../lib/swift_static/linux/libswiftCore.a)
SWIFT_LLD     := $(or $(wildcard $(SWIFT_BIN_DIR)ld.lld),$(shell command -v ld.lld 2>/dev/null))
GLIBC_RELR    := $(shell getconf GNU_LIBC_VERSION 2>/dev/null | \
  awk '{split($$2, v, "."); if (v[1] > 2 || (v[1] == 2 && v[2] >= 36)) print "yes"}')
ifeq ($(shell uname -s),Linux)
RELEASE_FLAGS ?= $(if $(SWIFT_STATIC),--static-swift-stdlib \
  $(if $(SWIFT_LLD),-Xswiftc -use-ld=lld $(if $(GLIBC_RELR),-Xlinker -z -Xlinker pack-relative-relocs)))
endif
SCRATCH_FLAG  = $(if $(SWIFT_SCRATCH),--scratch-path $(SWIFT_SCRATCH))
RELEASE_BIN   = $(shell $(SWIFT) build -c release $(SCRATCH_FLAG) --show-bin-path)/swipedict
# The benchmark, load and stress tool (`make bench-tools`; the bench* targets build it).
BENCH_BIN     = $(shell $(SWIFT) build -c release $(SCRATCH_FLAG) --show-bin-path)/swipedict-bench
LANGS        ?= en de
LANGUAGE_TABLE := corpora/languages.tsv
VENV         := $(BUILD_DIR)/venv
BROWSER_VENV := $(BUILD_DIR)/browser-venv
CHROMIUM     ?= $(shell command -v chromium 2>/dev/null || echo /usr/bin/chromium)
AOSP_DIR     ?= ../shared/wordlists/aosp

HASH  := \#
comma := ,
# $(call language,LANG,COLUMN): one field of corpora/languages.tsv (empty if LANG is not there).
language = $(shell awk -F'\t' -v l='$(1)' -v c='$(2)' '/^$(HASH)/ {next} \
  !h {h = 1; for (i = 1; i <= NF; i++) if ($$i == c) k = i; next} $$1 == l && k {print $$k}' \
  $(LANGUAGE_TABLE))
# Every language with a wordfreq `large` list (committed or generated) and a layout.
ALL_LANGUAGES = $(shell awk -F'\t' '/^$(HASH)/ {next} \
  !h {h = 1; for (i = 1; i <= NF; i++) {if ($$i == "wordfreq") w = i; if ($$i == "layout") y = i}; next} \
  $$w != "-" && $$y != "-" {printf "%s ", $$1}' $(LANGUAGE_TABLE))
corpus = $(if $(filter committed,$(call language,$(1),wordfreq)),corpora,$(BUILD_DIR)/corpora)/$(1).tsv.zst
layout = corpora/layouts/$(call language,$(1),layout).json

DICTIONARIES = $(foreach l,$(LANGS),$(BUILD_DIR)/$(l).swipedict)

.PHONY: all deps release capi python dictionaries corpora pairs bigrams all-languages aosp check-languages check-layouts \
  test lint format check-apple bench-tools test-browser browser-deps bench bench-capi bench-build bench-decoder bench-bilingual bench-context bench-serve bench-serve-heads user-stress bench-user bench-user-words fuzz tsan asan \
  clean

all: check-languages check-layouts deps release dictionaries

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
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(SCRATCH_FLAG) --product swipedict

# swipedict-bench, beside swipedict: what the benchmarks and stress tests run.
bench-tools: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(SCRATCH_FLAG) --product swipedict-bench

dictionaries: check-languages check-layouts release $(DICTIONARIES)

# The C API (include/swipedict.h, docs/c-api.md) as one shared library, with the release
# build's flags (so that the modules swipedict uses are not compiled again). On Linux it
# carries the Swift runtime (Package.swift), so that it needs only libc, libm and libstdc++;
# a version script exports the swipedict_ functions alone (no Swift runtime symbol to clash
# with another Swift library in the same process), and its symbol table and debug
# information are left out (14 MB instead of 26). The Python package finds it in build/lib;
# build/en.swipedict is made when missing, for the examples.
CAPI_DYLIB   := $(if $(filter Darwin,$(shell uname -s)),dylib,so)
CAPI_FLAGS   ?= $(RELEASE_FLAGS) $(if $(filter Linux,$(shell uname -s)),-Xlinker \
  --version-script=$(CURDIR)/Sources/CSwipeDict/exports.map -Xlinker -soname=libswipedict.so \
  -Xlinker --strip-all)
capi: deps
	$(SWIFT) build -c release $(CAPI_FLAGS) $(SCRATCH_FLAG) --product SwipeDictC
	@mkdir -p $(BUILD_DIR)/lib $(BUILD_DIR)/include
	cp $(shell $(SWIFT) build -c release $(SCRATCH_FLAG) --show-bin-path)/libSwipeDictC.$(CAPI_DYLIB) \
	  $(BUILD_DIR)/lib/libswipedict.$(CAPI_DYLIB)
	@if [ "$(CAPI_DYLIB)" = dylib ]; then \
	  install_name_tool -id @rpath/libswipedict.dylib $(BUILD_DIR)/lib/libswipedict.dylib; fi
	cp include/swipedict.h $(BUILD_DIR)/include/swipedict.h
	@[ -f $(BUILD_DIR)/en.swipedict ] || $(MAKE) --no-print-directory dictionaries LANGS=en
	@echo "capi: $(BUILD_DIR)/lib/libswipedict.$(CAPI_DYLIB), $(BUILD_DIR)/include/swipedict.h"

# The Python package as a wheel with the library inside (bindings/python/build_wheel.py: the
# standard library's zipfile, no build backend to download), installed into a temporary
# directory and imported there as a check.
python: capi
	$(PYTHON) bindings/python/build_wheel.py --library $(BUILD_DIR)/lib/libswipedict.$(CAPI_DYLIB) \
	  --out $(BUILD_DIR)/python --check $(BUILD_DIR)/en.swipedict

.SECONDEXPANSION:
$(BUILD_DIR)/%.swipedict: $$(call corpus,$$*) FORCE
	@mkdir -p $(BUILD_DIR)
	@report=$(dir $<)$*.lexicon.txt; if [ -f $$report ]; then cat $$report; fi
	@$(RELEASE_BIN) build $< $(if $(wildcard corpora/$*-pairs.tsv.zst),--bigrams corpora/$*-pairs.tsv.zst) \
	  --layout $(call layout,$*) -o $@

all-languages:
	@$(MAKE) --no-print-directory all LANGS="$(ALL_LANGUAGES)"

# Each language of LANGS is in corpora/languages.tsv and has a wordfreq `large` list ...
check-languages:
	@status=0; $(foreach l,$(LANGS),\
	if [ -z "$(call language,$(l),lang)" ]; then \
	  echo "error: $(l) is not a language of $(LANGUAGE_TABLE)" >&2; status=1; \
	elif [ "$(call language,$(l),wordfreq)" = - ]; then \
	  echo "error: $(l): wordfreq has no 'large' list for $(call language,$(l),name) ($(LANGUAGE_TABLE))" >&2; status=1; \
	fi;) exit $$status

# ... and its layout file is there.
check-layouts: check-languages
	@status=0; $(foreach l,$(LANGS),\
	if [ ! -f "$(call layout,$(l))" ]; then \
	  echo "error: $(l): its layout $(call layout,$(l)) ($(LANGUAGE_TABLE)) is missing" >&2; status=1; \
	fi;) exit $$status

# The Debian packages of the spelling sources of languages $(1) (hunspell dictionaries, word
# lists: corpora/make_corpora.py --packages), installed with apt-get when missing.
define install_spelling
	@missing=; for p in $$($(PYTHON) corpora/make_corpora.py --packages $(1)); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "corpora: installing$$missing (the spelling sources of $(1)) with apt-get"; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	else \
	  echo "corpora: $(1): the Debian packages$$missing are missing (spelling sources)" >&2; \
	  exit 1; \
	fi
endef
LEXICON_SOURCES := corpora/make_corpora.py corpora/sources.py corpora/affixes.py $(LANGUAGE_TABLE)

# `make corpora`: the word lists of LANGS made anew by the lexicon pipeline, the committed ones
# (en, de) into corpora/ (the same bytes: git diff shows nothing), the others into build/corpora/.
corpora: check-languages $(VENV)/.installed
	$(call install_spelling,$(LANGS))
	@mkdir -p $(BUILD_DIR)/corpora
	$(VENV)/bin/python corpora/make_corpora.py $(LANGS)

# A word list generated on demand (not committed): the spelling sources of its language
# (installed if missing), then corpora/make_corpora.py in the virtualenv. Kept after the build
# (not an intermediate file to delete).
.PRECIOUS: $(BUILD_DIR)/corpora/%.tsv.zst
$(BUILD_DIR)/corpora/%.tsv.zst: $(LEXICON_SOURCES) $(VENV)/.installed
	$(call install_spelling,$*)
	@mkdir -p $(BUILD_DIR)/corpora
	$(VENV)/bin/python corpora/make_corpora.py $* --outdir $(BUILD_DIR)/corpora

# The virtualenv of corpora/make_corpora.py: the pinned corpora/requirements.txt from PyPI, made
# anew when it changes (python3-venv installed with apt-get if venv is missing).
$(VENV)/.installed: corpora/requirements.txt
	@rm -rf $(VENV)
	@if ! $(PYTHON) -m venv $(VENV) >/dev/null 2>&1; then \
	  rm -rf $(VENV); \
	  if command -v apt-get >/dev/null 2>&1; then \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    echo "corpora: installing python3-venv with apt-get"; \
	    $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq python3-venv >/dev/null; \
	  fi; \
	  $(PYTHON) -m venv $(VENV); \
	fi
	@echo "corpora: installing corpora/requirements.txt into $(VENV) with pip"
	@$(VENV)/bin/pip install --disable-pip-version-check -q -r corpora/requirements.txt
	@touch $@

# The English word pairs the default en dictionary ships (committed; corpora/README.md, "Word
# pairs"), counted from openly licensed text in Debian packages: made anew, byte for byte.
pairs: $(VENV)/.installed
	$(VENV)/bin/python corpora/make_pairs.py

# The English bigram list from symspellpy (not committed, see corpora/README.md), for
# swipedict build --bigrams and make bench-context.
bigrams: $(BUILD_DIR)/corpora/en-bigrams.tsv.zst

$(BUILD_DIR)/corpora/en-bigrams.tsv.zst: corpora/make_bigrams.py corpora/en.tsv.zst $(VENV)/.installed
	@mkdir -p $(BUILD_DIR)/corpora
	$(VENV)/bin/python corpora/make_bigrams.py --out $@

aosp: release
	@$(PYTHON) bench/aosp.py --lists $(AOSP_DIR) --out $(BUILD_DIR)/aosp --swipedict $(RELEASE_BIN)

test: deps
	$(SWIFT) build --build-tests
	@$(MAKE) --no-print-directory check-apple
	$(SWIFT) test --skip-build
	$(SWIFT) build --product SwipeDictC
	Tests/CAPI/run.sh $$($(SWIFT) build --show-bin-path)

# No API above the Apple floors of Package.swift (Linux checks no availability): the checker on
# a probe that must fail, then on every target (scripts/check_apple_availability.py; docs/apple.md).
# The toolchain's swift-format with .swift-format, over every Swift file of the repository (the
# fuzzer's other source folders are links to Sources/).
FORMAT_PATHS = Package.swift Sources Tests Fuzz/Package.swift Fuzz/Sources/SwipeDictFuzz bench/capi/swift bench/swipe-json
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)
	@echo "lint: every Swift file is formatted (.swift-format)"

format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

check-apple:
	$(PYTHON) scripts/check_apple_availability.py --self-test
	$(PYTHON) scripts/check_apple_availability.py

# The playground in a real browser (Tests/Browser/playground_test.py): builds swipedict and the
# en blob, starts `swipedict serve` on a free loopback port, swipes "hello" in headless Chromium.
test-browser: release browser-deps $(BUILD_DIR)/en.swipedict
	$(BROWSER_VENV)/bin/python Tests/Browser/playground_test.py --swipedict $(RELEASE_BIN) \
	  --blob $(BUILD_DIR)/en.swipedict --chromium $(CHROMIUM)

# Debian's chromium (no driver needed: playwright speaks its DevTools protocol) and the venv.
browser-deps: $(BROWSER_VENV)/.installed
	@if command -v chromium >/dev/null 2>&1 || [ -x "$(CHROMIUM)" ]; then \
	  echo "browser-deps: $$(chromium --version 2>/dev/null || echo $(CHROMIUM)) found"; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "browser-deps: installing chromium with apt-get"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	else \
	  echo "browser-deps: chromium is missing; install it (Debian: apt-get install chromium) or set CHROMIUM=PATH" >&2; \
	  exit 1; \
	fi

$(BROWSER_VENV)/.installed: Tests/Browser/requirements.txt
	@rm -rf $(BROWSER_VENV)
	@if ! $(PYTHON) -m venv $(BROWSER_VENV) >/dev/null 2>&1; then \
	  rm -rf $(BROWSER_VENV); \
	  if command -v apt-get >/dev/null 2>&1; then \
	    SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	    echo "browser-deps: installing python3-venv with apt-get"; \
	    $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq python3-venv >/dev/null; \
	  fi; \
	  $(PYTHON) -m venv $(BROWSER_VENV); \
	fi
	@echo "browser-deps: installing Tests/Browser/requirements.txt into $(BROWSER_VENV) with pip"
	@$(BROWSER_VENV)/bin/pip install --disable-pip-version-check -q -r Tests/Browser/requirements.txt
	@touch $@

bench: release
	bench/run.sh

# The C API against the Swift API on the same queries (bench/capi/run.sh; bench/README.md).
bench-capi: capi
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(SCRATCH_FLAG) --product capi-bench-swift
	bench/capi/run.sh $(shell $(SWIFT) build -c release $(SCRATCH_FLAG) --show-bin-path)

bench-build:
	@$(MAKE) --no-print-directory release SWIFT_SCRATCH=.build-bench
	$(PYTHON) bench/build-rounds.py --peers --list $(or $(LIST),en) --rounds $(or $(ROUNDS),21)

# Builds its own swipedict (--scratch-path .build-bench, or SWIFT_SCRATCH).
bench-decoder: deps
	bench/decoder.sh

# English and German swiped on one layout: each blob alone and the bilingual session.
bench-bilingual: deps
	bench/bilingual.sh

# The playground server under load (docs/serve.md).
bench-serve: deps
	bench/serve.sh

# Huge and stalled request heads against the server (docs/serve.md, "Request and connection limits").
bench-serve-heads: deps
	bench/serve-heads.sh

# The previous word: sentences decoded with and without it (docs/context.md).
bench-context: deps
	bench/context.sh

USER_STRESS_OPS ?= 100000
user-stress: bench-tools
	@mkdir -p $(BUILD_DIR)
	@rm -f $(BUILD_DIR)/user-stress.words
	$(BENCH_BIN) user $(BUILD_DIR)/user-stress.words stress --ops $(USER_STRESS_OPS)

bench-user: bench-tools
	bench/user-store/run.sh $(BENCH_BIN)

# The user's words in the queries: learned words decoded, and the cost of 20,000 entries.
bench-user-words: deps
	bench/user-words.sh

tsan: deps
	SWIPEDICT_CONCURRENCY_SECONDS=10 $(SWIFT) test --sanitize=thread --scratch-path .build-tsan \
	  --filter "ConcurrencyTests|[sS]haredBetweenThreads"
	$(SWIFT) build --sanitize=thread --scratch-path .build-tsan --product SwipeDictC
	$(SWIFT) build --sanitize=thread --scratch-path .build-tsan --product swipedict
	Tests/CAPI/run.sh .build-tsan/debug --tsan

# Leak detection is off: XCTest's runner leaks 144 bytes at exit (its suite objects), which
# LeakSanitizer would report as a failure of a run whose Swift Testing tests all passed.
asan: deps
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build-asan \
	  --filter "LifetimeTests|OutOfRangeIDTests|HostileBytesTests|CorruptBlobTests|SwipeFilterTests|IDBitmapTests|ExplanationTests|MarkTests|TypingCorrectionTests|BigramTests|ContextTests|UserLayerTests|UserDictionaryTests"
	$(SWIFT) build --sanitize=address --scratch-path .build-asan --product SwipeDictC
	$(SWIFT) build --sanitize=address --scratch-path .build-asan --product swipedict
	Tests/CAPI/run.sh .build-asan/debug --asan

FUZZ_SECONDS ?= 600
fuzz:
	cd Fuzz && $(SWIFT) build -c release
	@mkdir -p Fuzz/.corpus && cp Fuzz/Corpus/* Fuzz/.corpus/
	cd Fuzz && .build/release/SwipeDictFuzz .corpus -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=5 -rss_limit_mb=2048 -print_final_stats=1

clean:
	rm -rf $(BUILD_DIR) .build .build-tsan .build-asan Fuzz/.build Fuzz/.corpus

FORCE:
