/*
 * The C side of the C API's boundary benchmark (bench/capi/run.sh): the queries of
 * bench/capi/swift/CAPIBenchSwift.swift, made through libswipedict, timed the same way.
 *
 *   capi_bench BLOB HITS MISSES IDS PREFIXES SWIPES PASSES
 *
 * Prints one JSON object: for each measurement the median over PASSES passes (after a
 * warm-up pass) of the mean nanoseconds per operation in a pass. Decoding goes point by point
 * (one call per touch, as a keyboard makes them) into an unfiltered session (the points as
 * given, as swipedict decode and the Swift side feed them).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "swipedict.h"

typedef struct {
  char **items;
  size_t count;
} list;

static list read_lines(const char *path) {
  list l = {NULL, 0};
  size_t capacity = 0;
  FILE *file = fopen(path, "r");
  if (!file) {
    perror(path);
    exit(1);
  }
  char *line = NULL;
  size_t size = 0;
  ssize_t n;
  while ((n = getline(&line, &size, file)) > 0) {
    if (line[n - 1] == '\n') line[n - 1] = 0;
    if (l.count == capacity) {
      capacity = capacity ? 2 * capacity : 1024;
      l.items = realloc(l.items, capacity * sizeof *l.items);
    }
    l.items[l.count++] = strdup(line);
  }
  free(line);
  fclose(file);
  return l;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *values, size_t n) {
  qsort(values, n, sizeof *values, compare);
  return values[n / 2];
}

static swipedict_dictionary *dict;
static list hits, misses, ids, prefixes;
static volatile long long sink;

static long long run_hits(list *words) {
  long long sum = 0;
  for (size_t i = 0; i < words->count; i++) {
    int64_t id = 0;
    if (swipedict_lookup(dict, words->items[i], &id) == SWIPEDICT_OK) sum += id;
  }
  return sum;
}

static long long run_ids(list *unused) {
  (void)unused;
  long long sum = 0;
  char word[SWIPEDICT_WORD_CAPACITY];
  for (size_t i = 0; i < ids.count; i++) {
    size_t length = 0;
    if (swipedict_word(dict, atoll(ids.items[i]), word, sizeof word, &length) == SWIPEDICT_OK) sum += (long long)length;
  }
  return sum;
}

static long long run_complete(list *words) {
  long long sum = 0;
  swipedict_suggestion out[3];
  for (size_t i = 0; i < words->count; i++) {
    size_t n = 0;
    swipedict_complete(dict, words->items[i], NULL, out, 3, &n);
    sum += (long long)n;
  }
  return sum;
}

static double measure(int passes, list *input, size_t operations, long long (*body)(list *)) {
  double *means = malloc((size_t)passes * sizeof *means);
  for (int pass = 0; pass <= passes; pass++) {
    double start = now_ns();
    sink += body(input);
    double elapsed = now_ns() - start;
    if (pass > 0) means[pass - 1] = elapsed / (double)operations;
  }
  double result = median(means, (size_t)passes);
  free(means);
  return result;
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: capi_bench BLOB HITS MISSES IDS PREFIXES SWIPES PASSES\n");
    return 64;
  }
  if (swipedict_open(argv[1], 0, &dict) != SWIPEDICT_OK) {
    fprintf(stderr, "%s\n", swipedict_errmsg());
    return 1;
  }
  hits = read_lines(argv[2]);
  misses = read_lines(argv[3]);
  ids = read_lines(argv[4]);
  prefixes = read_lines(argv[5]);
  list swipe_lines = read_lines(argv[6]);
  int passes = atoi(argv[7]);

  /* The swipes as arrays of points. */
  size_t count = swipe_lines.count, points_total = 0;
  double **xs = malloc(count * sizeof *xs), **ys = malloc(count * sizeof *ys);
  size_t *sizes = calloc(count, sizeof *sizes);
  for (size_t i = 0; i < count; i++) {
    size_t capacity = 64;
    xs[i] = malloc(capacity * sizeof **xs);
    ys[i] = malloc(capacity * sizeof **ys);
    char *at = swipe_lines.items[i], *end;
    for (;;) {
      double x = strtod(at, &end);
      if (end == at) break;
      at = end;
      double y = strtod(at, &end);
      if (end == at) break;
      at = end;
      if (sizes[i] == capacity) {
        capacity *= 2;
        xs[i] = realloc(xs[i], capacity * sizeof **xs);
        ys[i] = realloc(ys[i], capacity * sizeof **ys);
      }
      /* As the Swift side reads them: Float values. */
      xs[i][sizes[i]] = (float)x;
      ys[i][sizes[i]] = (float)y;
      sizes[i]++;
    }
    points_total += sizes[i];
  }

  double hit = measure(passes, &hits, hits.count, run_hits);
  double miss = measure(passes, &misses, misses.count, run_hits);
  double id_to_word = measure(passes, NULL, ids.count, run_ids);
  double complete3 = measure(passes, &prefixes, prefixes.count, run_complete);

  swipedict_session *session;
  if (swipedict_session_create(dict, NULL, SWIPEDICT_SESSION_UNFILTERED, &session) != SWIPEDICT_OK) {
    fprintf(stderr, "%s\n", swipedict_errmsg());
    return 1;
  }
  double *adds = malloc(count * (size_t)passes * sizeof *adds), *ends = malloc(count * (size_t)passes * sizeof *ends);
  long long words = 0;
  for (int pass = 0; pass <= passes; pass++) {
    for (size_t i = 0; i < count; i++) {
      double start = now_ns();
      for (size_t p = 0; p < sizes[i]; p++) swipedict_session_add(session, xs[i][p], ys[i][p], NAN);
      double lift = now_ns();
      swipedict_suggestion top[4];
      size_t n = 0;
      swipedict_session_end(session, SWIPEDICT_NO_DEADLINE, top, 4, &n, NULL);
      double done = now_ns();
      words += (long long)n;
      if (pass > 0) {
        adds[i * (size_t)passes + (size_t)(pass - 1)] = lift - start;
        ends[i * (size_t)passes + (size_t)(pass - 1)] = done - lift;
      }
    }
  }
  double add_sum = 0, wait_sum = 0;
  double *waits = malloc(count * sizeof *waits);
  for (size_t i = 0; i < count; i++) {
    add_sum += median(adds + i * (size_t)passes, (size_t)passes);
    waits[i] = median(ends + i * (size_t)passes, (size_t)passes);
    wait_sum += waits[i];
  }
  double wait_mean = wait_sum / (double)(count ? count : 1);
  double wait_median = count ? median(waits, count) : 0;
  printf("{\"hit\": %.1f, \"miss\": %.1f, \"idToWord\": %.1f, \"complete3\": %.1f, \"addPerPoint\": %.1f, "
         "\"waitMean\": %.1f, \"waitMedian\": %.1f, \"swipeMean\": %.1f, \"swipes\": %zu, \"words\": %lld}\n",
         hit, miss, id_to_word, complete3, add_sum / (double)(points_total ? points_total : 1), wait_mean, wait_median,
         (add_sum + wait_sum) / (double)(count ? count : 1), count, words);
  swipedict_session_free(session);
  swipedict_close(dict);
  return 0;
}
