#!/usr/bin/env bash
# The C API's tests, as `make test` and `make asan` run them:
#
#   Tests/CAPI/run.sh BIN_DIR [--asan | --tsan]
#
# BIN_DIR is a SwiftPM build directory holding libSwipeDictC.so (or .dylib) and swipedict
# (.build/debug for make test). The script
#   1. builds a test blob, the 20,000 most frequent words of corpora/en.tsv.zst on qwerty-en;
#   2. checks that the library exports exactly the functions the header declares (nm) and
#      that the header compiles as C++; compiles Tests/CAPI/capi_test.c and
#      examples/c/decode.c with -Wall -Wextra -Werror -pedantic against include/swipedict.h,
#      the example also as docs/c-api.md builds it after make capi (-lswipedict); runs the
#      test (every function; NULLs, released and forged handles, bad indices, damaged blobs,
#      threads, the fuzzer's corpus);
#   3. checks that the example, run as docs/c-api.md runs it, prints the same top 4 as
#      `swipedict decode` on 100 synthetic swipes and, when ../shared is there, on the 721
#      real dev swipes;
#   4. compiles examples/android's JNI glue when a JDK's jni.h is found (it is not run);
#   5. runs the Python package's tests (bindings/python/tests) with pytest, which also
#      compare its decoder with `swipedict decode`; skipped, saying so, without python3 or
#      pytest.
# With --asan or --tsan, only the C test, compiled with AddressSanitizer or ThreadSanitizer
# (the toolchain's clang, as the library was built with -sanitize=address or =thread).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN_DIR=${1:?usage: Tests/CAPI/run.sh BIN_DIR [--asan | --tsan]}
ASAN=${2:-}
PYTHON=${PYTHON:-python3}
WORK="$BIN_DIR/capi-test"
rm -rf "$WORK"
mkdir -p "$WORK/tmp"

LIB_NAME=SwipeDictC
case "$(uname -s)" in Darwin) LIB_FILE=lib$LIB_NAME.dylib ;; *) LIB_FILE=lib$LIB_NAME.so ;; esac
[ -f "$BIN_DIR/$LIB_FILE" ] || { echo "capi: $BIN_DIR/$LIB_FILE is missing (swift build --product SwipeDictC)" >&2; exit 1; }
CFLAGS=(-std=c11 -Wall -Wextra -Werror -pedantic -Iinclude)
LINK=(-L"$BIN_DIR" -l$LIB_NAME -lpthread -lm -Wl,-rpath,"$(cd "$BIN_DIR" && pwd)")

BLOB="$WORK/en-20k.swipedict"
"$BIN_DIR/swipedict" build corpora/en.tsv.zst --layout corpora/layouts/qwerty-en.json --max-words 20000 \
  -o "$BLOB" >/dev/null

if [ "$ASAN" = --asan ] || [ "$ASAN" = --tsan ]; then
  CC_SAN=${CC_SAN:-$(dirname "$(realpath "$(command -v swift)")")/clang}
  SANITIZER=address NAME=AddressSanitizer EXTRA=()
  if [ "$ASAN" = --tsan ]; then
    # The toolchain's ThreadSanitizer runtime intercepts libdispatch, which it then needs.
    SWIFT_LIB=$(dirname "$CC_SAN")/../lib/swift/linux
    SANITIZER=thread NAME=ThreadSanitizer EXTRA=(-L"$SWIFT_LIB" -ldispatch -lBlocksRuntime -Wl,-rpath,"$SWIFT_LIB")
  fi
  "$CC_SAN" "${CFLAGS[@]}" -g -fsanitize=$SANITIZER -fno-omit-frame-pointer -fuse-ld=lld Tests/CAPI/capi_test.c \
    "${LINK[@]}" "${EXTRA[@]}" -o "$WORK/capi_test"
  echo "capi: Tests/CAPI/capi_test.c under $NAME"
  ASAN_OPTIONS=detect_leaks=0 TSAN_OPTIONS=halt_on_error=1 "$WORK/capi_test" "$BLOB" "$WORK/tmp" Fuzz/Corpus
  exit
fi

# Every function the header declares is exported by the library, and no other swipedict_ one.
if command -v nm >/dev/null 2>&1 && [ "$(uname -s)" = Linux ]; then
  sed -n 's/^\(int\|const char \*\)[[:space:]]*\(swipedict_[a-z_]*\)(.*/\2/p' include/swipedict.h | sort >"$WORK/declared.txt"
  nm -D --defined-only "$BIN_DIR/$LIB_FILE" | awk '$3 ~ /^swipedict_/ {print $3}' | sort >"$WORK/exported.txt"
  if ! cmp -s "$WORK/declared.txt" "$WORK/exported.txt"; then
    echo "capi: include/swipedict.h and $LIB_FILE disagree (< declared only, > exported only):" >&2
    diff "$WORK/declared.txt" "$WORK/exported.txt" >&2
    exit 1
  fi
  echo "capi: the $(wc -l <"$WORK/declared.txt") functions of include/swipedict.h are the library's swipedict_ exports"
