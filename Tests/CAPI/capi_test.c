/*
 * The C API's test: every function of swipedict.h through the shared library, as a C
 * program sees it, compiled with -Wall -Wextra -Werror -pedantic against the header
 * (Tests/CAPI/run.sh; `make test`, and under AddressSanitizer `make asan`).
 *
 *     capi_test BLOB TMPDIR [CORPUS]
 *
 * BLOB is an English blob on qwerty-en with "hello", "world", "help" among its words (the
 * first 20,000 words of corpora/en.tsv.zst); TMPDIR an empty directory for user stores. It
 * checks answers, then that no NULL, stale handle, bad index or damaged blob crashes a call;
 * CORPUS (Fuzz/Corpus) is the fuzzer's regression corpus, replayed through the C API.
 * It ends with "N passed, N failed" and exits 1 on a failure.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swipedict.h"

static int passed, failed;

#define CHECK(condition)                                                                      \
  do {                                                                                        \
    if (condition) {                                                                          \
      passed++;                                                                               \
    } else {                                                                                  \
      failed++;                                                                               \
      fprintf(stderr, "%s:%d: failed: %s (last message: %s)\n", __FILE__, __LINE__, #condition, \
              swipedict_errmsg());                                                            \
    }                                                                                         \
  } while (0)

#define CHECK_STATUS(call, expected) CHECK((call) == (expected))

static const char *blob_path;
static const char *tmpdir;

static unsigned char *read_file(const char *path, size_t *length) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
  if (bytes && fread(bytes, 1, (size_t)size, file) != (size_t)size) {
    free(bytes);
    bytes = NULL;
  }
  fclose(file);
  *length = (size_t)size;
  return bytes;
}

static int contains_word(const swipedict_suggestion *s, size_t n, const char *word) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(s[i].word, word) == 0) return 1;
  return 0;
}

/* ---- Versions and messages ----------------------------------------------------------------- */

static void test_versions(void) {
  CHECK(swipedict_abi_version() == SWIPEDICT_ABI_VERSION);
  CHECK(strstr(swipedict_version(), "ABI 1") != NULL);
  CHECK(strcmp(swipedict_errstr(SWIPEDICT_OK), "success") == 0);
  CHECK(strcmp(swipedict_errstr(12345), "unknown status") == 0);
  CHECK(strlen(swipedict_errstr(SWIPEDICT_E_HANDLE)) > 0);
}

/* ---- Opening ----------------------------------------------------------------------------- */

static void test_open_errors(void) {
  swipedict_dictionary *dict = (swipedict_dictionary *)1;
  CHECK_STATUS(swipedict_open("/nonexistent/x.swipedict", 0, &dict), SWIPEDICT_E_IO);
  CHECK(dict == NULL);
  CHECK(strstr(swipedict_errmsg(), "/nonexistent/x.swipedict") != NULL);
  CHECK_STATUS(swipedict_open(NULL, 0, &dict), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_open(blob_path, 0, NULL), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_open(blob_path, 0x80, &dict), SWIPEDICT_E_ARGUMENT);
  CHECK_STATUS(swipedict_open("\xff\xfe", 0, &dict), SWIPEDICT_E_ARGUMENT);
  CHECK(strstr(swipedict_errmsg(), "UTF-8") != NULL);

  const char garbage[] = "this is not a blob at all, not even close";
  CHECK_STATUS(swipedict_open_bytes(garbage, sizeof garbage, 0, &dict), SWIPEDICT_E_FORMAT);
  CHECK(dict == NULL);
  CHECK_STATUS(swipedict_open_bytes(NULL, 0, 0, &dict), SWIPEDICT_E_FORMAT);
  CHECK_STATUS(swipedict_open_bytes(NULL, 10, 0, &dict), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_open_bytes(garbage, (size_t)-1, 0, &dict), SWIPEDICT_E_ARGUMENT);

  /* A file that is not a blob. */
  char path[1024];
  snprintf(path, sizeof path, "%s/not-a-blob", tmpdir);
  FILE *file = fopen(path, "w");
  fputs("hello\n", file);
  fclose(file);
  CHECK_STATUS(swipedict_open(path, 0, &dict), SWIPEDICT_E_FORMAT);
  CHECK(strstr(swipedict_errmsg(), "invalid blob") != NULL);
}

/* ---- Words ------------------------------------------------------------------------------- */

