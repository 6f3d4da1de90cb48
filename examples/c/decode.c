/*
 * decode.c: decodes a file of swipes with SwipeDict's C API and prints each swipe's top words,
 * as `swipedict decode` does.
 *
 *     make capi
 *     cc examples/c/decode.c -Ibuild/include -Lbuild/lib -lswipedict -o decode
 *     LD_LIBRARY_PATH=build/lib ./decode build/en.swipedict swipes.jsonl
 *
 * The swipes are JSON Lines in the blob's layout units, as `swipedict synth` writes them and
 * ../shared/swipes/hws-dev.jsonl holds them:
 *
 *     {"word": "duck", "points": [[x, y, t_ms], ...]}
 *
 * ("word" and t_ms optional). For each swipe it prints "WORD<TAB>→ TOP1 TOP2 TOP3 TOP4" (the
 * arrow and the word only when the file gives the word), then how often the word came first
 * and among the four. Options: --deadline MS (default: none, as swipedict decode), --context
 * (rank by each line's "previous" word, on a blob built with --bigrams).
 *
 * The file's points are in layout units and go to the decoder as recorded, as `swipedict
 * decode` feeds them: the session has no key area and is unfiltered. A keyboard passes the
 * rectangle its view draws the keys in, touches in the view's coordinates, and no flag (its
 * touches then go through the touch trace: stray points dropped, points clamped onto the keys).
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swipedict.h"

/* ---- A small JSON reader: enough for one swipe per line --------------------------------- */

typedef struct {
  const char *at;
  const char *end;
  int failed;
} reader;

static void skip_space(reader *r) {
  while (r->at < r->end && (*r->at == ' ' || *r->at == '\t' || *r->at == '\r' || *r->at == '\n')) r->at++;
}

static int take(reader *r, char c) {
  skip_space(r);
  if (r->at < r->end && *r->at == c) {
    r->at++;
    return 1;
  }
  return 0;
}

/* Appends the UTF-8 form of a code point to out (capacity checked by the caller). */
static size_t put_utf8(char *out, unsigned long c) {
  if (c < 0x80) { out[0] = (char)c; return 1; }
  if (c < 0x800) { out[0] = (char)(0xC0 | (c >> 6)); out[1] = (char)(0x80 | (c & 0x3F)); return 2; }
  if (c < 0x10000) {
    out[0] = (char)(0xE0 | (c >> 12)); out[1] = (char)(0x80 | ((c >> 6) & 0x3F)); out[2] = (char)(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (c >> 18)); out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((c >> 6) & 0x3F)); out[3] = (char)(0x80 | (c & 0x3F));
  return 4;
}

static unsigned long hex4(reader *r) {
  unsigned long value = 0;
  for (int i = 0; i < 4; i++) {
    if (r->at >= r->end) { r->failed = 1; return 0; }
    char c = *r->at++;
    value <<= 4;
    if (c >= '0' && c <= '9') value |= (unsigned long)(c - '0');
    else if (c >= 'a' && c <= 'f') value |= (unsigned long)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') value |= (unsigned long)(c - 'A' + 10);
    else { r->failed = 1; return 0; }
  }
  return value;
}

/* Reads a string into out (NUL-terminated, cut at capacity - 5 bytes). */
static void read_string(reader *r, char *out, size_t capacity) {
  size_t n = 0;
  if (!take(r, '"')) { r->failed = 1; return; }
  while (r->at < r->end && *r->at != '"') {
    char piece[4];
    size_t length = 1;
    if (*r->at == '\\') {
      r->at++;
      if (r->at >= r->end) break;
      char e = *r->at++;
      switch (e) {
        case 'n': piece[0] = '\n'; break;
        case 't': piece[0] = '\t'; break;
        case 'r': piece[0] = '\r'; break;
        case 'b': piece[0] = '\b'; break;
        case 'f': piece[0] = '\f'; break;
        case 'u': {
          unsigned long c = hex4(r);
          if (c >= 0xD800 && c < 0xDC00 && r->end - r->at >= 6 && r->at[0] == '\\' && r->at[1] == 'u') {
            r->at += 2;
            unsigned long low = hex4(r);
            c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
          }
          length = put_utf8(piece, c);
          break;
        }
        default: piece[0] = e; break;
      }
    } else {
      piece[0] = *r->at++;
    }
    if (n + length < capacity) {
      memcpy(out + n, piece, length);
      n += length;
    }
  }
  if (!take(r, '"')) r->failed = 1;
  out[n] = 0;
}

static double read_number(reader *r) {
  skip_space(r);
  char *stop;
  double value = strtod(r->at, &stop);
  if (stop == r->at) { r->failed = 1; return NAN; }
  r->at = stop;
  return value;
}

/* Skips any value (objects and arrays nested). */
static void skip_value(reader *r) {
  skip_space(r);
  if (r->at >= r->end) { r->failed = 1; return; }
  char c = *r->at;
  if (c == '"') {
    char scratch[8];
    read_string(r, scratch, sizeof scratch);
  } else if (c == '{' || c == '[') {
    char close = c == '{' ? '}' : ']';
    r->at++;
    if (take(r, close)) return;
    do {
      if (c == '{') {
        char key[8];
        read_string(r, key, sizeof key);
        if (!take(r, ':')) { r->failed = 1; return; }
      }
      skip_value(r);
    } while (!r->failed && take(r, ','));
    if (!take(r, close)) r->failed = 1;
  } else if (c == 't' || c == 'f' || c == 'n') {
    while (r->at < r->end && *r->at >= 'a' && *r->at <= 'z') r->at++;
  } else {
    read_number(r);
  }
}