fi

CC=${CC:-cc}
"$CC" "${CFLAGS[@]}" Tests/CAPI/capi_test.c "${LINK[@]}" -o "$WORK/capi_test"
# The example as docs/c-api.md builds it after make capi (cc examples/c/decode.c -Ibuild/include
# -Lbuild/lib -lswipedict), here over this library laid out as make capi lays it out.
mkdir -p "$WORK/build/lib" "$WORK/build/include"
cp include/swipedict.h "$WORK/build/include/"
ln -sf "$(cd "$BIN_DIR" && pwd)/$LIB_FILE" "$WORK/build/lib/libswipedict.${LIB_FILE##*.}"
"$CC" examples/c/decode.c -I"$WORK/build/include" -L"$WORK/build/lib" -lswipedict -o "$WORK/decode"
"$CC" "${CFLAGS[@]}" -fsyntax-only examples/c/decode.c
# The header is C++ too.
if command -v "${CXX:-c++}" >/dev/null 2>&1; then
  printf '#include "swipedict.h"\nint main() { swipedict_suggestion s{}; return swipedict_abi_version() + int(s.length); }\n' \
    >"$WORK/header.cc"
  "${CXX:-c++}" -std=c++17 -Wall -Wextra -Werror -pedantic -Iinclude -fsyntax-only "$WORK/header.cc"
fi
echo "capi: Tests/CAPI/capi_test.c"
"$WORK/capi_test" "$BLOB" "$WORK/tmp" Fuzz/Corpus

# decode.c against `swipedict decode`: the same words, in the same order, for every swipe.
same_as_cli() {
  local swipes=$1 name=$2
  LD_LIBRARY_PATH="$WORK/build/lib" "$WORK/decode" "$BLOB" "$swipes" | grep -v '^[0-9]* swipes: ' | cut -f1,2 >"$WORK/$name.c.txt"
  "$BIN_DIR/swipedict" decode "$BLOB" --swipes "$swipes" >"$WORK/$name.cli.out"
  head -n "$(wc -l <"$swipes")" "$WORK/$name.cli.out" | cut -f1,2 >"$WORK/$name.cli.txt"
  if ! cmp -s "$WORK/$name.c.txt" "$WORK/$name.cli.txt"; then
    echo "capi: examples/c/decode.c and swipedict decode differ on $swipes:" >&2
    diff "$WORK/$name.c.txt" "$WORK/$name.cli.txt" | head -20 >&2
    exit 1
  fi
  echo "capi: examples/c/decode.c prints the top 4 of swipedict decode on $(wc -l <"$swipes") swipes ($swipes)"
}
"$BIN_DIR/swipedict" synth "$BLOB" --sample 100 --seed 37 --model corpora/swipe-models/hws-dev.json \
  -o "$WORK/synth.jsonl" >/dev/null
same_as_cli "$WORK/synth.jsonl" synth
DEV=../shared/swipes/hws-dev.jsonl
if [ -f "$DEV" ]; then
  same_as_cli "$DEV" dev
else
  echo "capi: $DEV is absent (the real swipes are not in the repository): decode.c checked on synthetic swipes only"
fi

# The JNI glue compiles against a real jni.h (it is not run: no Android here).
JNI_H=$(ls /usr/lib/jvm/*/include/jni.h 2>/dev/null | head -1 || true)
if [ -n "$JNI_H" ]; then
  JNI_DIR=$(dirname "$JNI_H")
  "$CC" "${CFLAGS[@]}" -I"$JNI_DIR" -I"$JNI_DIR/linux" -fsyntax-only examples/android/swipedict_jni.c
  echo "capi: examples/android/swipedict_jni.c compiles against $JNI_H"
else
  echo "capi: no JDK jni.h found: examples/android/swipedict_jni.c not compiled"
fi

# The Python package over this library.
if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "capi: SKIPPED the Python package's tests: $PYTHON is not installed"
elif ! "$PYTHON" -c 'import pytest' 2>/dev/null; then
  echo "capi: SKIPPED the Python package's tests: pytest is not installed ($PYTHON -m pip install pytest)"
else
  echo "capi: bindings/python/tests"
  SWIPEDICT_LIBRARY="$BIN_DIR/$LIB_FILE" SWIPEDICT_TEST_BLOB="$BLOB" SWIPEDICT_TEST_SWIPEDICT="$BIN_DIR/swipedict" \
    SWIPEDICT_TEST_DEV_SWIPES="$DEV" SWIPEDICT_TEST_DEV_CLI_LINES="$WORK/dev.cli.txt" PYTHONPATH=bindings/python "$PYTHON" -m pytest -q -p no:cacheprovider \
    bindings/python/tests
fi