static void test_words(swipedict_dictionary *dict) {
  int64_t count = 0;
  CHECK_STATUS(swipedict_word_count(dict, &count), SWIPEDICT_OK);
  CHECK(count >= 10000);

  /* Every tenth word spelled and looked up again: the same ID. */
  int round_trips = 1;
  for (int64_t id = 0; id < count; id += 997) {
    char word[SWIPEDICT_WORD_CAPACITY];
    size_t length = 0;
    int64_t again = -1;
    if (swipedict_word(dict, id, word, sizeof word, &length) != SWIPEDICT_OK || length != strlen(word) ||
        swipedict_lookup(dict, word, &again) != SWIPEDICT_OK || again != id)
      round_trips = 0;
  }
  CHECK(round_trips);

  int64_t id = -1;
  CHECK_STATUS(swipedict_lookup(dict, "hello", &id), SWIPEDICT_OK);
  CHECK(id >= 0 && id < count);
  char word[16];
  size_t length = 0;
  CHECK_STATUS(swipedict_word(dict, id, word, sizeof word, &length), SWIPEDICT_OK);
  CHECK(strcmp(word, "hello") == 0 && length == 5);
  /* Too small a buffer: E_BUFFER, the length needed, nothing written. */
  char small[5] = {'x', 'x', 'x', 'x', 'x'};
  CHECK_STATUS(swipedict_word(dict, id, small, sizeof small, &length), SWIPEDICT_E_BUFFER);
  CHECK(length == 5 && small[0] == 'x');
  CHECK_STATUS(swipedict_word(dict, id, NULL, 0, &length), SWIPEDICT_E_BUFFER);
  CHECK(length == 5);
  CHECK_STATUS(swipedict_word(dict, id, NULL, 6, &length), SWIPEDICT_E_NULL);

  uint32_t frequency = 0;
  CHECK_STATUS(swipedict_frequency(dict, id, &frequency), SWIPEDICT_OK);
  CHECK(frequency > 0 && frequency < 256);

  /* Absent words and IDs that name no word. */
  int64_t untouched = 42;
  CHECK_STATUS(swipedict_lookup(dict, "qxqxqxqzzz", &untouched), SWIPEDICT_NOT_FOUND);
  CHECK(untouched == 42);
  CHECK_STATUS(swipedict_lookup(dict, "", &untouched), SWIPEDICT_NOT_FOUND);
  CHECK_STATUS(swipedict_lookup(dict, "caf\xc3\xa9", &untouched), SWIPEDICT_OK); /* café, non-ASCII */
  CHECK_STATUS(swipedict_lookup(dict, "caf\xc3", &untouched), SWIPEDICT_E_ARGUMENT); /* cut UTF-8 */
  CHECK_STATUS(swipedict_lookup(dict, "\xed\xa0\x80", &untouched), SWIPEDICT_E_ARGUMENT); /* a surrogate */
  CHECK_STATUS(swipedict_lookup(dict, "\xc0\xaf", &untouched), SWIPEDICT_E_ARGUMENT); /* overlong */
  const int64_t bad_ids[] = {-1, count, count + 1, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
    CHECK_STATUS(swipedict_word(dict, bad_ids[i], word, sizeof word, &length), SWIPEDICT_NOT_FOUND);
    CHECK_STATUS(swipedict_frequency(dict, bad_ids[i], &frequency), SWIPEDICT_NOT_FOUND);
  }
}

static void test_typing(swipedict_dictionary *dict) {
  swipedict_suggestion out[8];
  size_t n = 99;
  CHECK_STATUS(swipedict_complete(dict, "hel", NULL, out, 8, &n), SWIPEDICT_OK);
  CHECK(n == 8);
  int all_start = 1;
  for (size_t i = 0; i < n; i++) {
    if (strncmp(out[i].word, "hel", 3) != 0 && strncmp(out[i].word, "Hel", 3) != 0) all_start = 0;
    if (out[i].length != strlen(out[i].word) || out[i].distance != 0) all_start = 0;
    if (i > 0 && out[i].score > out[i - 1].score) all_start = 0;
  }
  CHECK(all_start);
  CHECK(contains_word(out, n, "hello") && contains_word(out, n, "help"));

  /* Capacity 0, NULL output with capacity 0: nothing asked, nothing written. */
  CHECK_STATUS(swipedict_complete(dict, "hel", NULL, NULL, 0, &n), SWIPEDICT_OK);
  CHECK(n == 0);
  CHECK_STATUS(swipedict_complete(dict, "hel", NULL, NULL, 3, &n), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_complete(dict, "hel", NULL, out, 3, NULL), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_complete(dict, NULL, NULL, out, 3, &n), SWIPEDICT_E_NULL);
  /* A capacity beyond any array: at most SWIPEDICT_MAX_RESULTS are asked (here, fewer exist). */
  swipedict_suggestion *many = calloc(SWIPEDICT_MAX_RESULTS, sizeof *many);
  CHECK_STATUS(swipedict_complete(dict, "zyg", NULL, many, (size_t)-1, &n), SWIPEDICT_OK);
  CHECK(n < SWIPEDICT_MAX_RESULTS);
  CHECK_STATUS(swipedict_complete(dict, "", NULL, many, SWIPEDICT_MAX_RESULTS, &n), SWIPEDICT_OK);
  CHECK(n == SWIPEDICT_MAX_RESULTS);
  free(many);
  /* Typed text past 128 characters is neither completed nor corrected. */
  char long_text[200];
  memset(long_text, 'a', 199);
  long_text[199] = 0;
  CHECK_STATUS(swipedict_complete(dict, long_text, NULL, out, 8, &n), SWIPEDICT_OK);
  CHECK(n == 0);
  CHECK_STATUS(swipedict_correct(dict, long_text, NULL, out, 8, &n), SWIPEDICT_OK);
  CHECK(n == 0);

  CHECK_STATUS(swipedict_correct(dict, "wrold", NULL, out, 3, &n), SWIPEDICT_OK);
  CHECK(n >= 1 && strcmp(out[0].word, "world") == 0 && out[0].distance > 0);
  CHECK_STATUS(swipedict_correct(dict, "hello", "the", out, 3, &n), SWIPEDICT_OK);
  CHECK(n >= 1 && strcmp(out[0].word, "hello") == 0);
  CHECK_STATUS(swipedict_correct(dict, "", NULL, out, 3, &n), SWIPEDICT_OK);
  CHECK(n == 0);
  CHECK_STATUS(swipedict_correct(dict, "wrold", "\xff", out, 3, &n), SWIPEDICT_E_ARGUMENT);

  /* This blob has no word pairs: no next words, and a previous word changes nothing. */
  CHECK_STATUS(swipedict_next_words(dict, "going", out, 3, &n), SWIPEDICT_OK);
  CHECK(n == 0);
  CHECK_STATUS(swipedict_next_words(dict, NULL, out, 3, &n), SWIPEDICT_E_NULL);
  swipedict_suggestion with[3];
  size_t m = 0;
  CHECK_STATUS(swipedict_complete(dict, "wor", NULL, out, 3, &n), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_complete(dict, "wor", "hello", with, 3, &m), SWIPEDICT_OK);
  CHECK(n == m && n == 3 && strcmp(out[0].word, with[0].word) == 0);
}