typedef struct {
  char word[SWIPEDICT_WORD_CAPACITY];
  char previous[SWIPEDICT_WORD_CAPACITY];
  swipedict_point *points;
  size_t count, capacity;
} swipe;

/* Reads one line's swipe; 0 when it is not one. */
static int read_swipe(const char *line, size_t length, swipe *s) {
  reader r = {line, line + length, 0};
  s->word[0] = s->previous[0] = 0;
  s->count = 0;
  if (!take(&r, '{')) return 0;
  if (take(&r, '}')) return 1;
  do {
    char key[32];
    read_string(&r, key, sizeof key);
    if (!take(&r, ':')) return 0;
    skip_space(&r);
    if (strcmp(key, "word") == 0 && r.at < r.end && *r.at == '"') {
      read_string(&r, s->word, sizeof s->word);
    } else if (strcmp(key, "previous") == 0 && r.at < r.end && *r.at == '"') {
      read_string(&r, s->previous, sizeof s->previous);
    } else if (strcmp(key, "points") == 0) {
      if (!take(&r, '[')) return 0;
      if (!take(&r, ']')) {
        do {
          double v[3] = {NAN, NAN, NAN};
          if (!take(&r, '[')) return 0;
          for (int i = 0; i < 3 && !take(&r, ']'); i++) {
            if (i > 0 && !take(&r, ',')) return 0;
            v[i] = read_number(&r);
            if (i == 2 && !take(&r, ']')) return 0;
          }
          if (s->count == s->capacity) {
            s->capacity = s->capacity ? 2 * s->capacity : 256;
            swipedict_point *grown = realloc(s->points, s->capacity * sizeof *grown);
            if (!grown) return 0;
            s->points = grown;
          }
          /* The file's times are milliseconds; the session takes seconds. */
          s->points[s->count++] = (swipedict_point){v[0], v[1], isnan(v[2]) ? NAN : v[2] / 1000.0};
        } while (!r.failed && take(&r, ','));
        if (!take(&r, ']')) return 0;
      }
    } else {
      skip_value(&r);
    }
  } while (!r.failed && take(&r, ','));
  return !r.failed && take(&r, '}');
}

/* ---- Decoding ------------------------------------------------------------------------------ */

static int fail(const char *what) {
  fprintf(stderr, "decode: %s: %s\n", what, swipedict_errmsg());
  return 1;
}

int main(int argc, char **argv) {
  const char *paths[2] = {NULL, NULL};
  int npaths = 0, context = 0;
  long long deadline_us = SWIPEDICT_NO_DEADLINE;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--context") == 0) context = 1;
    else if (strcmp(argv[i], "--deadline") == 0 && i + 1 < argc) deadline_us = (long long)(atof(argv[++i]) * 1000);
    else if (npaths < 2) paths[npaths++] = argv[i];
    else npaths = 3;
  }
  if (npaths != 2) {
    fprintf(stderr, "usage: decode BLOB SWIPES.jsonl [--deadline MS] [--context]\n");
    return 64;
  }
  if (swipedict_abi_version() != SWIPEDICT_ABI_VERSION) {
    fprintf(stderr, "decode: libswipedict has ABI %d, this program was built for %d\n", swipedict_abi_version(),
            SWIPEDICT_ABI_VERSION);
    return 1;
  }

  swipedict_dictionary *dict;
  if (swipedict_open(paths[0], 0, &dict) != SWIPEDICT_OK) return fail(paths[0]);
  swipedict_session *session;
  /* The file's points are in layout units (no key area) and go to the decoder as recorded
   * (unfiltered), as `swipedict decode` feeds them. */
  if (swipedict_session_create(dict, NULL, SWIPEDICT_SESSION_UNFILTERED, &session) != SWIPEDICT_OK)
    return fail("session");
  FILE *file = fopen(paths[1], "r");
  if (!file) {
    perror(paths[1]);
    return 1;
  }

  swipe s = {{0}, {0}, NULL, 0, 0};
  char *line = NULL;
  size_t line_capacity = 0, number = 0, labelled = 0, first = 0, among = 0;
  long length;
  while ((length = (long)getline(&line, &line_capacity, file)) >= 0) {
    number++;
    if (length == 0 || line[0] == '\n') continue;
    if (!read_swipe(line, (size_t)length, &s)) {
      fprintf(stderr, "decode: %s:%zu: not a swipe ({\"word\": ..., \"points\": [[x, y, t], ...]})\n", paths[1],
              number);
      return 1;
    }
    if (swipedict_session_set_previous_word(session, context && s.previous[0] ? s.previous : NULL) != SWIPEDICT_OK ||
        swipedict_session_add_points(session, s.points, s.count) != SWIPEDICT_OK)
      return fail("session");
    swipedict_suggestion top[4];
    size_t n;
    if (swipedict_session_end(session, deadline_us, top, 4, &n, NULL) != SWIPEDICT_OK) return fail("session");
    if (s.word[0]) printf("%s\t→ ", s.word);
    if (n == 0) printf("(nothing)");
    for (size_t i = 0; i < n; i++) printf(i ? " %s" : "%s", top[i].word);
    printf("\n");
    if (s.word[0]) {
      labelled++;
      for (size_t i = 0; i < n; i++) {
        if (strcmp(top[i].word, s.word) == 0) {
          first += i == 0;
          among++;
          break;
        }
      }
    }
  }
  if (labelled > 0)
    printf("%zu swipes: top-1 %.1f %%, top-4 %.1f %% (exact spelling)\n", labelled, 100.0 * (double)first / (double)labelled,
           100.0 * (double)among / (double)labelled);
  free(line);
  free(s.points);
  fclose(file);
  swipedict_session_free(session);
  swipedict_close(dict);
  return 0;
}