/* ---- Layout and mapping ------------------------------------------------------------------ */

static void test_layout(swipedict_dictionary *dict) {
  swipedict_layout_info info;
  CHECK_STATUS(swipedict_layout(dict, &info), SWIPEDICT_OK);
  CHECK(strcmp(info.name, "qwerty-en") == 0 && strcmp(info.unit, "pt") == 0);
  CHECK(info.key_count == 26 && info.key_width == 37.5);
  CHECK(info.min_x == 0 && info.max_x == 375 && info.min_y == 0 && info.max_y == 162);
  swipedict_key key;
  CHECK_STATUS(swipedict_layout_key(dict, 0, &key), SWIPEDICT_OK);
  CHECK(key.codepoint == 'q' && key.x == 18.75 && key.y == 27);
  CHECK_STATUS(swipedict_layout_key(dict, 26, &key), SWIPEDICT_E_RANGE);
  CHECK_STATUS(swipedict_layout_key(dict, -1, &key), SWIPEDICT_E_RANGE);
  CHECK_STATUS(swipedict_layout_key(dict, INT64_MAX, &key), SWIPEDICT_E_RANGE);
  CHECK_STATUS(swipedict_layout_key(dict, 0, NULL), SWIPEDICT_E_NULL);

  /* @3x pixels, offset by 24: the layout's 375 x 162 pt become 1125 x 486 px. */
  swipedict_rect pixels = {0, 24, 1125, 486};
  double lx, ly, vx, vy;
  CHECK_STATUS(swipedict_map_to_layout(dict, &pixels, 562.5, 24 + 243, &lx, &ly), SWIPEDICT_OK);
  CHECK(fabs(lx - 187.5) < 1e-4 && fabs(ly - 81) < 1e-4);
  CHECK_STATUS(swipedict_map_to_view(dict, &pixels, 187.5, 81, &vx, &vy), SWIPEDICT_OK);
  CHECK(fabs(vx - 562.5) < 1e-3 && fabs(vy - 267) < 1e-3);
  CHECK_STATUS(swipedict_map_to_layout(dict, NULL, 10, 20, &lx, &ly), SWIPEDICT_OK);
  CHECK(lx == 10 && ly == 20);
  const swipedict_rect bad[] = {{0, 0, 0, 100}, {0, 0, 100, -1}, {NAN, 0, 100, 100}, {0, 0, INFINITY, 100}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    CHECK_STATUS(swipedict_map_to_layout(dict, &bad[i], 1, 1, &lx, &ly), SWIPEDICT_E_ARGUMENT);
  CHECK_STATUS(swipedict_map_to_layout(dict, &pixels, 1, 1, NULL, &ly), SWIPEDICT_E_NULL);
  double x = -50, y = 500;
  CHECK_STATUS(swipedict_clamp_to_keys(dict, &x, &y), SWIPEDICT_OK);
  CHECK(x == 0 && y == 162);
}

/* ---- Sessions ----------------------------------------------------------------------------- */

/* The ideal path of a word on the layout: its keys' centers, 8 points between each two. */
static size_t ideal_path(swipedict_dictionary *dict, const char *word, swipedict_point *out, size_t capacity) {
  swipedict_layout_info info;
  swipedict_layout(dict, &info);
  double cx[64], cy[64];
  size_t keys = 0;
  for (const char *c = word; *c && keys < 64; c++) {
    for (uint32_t k = 0; k < info.key_count; k++) {
      swipedict_key key;
      swipedict_layout_key(dict, k, &key);
      if (key.codepoint == (uint32_t)*c) {
        cx[keys] = key.x;
        cy[keys] = key.y;
        keys++;
      }
    }
  }
  size_t n = 0;
  for (size_t k = 0; k + 1 < keys; k++) {
    for (int step = 0; step < 8 && n < capacity; step++) {
      double t = step / 8.0;
      out[n] = (swipedict_point){cx[k] + t * (cx[k + 1] - cx[k]), cy[k] + t * (cy[k + 1] - cy[k]), 0.01 * (double)n};
      n++;
    }
  }
  if (n < capacity && keys > 0) {
    out[n] = (swipedict_point){cx[keys - 1], cy[keys - 1], 0.01 * (double)n};
    n++;
  }
  return n;
}

static void test_sessions(swipedict_dictionary *dict) {
  swipedict_point path[256];
  size_t points = ideal_path(dict, "hello", path, 256);
  CHECK(points > 20);

  /* In layout units. */
  swipedict_session *session;
  CHECK_STATUS(swipedict_session_create(dict, NULL, 0, &session), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_add_points(session, path, points), SWIPEDICT_OK);
  swipedict_suggestion top[4];
  size_t n = 0;
  swipedict_swipe_info info;
  CHECK_STATUS(swipedict_session_end(session, SWIPEDICT_NO_DEADLINE, top, 4, &n, &info), SWIPEDICT_OK);
  CHECK(n == 4 && strcmp(top[0].word, "hello") == 0);
  CHECK(top[0].score >= top[1].score && top[0].distance >= 0);
  CHECK(info.point_count == points && info.dropped_point_count == 0 && info.is_complete == 1 &&
        info.is_truncated == 0 && info.candidate_count >= info.matched_count && info.candidate_count >= 4);

  /* The same swipe in a landscape view of the keys, point by point, with a stray touch far
   * away in the middle: the same words, one point dropped. */
  swipedict_rect landscape = {60, 10, 812, 150};
  CHECK_STATUS(swipedict_session_set_key_area(session, &landscape), SWIPEDICT_OK);
  for (size_t i = 0; i < points; i++) {
    double vx, vy;
    swipedict_map_to_view(dict, &landscape, path[i].x, path[i].y, &vx, &vy);
    CHECK_STATUS(swipedict_session_add(session, vx, vy, path[i].time), SWIPEDICT_OK);
    if (i == points / 2) swipedict_session_add(session, 60, 10 + 150, NAN); /* the keys' bottom left corner */
  }
  CHECK_STATUS(swipedict_session_add(session, NAN, 3, NAN), SWIPEDICT_OK); /* dropped too */
  swipedict_suggestion again[4];
  size_t m = 0;
  CHECK_STATUS(swipedict_session_end(session, 50000, again, 4, &m, &info), SWIPEDICT_OK);
  CHECK(m == n);
  int same = 1;
  for (size_t i = 0; i < m && i < n; i++) same = same && strcmp(top[i].word, again[i].word) == 0;
  CHECK(same);
  CHECK(info.point_count == points && info.dropped_point_count == 2);

  /* An empty swipe; a cancelled one; a result count; bad arguments. */
  CHECK_STATUS(swipedict_session_end(session, 0, top, 4, &n, &info), SWIPEDICT_OK);
  CHECK(n == 0 && info.point_count == 0 && info.is_complete == 1);
  CHECK_STATUS(swipedict_session_set_key_area(session, NULL), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_add_points(session, path, points), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_cancel(session), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_end(session, 0, top, 4, &n, NULL), SWIPEDICT_OK);
  CHECK(n == 0);
  CHECK_STATUS(swipedict_session_set_result_count(session, 2), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_add_points(session, path, points), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_end(session, SWIPEDICT_NO_DEADLINE, top, 4, &n, NULL), SWIPEDICT_OK);
  CHECK(n == 2 && strcmp(top[0].word, "hello") == 0);
  CHECK_STATUS(swipedict_session_set_result_count(session, 0), SWIPEDICT_E_RANGE);
  CHECK_STATUS(swipedict_session_set_result_count(session, SWIPEDICT_MAX_RESULTS + 1), SWIPEDICT_E_RANGE);
  CHECK_STATUS(swipedict_session_set_key_area(session, &(swipedict_rect){0, 0, -5, 5}), SWIPEDICT_E_ARGUMENT);
  CHECK_STATUS(swipedict_session_add_points(session, NULL, 3), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_session_add_points(session, NULL, 0), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_end(session, 0, NULL, 4, &n, NULL), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_session_set_previous_word(session, "the"), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_set_previous_word(session, NULL), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_create(dict, &(swipedict_rect){0, 0, 0, 0}, 0, &session), SWIPEDICT_E_ARGUMENT);
  CHECK(session == NULL);
  CHECK_STATUS(swipedict_session_create(dict, NULL, 0, NULL), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_session_create(dict, NULL, 2, &session), SWIPEDICT_E_ARGUMENT);

  /* Unfiltered: every point as given (the stray one too), none clamped. */
  swipedict_session *raw;
  CHECK_STATUS(swipedict_session_create(dict, NULL, SWIPEDICT_SESSION_UNFILTERED, &raw), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_add_points(raw, path, points), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_end(raw, SWIPEDICT_NO_DEADLINE, again, 4, &m, &info), SWIPEDICT_OK);
  CHECK(m == 4 && strcmp(again[0].word, "hello") == 0 && info.point_count == points);
  swipedict_session_add_points(raw, path, points / 2);
  swipedict_session_add(raw, 0, 162, NAN);
  swipedict_session_add(raw, INFINITY, 162, NAN);
  swipedict_session_add_points(raw, path + points / 2, points - points / 2);
  CHECK_STATUS(swipedict_session_end(raw, SWIPEDICT_NO_DEADLINE, again, 4, &m, &info), SWIPEDICT_OK);
  CHECK(info.point_count == points + 1 && info.dropped_point_count == 0);
  CHECK_STATUS(swipedict_session_free(raw), SWIPEDICT_OK);

  /* A deadline already past: the best words found by then, and the decoding says so. */
  swipedict_session *hurried;
  CHECK_STATUS(swipedict_session_create(dict, NULL, 0, &hurried), SWIPEDICT_OK);
  size_t long_points = ideal_path(dict, "the", path, 256);
  swipedict_session_add_points(hurried, path, long_points);
  CHECK_STATUS(swipedict_session_end(hurried, 0, top, 4, &n, &info), SWIPEDICT_OK);
  CHECK(info.matched_count <= info.candidate_count);
  /* Thousands of points: at most 2,000 reach the decoder. */
  for (int i = 0; i < 2500; i++) swipedict_session_add(hurried, 100 + (i % 50), 80, NAN);
  CHECK_STATUS(swipedict_session_end(hurried, 50000, top, 4, &n, &info), SWIPEDICT_OK);
  CHECK(info.is_truncated == 1 && info.point_count == 2000);
  CHECK_STATUS(swipedict_session_free(hurried), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_free(session), SWIPEDICT_OK);
}

/* ---- Handles: NULL, released, forged, of another kind ------------------------------------ */

static void test_handles(void) {
  swipedict_dictionary *dict;
  CHECK_STATUS(swipedict_open(blob_path, 0, &dict), SWIPEDICT_OK);
  swipedict_session *session;
  CHECK_STATUS(swipedict_session_create(dict, NULL, 0, &session), SWIPEDICT_OK);
  int64_t id;
  swipedict_suggestion out[4];
  size_t n;

  /* NULL handles. */
  CHECK_STATUS(swipedict_lookup(NULL, "hello", &id), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_complete(NULL, "he", NULL, out, 4, &n), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_session_add(NULL, 1, 1, 0), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_session_end(NULL, 0, out, 4, &n, NULL), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_user_learn(NULL, "x"), SWIPEDICT_E_NULL);
  CHECK_STATUS(swipedict_close(NULL), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_free(NULL), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_user_close(NULL), SWIPEDICT_OK);

  /* A handle of one kind given for another, and forged ones. */
  CHECK_STATUS(swipedict_lookup((swipedict_dictionary *)session, "hello", &id), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_session_add((swipedict_session *)dict, 1, 1, 0), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_close((swipedict_dictionary *)session), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_lookup((swipedict_dictionary *)(uintptr_t)12345, "hello", &id), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_lookup((swipedict_dictionary *)(uintptr_t)0xdeadbeef, "hello", &id), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_lookup((swipedict_dictionary *)(uintptr_t)-1, "hello", &id), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_user_learn((swipedict_user_store *)dict, "x"), SWIPEDICT_E_HANDLE);

  /* Closed: every call on it is refused; the session made from it goes on. */
  CHECK_STATUS(swipedict_close(dict), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_lookup(dict, "hello", &id), SWIPEDICT_E_HANDLE);
  CHECK(strstr(swipedict_errmsg(), "not open") != NULL);
  CHECK_STATUS(swipedict_word(dict, 0, NULL, 0, NULL), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_complete(dict, "he", NULL, out, 4, &n), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_session_create(dict, NULL, 0, &session), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_close(dict), SWIPEDICT_E_HANDLE);
  /* (session was overwritten with NULL by the failed create) */
  CHECK(session == NULL);

  /* A new dictionary may take the same slot: the old handle still is not it. */
  swipedict_dictionary *other;
  CHECK_STATUS(swipedict_open(blob_path, 0, &other), SWIPEDICT_OK);
  CHECK(other != dict);
  CHECK_STATUS(swipedict_lookup(dict, "hello", &id), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_lookup(other, "hello", &id), SWIPEDICT_OK);

  /* A session outlives its dictionary handle. */
  swipedict_session *orphan;
  CHECK_STATUS(swipedict_session_create(other, NULL, 0, &orphan), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_close(other), SWIPEDICT_OK);
  swipedict_point path[256];
  swipedict_dictionary *helper;
  swipedict_open(blob_path, 0, &helper);
  size_t points = ideal_path(helper, "world", path, 256);
  swipedict_close(helper);
  CHECK_STATUS(swipedict_session_add_points(orphan, path, points), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_end(orphan, SWIPEDICT_NO_DEADLINE, out, 4, &n, NULL), SWIPEDICT_OK);
  CHECK(n == 4 && strcmp(out[0].word, "world") == 0);
  CHECK_STATUS(swipedict_session_free(orphan), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_free(orphan), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_session_end(orphan, 0, out, 4, &n, NULL), SWIPEDICT_E_HANDLE);
}

/* ---- Threads ------------------------------------------------------------------------------ */

typedef struct {
  swipedict_dictionary *dict;
  int lookups, refused, wrong;
} worker;

static void *look_up(void *argument) {
  worker *w = argument;
  for (int i = 0; i < 20000; i++) {
    int64_t id;
    int status = swipedict_lookup(w->dict, (i & 1) ? "hello" : "world", &id);
    if (status == SWIPEDICT_OK) w->lookups++;
    else if (status == SWIPEDICT_E_HANDLE) w->refused++;
    else w->wrong++;
  }
  /* This thread's failures left the other threads' messages alone. */
  swipedict_lookup(NULL, "x", NULL);
  return NULL;
}

static void test_threads(void) {
  swipedict_dictionary *dict;
  CHECK_STATUS(swipedict_open(blob_path, 0, &dict), SWIPEDICT_OK);
  swipedict_lookup(dict, "\xff", NULL); /* this thread's message: not UTF-8... */
  swipedict_lookup(dict, "x", NULL);    /* ...then a NULL id */
  const char *before = swipedict_errmsg();
  char mine[256];
  snprintf(mine, sizeof mine, "%s", before);

  /* Four threads look up while this one closes the handle under them: each call answers or
   * is refused, none crashes or reads freed memory. */
  enum { THREADS = 4 };
  pthread_t threads[THREADS];
  worker workers[THREADS];
  for (int i = 0; i < THREADS; i++) {
    workers[i] = (worker){dict, 0, 0, 0};
    pthread_create(&threads[i], NULL, look_up, &workers[i]);
  }
  for (volatile int spin = 0; spin < 200000; spin++) {}
  CHECK_STATUS(swipedict_close(dict), SWIPEDICT_OK);
  int lookups = 0, wrong = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(threads[i], NULL);
    lookups += workers[i].lookups + workers[i].refused;
    wrong += workers[i].wrong;
  }
  CHECK(lookups == THREADS * 20000 && wrong == 0);
  CHECK(strcmp(swipedict_errmsg(), mine) == 0);
}

/* Two threads complete and decode while this one gives the dictionary new user words again and
 * again: each call runs on the words it started with, none crashes. */
typedef struct {
  swipedict_dictionary *dict;
  int answered, wrong;
} typist;

static void *type_and_swipe(void *argument) {
  typist *t = argument;
  swipedict_session *session;
  if (swipedict_session_create(t->dict, NULL, 0, &session) != SWIPEDICT_OK) {
    t->wrong++;
    return NULL;
  }
  swipedict_point path[256];
  size_t points = ideal_path(t->dict, "hello", path, 256);
  for (int i = 0; i < 60; i++) {
    swipedict_suggestion out[4];
    size_t n = 0;
    int status = swipedict_complete(t->dict, "he", NULL, out, 4, &n);
    swipedict_session_add_points(session, path, points);
    status |= swipedict_session_end(session, SWIPEDICT_NO_DEADLINE, out, 4, &n, NULL);
    if (status == SWIPEDICT_OK && n > 0) t->answered++;
    else t->wrong++;
  }
  swipedict_session_free(session);
  return NULL;
}

static void test_user_words_under_threads(swipedict_user_store *store) {
  swipedict_dictionary *dict;
  CHECK_STATUS(swipedict_open(blob_path, 0, &dict), SWIPEDICT_OK);
  pthread_t threads[2];
  typist typists[2] = {{dict, 0, 0}, {dict, 0, 0}};
  for (int i = 0; i < 2; i++) pthread_create(&threads[i], NULL, type_and_swipe, &typists[i]);
  int swaps = 0;
  for (int i = 0; i < 40; i++) swaps += swipedict_use_user_words(dict, i % 2 ? store : NULL) == SWIPEDICT_OK;
  for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
  CHECK(swaps == 40);
  CHECK(typists[0].answered == 60 && typists[1].answered == 60 && typists[0].wrong + typists[1].wrong == 0);
  CHECK_STATUS(swipedict_close(dict), SWIPEDICT_OK);
}

/* ---- The user's words --------------------------------------------------------------------- */

static void test_user_store(void) {
  char path[1024];
  snprintf(path, sizeof path, "%s/user.words", tmpdir);
  swipedict_user_store *store;
  CHECK_STATUS(swipedict_user_open(path, SWIPEDICT_USER_NO_CREATE, &store), SWIPEDICT_E_IO);
  CHECK(store == NULL);
  CHECK_STATUS(swipedict_user_open(path, 0, &store), SWIPEDICT_OK);
  int read_only = -1;
  CHECK_STATUS(swipedict_user_is_read_only(store, &read_only), SWIPEDICT_OK);
  CHECK(read_only == 0);

  CHECK_STATUS(swipedict_user_add(store, "Zo\xc3\xab", 3), SWIPEDICT_OK); /* Zoë */
  CHECK_STATUS(swipedict_user_add(store, "Zoe\xcc\x88", -1), SWIPEDICT_OK); /* the same word, decomposed */
  CHECK_STATUS(swipedict_user_learn(store, "gonna"), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_user_learn(store, "gonna"), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_user_block(store, "hello"), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_user_learn(store, "two words"), SWIPEDICT_E_ARGUMENT);
  CHECK(strstr(swipedict_errmsg(), "not a valid word") != NULL);
  CHECK_STATUS(swipedict_user_learn(store, ""), SWIPEDICT_E_ARGUMENT);
  CHECK_STATUS(swipedict_user_learn(store, "\xff"), SWIPEDICT_E_ARGUMENT);
  CHECK_STATUS(swipedict_user_remove(store, "never-added"), SWIPEDICT_NOT_FOUND);
  CHECK_STATUS(swipedict_user_unlearn(store, "never-added"), SWIPEDICT_OK);

  size_t count = 0;
  CHECK_STATUS(swipedict_user_count(store, &count), SWIPEDICT_OK);
  CHECK(count == 3);
  swipedict_user_entry entries[8];
  CHECK_STATUS(swipedict_user_entries(store, entries, 8, &count), SWIPEDICT_OK);
  CHECK(count == 3);
  CHECK(strcmp(entries[0].word, "Zo\xc3\xab") == 0 && entries[0].kind == SWIPEDICT_USER_ADDED && entries[0].uses == 3);
  CHECK(strcmp(entries[1].word, "gonna") == 0 && entries[1].kind == SWIPEDICT_USER_LEARNED && entries[1].uses == 2);
  CHECK(strcmp(entries[2].word, "hello") == 0 && entries[2].kind == SWIPEDICT_USER_BLOCKED);
  CHECK(entries[0].last_use < entries[1].last_use && entries[1].last_use < entries[2].last_use);
  CHECK_STATUS(swipedict_user_entries(store, entries, 1, &count), SWIPEDICT_OK);
  CHECK(count == 1);
  swipedict_user_entry entry;
  CHECK_STATUS(swipedict_user_get(store, "Zoe\xcc\x88", &entry), SWIPEDICT_OK);
  CHECK(entry.kind == SWIPEDICT_USER_ADDED && entry.length == 4);
  CHECK_STATUS(swipedict_user_get(store, "nobody", &entry), SWIPEDICT_NOT_FOUND);
  CHECK_STATUS(swipedict_user_get(store, "two words", &entry), SWIPEDICT_NOT_FOUND);

  /* A second store on the file (another process, in a keyboard): refresh sees the writes. */
  swipedict_user_store *reader;
  CHECK_STATUS(swipedict_user_open(path, SWIPEDICT_USER_NO_CREATE, &reader), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_user_count(reader, &count), SWIPEDICT_OK);
  CHECK(count == 3);
  CHECK_STATUS(swipedict_user_add(store, "Anna", -1), SWIPEDICT_OK);
  int changed = -1;
  CHECK_STATUS(swipedict_user_refresh(reader, &changed), SWIPEDICT_OK);
  CHECK(changed == 1);
  CHECK_STATUS(swipedict_user_refresh(reader, &changed), SWIPEDICT_OK);
  CHECK(changed == 0);
  CHECK_STATUS(swipedict_user_refresh(reader, NULL), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_user_count(reader, &count), SWIPEDICT_OK);
  CHECK(count == 4);

  /* The words in a dictionary's queries: blocked never suggested, added ones found. */
  swipedict_dictionary *dict;
  CHECK_STATUS(swipedict_open(blob_path, 0, &dict), SWIPEDICT_OK);
  swipedict_session *session;
  CHECK_STATUS(swipedict_session_create(dict, NULL, 0, &session), SWIPEDICT_OK);
  swipedict_point hello[256];
  size_t points = ideal_path(dict, "hello", hello, 256);
  swipedict_suggestion out[8];
  size_t n;
  CHECK_STATUS(swipedict_use_user_words(dict, reader), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_complete(dict, "hel", NULL, out, 8, &n), SWIPEDICT_OK);
  CHECK(n > 0 && !contains_word(out, n, "hello"));
  CHECK_STATUS(swipedict_complete(dict, "zo", NULL, out, 8, &n), SWIPEDICT_OK);
  CHECK(contains_word(out, n, "Zo\xc3\xab"));
  int64_t id = -1, count_words = 0;
  CHECK_STATUS(swipedict_lookup(dict, "hello", &id), SWIPEDICT_OK); /* a word still, never offered */
  swipedict_word_count(dict, &count_words);
  for (size_t i = 0; i < n; i++) {
    if (strcmp(out[i].word, "Zo\xc3\xab") == 0) {
      char spelled[32];
      CHECK(out[i].id >= count_words);
      CHECK_STATUS(swipedict_word(dict, out[i].id, spelled, sizeof spelled, NULL), SWIPEDICT_OK);
      CHECK(strcmp(spelled, "Zo\xc3\xab") == 0);
    }
  }
  /* The session sees them from its next swipe. */
  swipedict_session_add_points(session, hello, points);
  CHECK_STATUS(swipedict_session_end(session, SWIPEDICT_NO_DEADLINE, out, 4, &n, NULL), SWIPEDICT_OK);
  CHECK(n > 0 && !contains_word(out, n, "hello"));
  CHECK_STATUS(swipedict_use_user_words(dict, NULL), SWIPEDICT_OK);
  swipedict_session_add_points(session, hello, points);
  CHECK_STATUS(swipedict_session_end(session, SWIPEDICT_NO_DEADLINE, out, 4, &n, NULL), SWIPEDICT_OK);
  CHECK(n > 0 && strcmp(out[0].word, "hello") == 0);

  test_user_words_under_threads(reader);
  CHECK_STATUS(swipedict_use_user_words(dict, (swipedict_user_store *)session), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_user_close(reader), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_use_user_words(dict, reader), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_user_close(reader), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_user_learn(reader, "gonna"), SWIPEDICT_E_HANDLE);
  CHECK_STATUS(swipedict_user_close(store), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_session_free(session), SWIPEDICT_OK);
  CHECK_STATUS(swipedict_close(dict), SWIPEDICT_OK);

  /* A file that is not a user dictionary. */
  CHECK_STATUS(swipedict_user_open(blob_path, 0, &store), SWIPEDICT_E_FORMAT);
  CHECK(store == NULL);
}

/* ---- Damaged blobs ------------------------------------------------------------------------ */

/* Every query on a dictionary, answers ignored: none may crash. */
static void query_everything(swipedict_dictionary *dict) {
  int64_t count = 0, id;
  swipedict_word_count(dict, &count);
  char word[SWIPEDICT_WORD_CAPACITY];
  swipedict_suggestion out[8];
  size_t n;
  uint32_t frequency;
  const int64_t ids[] = {0, 1, count / 2, count - 1, count, -1};
  for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
    swipedict_word(dict, ids[i], word, sizeof word, NULL);
    swipedict_frequency(dict, ids[i], &frequency);
  }
  const char *probes[] = {"hello", "the", "wrold", "caf\xc3\xa9", "", "zzzz"};
  for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
    swipedict_lookup(dict, probes[i], &id);
    swipedict_complete(dict, probes[i], NULL, out, 8, &n);
    swipedict_complete(dict, probes[i], "the", out, 8, &n);
    swipedict_correct(dict, probes[i], NULL, out, 8, &n);
    swipedict_next_words(dict, probes[i], out, 8, &n);
  }
  swipedict_layout_info info;
  swipedict_layout(dict, &info);
  swipedict_key key;
  swipedict_layout_key(dict, 0, &key);
  double x = 1, y = 1;
  swipedict_map_to_layout(dict, NULL, 10, 10, &x, &y);
  swipedict_clamp_to_keys(dict, &x, &y);
  swipedict_session *session;
  if (swipedict_session_create(dict, NULL, 0, &session) == SWIPEDICT_OK) {
    for (int i = 0; i < 40; i++) swipedict_session_add(session, 20 + 8 * i, 80 + (i % 3), 0.01 * i);
    swipedict_session_end(session, 20000, out, 4, &n, NULL);
    swipedict_session_free(session);
  }
}

static void test_damaged_blobs(void) {
  size_t length = 0;
  unsigned char *bytes = read_file(blob_path, &length);
  CHECK(bytes != NULL && length > 4096);
  if (!bytes) return;
  unsigned char *copy = malloc(length);
  swipedict_dictionary *dict;
  /* Cut short at many places. */
  int refused = 0, tried = 0;
  for (size_t cut = 0; cut < length; cut += length / 23 + 1) {
    tried++;
    if (swipedict_open_bytes(bytes, cut, 0, &dict) == SWIPEDICT_E_FORMAT) refused++;
    else swipedict_close(dict);
  }
  CHECK(refused == tried);
  /* Bytes flipped here and there (seeded): opened or refused, then every query. */
  unsigned long seed = 37;
  int opened = 0;
  for (int round = 0; round < 60; round++) {
    memcpy(copy, bytes, length);
    for (int flips = 0; flips < 1 + round % 4; flips++) {
      seed = seed * 6364136223846793005UL + 1442695040888963407UL;
      size_t at = (size_t)(seed >> 11) % length;
      copy[at] ^= (unsigned char)(1u << ((seed >> 5) % 8));
    }
    int status = swipedict_open_bytes(copy, length, 0, &dict);
    CHECK(status == SWIPEDICT_OK || status == SWIPEDICT_E_FORMAT);
    if (status == SWIPEDICT_OK) {
      opened++;
      query_everything(dict);
      swipedict_close(dict);
    }
  }
  /* The header checksum refuses most flips at open; a verifying open refuses every one it
   * sees, and the plain copy opens. */
  CHECK_STATUS(swipedict_open_bytes(bytes, length, SWIPEDICT_OPEN_VERIFY, &dict), SWIPEDICT_OK);
  query_everything(dict);
  swipedict_close(dict);
  printf("damaged blobs: %d of %d cuts refused, %d of 60 flipped copies opened and queried\n", refused, tried,
         opened);
  free(copy);
  free(bytes);
}

/* The fuzzer's corpus (seed blobs, and inputs that once crashed the loader): opened from
 * bytes through the C API and queried; none may crash. */
static void test_corpus(const char *directory) {
  DIR *dir = opendir(directory);
  CHECK(dir != NULL);
  if (!dir) return;
  int files = 0, opened = 0;
  struct dirent *entry;
  while ((entry = readdir(dir)) != NULL) {
    if (entry->d_name[0] == '.') continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
    size_t length = 0;
    unsigned char *bytes = read_file(path, &length);
    if (!bytes) continue;
    files++;
    swipedict_dictionary *dict;
    int status = swipedict_open_bytes(bytes, length, 0, &dict);
    CHECK(status == SWIPEDICT_OK || status == SWIPEDICT_E_FORMAT);
    if (status == SWIPEDICT_OK) {
      opened++;
      query_everything(dict);
      swipedict_close(dict);
    }
    free(bytes);
  }
  closedir(dir);
  CHECK(files >= 2);
  printf("fuzz corpus: %d files, %d opened and queried\n", files, opened);
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: capi_test BLOB TMPDIR [CORPUS]\n");
    return 64;
  }
  blob_path = argv[1];
  tmpdir = argv[2];
  test_versions();
  test_open_errors();
  swipedict_dictionary *dict;
  if (swipedict_open(blob_path, 0, &dict) != SWIPEDICT_OK) {
    fprintf(stderr, "capi_test: %s\n", swipedict_errmsg());
    return 1;
  }
  test_words(dict);
  test_typing(dict);
  test_layout(dict);
  test_sessions(dict);
  CHECK_STATUS(swipedict_close(dict), SWIPEDICT_OK);
  test_handles();
  test_threads();
  test_user_store();
  test_damaged_blobs();
  if (argc == 4) test_corpus(argv[3]);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
