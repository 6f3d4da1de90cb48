// The SQLite side of docs/user-dictionary.md's comparison (bench/user-store/run.sh): the
// same 20,000 entries and the same measurements as `swipedict user FILE bench`, through
// the C API in WAL mode, and the same kill test as `swipedict user FILE stress`.
//
//   cc -O2 sqlite_bench.c -lsqlite3 -o sqlite_bench
//   ./sqlite_bench bench DB [ENTRIES] [WRITES]
//   ./sqlite_bench kill DB [OPS] [KILL_MS]
//
// Schema: words(word TEXT PRIMARY KEY, kind, uses, last_use) WITHOUT ROWID, an index on
// last_use (eviction, and the reader's "what changed since"). A reader loads every row
// into a hash table (what a keyboard would query per candidate), and refreshes by
// checking PRAGMA data_version and reading the rows with last_use > the last it saw.
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void check(int rc, sqlite3 *db, const char *what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    fprintf(stderr, "sqlite: %s: %s\n", what, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    exit(1);
  }
}

static sqlite3 *open_db(const char *path, const char *synchronous) {
  sqlite3 *db;
  check(sqlite3_open(path, &db), NULL, "open");
  sqlite3_busy_timeout(db, 10000);
  char sql[200];
  snprintf(sql, sizeof sql, "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s;", synchronous);
  check(sqlite3_exec(db, sql, 0, 0, 0), db, "pragmas");
  check(sqlite3_exec(db,
                     "CREATE TABLE IF NOT EXISTS words(word TEXT PRIMARY KEY, kind INTEGER, uses INTEGER,"
                     " last_use INTEGER) WITHOUT ROWID;"
                     "CREATE INDEX IF NOT EXISTS by_last_use ON words(last_use);",
                     0, 0, 0),
        db, "schema");
  return db;
}

// A reader's in-memory table: open addressing by FNV-1a.
typedef struct { char *word; int kind; int64_t uses, last_use; } Entry;
typedef struct { Entry *slots; size_t mask; size_t count; int64_t seen; int data_version; } Table;

static uint64_t fnv(const char *s) {
  uint64_t h = 1469598103934665603ull;
  while (*s) { h ^= (unsigned char)*s++; h *= 1099511628211ull; }
  return h;
}

static void table_put(Table *t, const char *word, int kind, int64_t uses, int64_t last_use) {
  size_t i = fnv(word) & t->mask;
  while (t->slots[i].word && strcmp(t->slots[i].word, word) != 0) i = (i + 1) & t->mask;
  if (!t->slots[i].word) { t->slots[i].word = strdup(word); t->count++; }
  t->slots[i].kind = kind;
  t->slots[i].uses = uses;
  t->slots[i].last_use = last_use;
  if (last_use > t->seen) t->seen = last_use;
}

static int data_version(sqlite3 *db) {
  sqlite3_stmt *s;
  check(sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &s, 0), db, "prepare");
  check(sqlite3_step(s), db, "data_version");
  int v = sqlite3_column_int(s, 0);
  sqlite3_finalize(s);
  return v;
}

// Reads the rows written after the last one seen (all of them the first time).
static void table_load(Table *t, sqlite3 *db) {
  sqlite3_stmt *s;
  check(sqlite3_prepare_v2(db, "SELECT word, kind, uses, last_use FROM words WHERE last_use > ?", -1, &s, 0), db,
        "prepare");
  sqlite3_bind_int64(s, 1, t->seen);
  while (sqlite3_step(s) == SQLITE_ROW)
    table_put(t, (const char *)sqlite3_column_text(s, 0), sqlite3_column_int(s, 1), sqlite3_column_int64(s, 2),
              sqlite3_column_int64(s, 3));
  sqlite3_finalize(s);
}

static void table_init(Table *t, size_t capacity) {
  size_t size = 1;
  while (size < capacity * 2) size <<= 1;
  t->slots = calloc(size, sizeof(Entry));
  t->mask = size - 1;
  t->count = 0;
  t->seen = 0;
}

static void table_free(Table *t) {
  for (size_t i = 0; i <= t->mask; i++) free(t->slots[i].word);
  free(t->slots);
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static const char *show(double seconds, char *buffer) {
  if (seconds >= 1e-3) sprintf(buffer, "%.2f ms", seconds * 1e3);
  else sprintf(buffer, "%.1f µs", seconds * 1e6);
  return buffer;
}

static void report(const char *name, double *values, int n) {
  qsort(values, n, sizeof(double), compare);
  char a[32], b[32];
  printf("%-30s%s median, %s p99 (%d)\n", name, show(values[(n - 1) / 2], a), show(values[(int)(n * 0.99)], b), n);
}

static long file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

// One write as the store makes it: one more use of a word, in its own transaction.
static void learn(sqlite3_stmt *upsert, const char *word, int64_t sequence) {
  sqlite3_bind_text(upsert, 1, word, -1, SQLITE_STATIC);
  sqlite3_bind_int64(upsert, 2, sequence);
  int rc = sqlite3_step(upsert);
  if (rc != SQLITE_DONE) { fprintf(stderr, "sqlite: upsert failed: %d\n", rc); exit(1); }
  sqlite3_reset(upsert);
}

static const char *upsert_sql =
    "INSERT INTO words(word, kind, uses, last_use) VALUES(?1, 2, 1, ?2)"
    " ON CONFLICT(word) DO UPDATE SET uses = uses + 1, last_use = ?2";

static int bench(const char *path, int entries, int writes) {
  char wal[4096];
  snprintf(wal, sizeof wal, "%s-wal", path);
  unlink(path);
  unlink(wal);
  sqlite3 *db = open_db(path, "NORMAL");
  char word[32];
  double started = now();
  check(sqlite3_exec(db, "BEGIN", 0, 0, 0), db, "begin");
  sqlite3_stmt *insert;
  check(sqlite3_prepare_v2(db, "INSERT INTO words VALUES(?, 2, 1, ?)", -1, &insert, 0), db, "prepare");
  for (int i = 0; i < entries; i++) {
    snprintf(word, sizeof word, "word%05d", i);
    sqlite3_bind_text(insert, 1, word, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(insert, 2, i + 1);
    check(sqlite3_step(insert), db, "insert");
    sqlite3_reset(insert);
  }
  sqlite3_finalize(insert);
  check(sqlite3_exec(db, "COMMIT", 0, 0, 0), db, "commit");
  check(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", 0, 0, 0), db, "checkpoint");
  double populate = now() - started;
  long compacted = file_size(path) + file_size(wal);

  double opens[21];
  for (int r = 0; r < 21; r++) {
    double t0 = now();
    sqlite3 *reader = open_db(path, "NORMAL");
    Table t;
    table_init(&t, entries);
    table_load(&t, reader);
    opens[r] = now() - t0;
    if ((int)t.count != entries) { fprintf(stderr, "loaded %zu rows\n", t.count); return 1; }
    table_free(&t);
    sqlite3_close(reader);
  }

  sqlite3 *reader = open_db(path, "NORMAL");
  Table t;
  table_init(&t, entries);
  table_load(&t, reader);
  t.data_version = data_version(reader);
  sqlite3_stmt *upsert;
  check(sqlite3_prepare_v2(db, upsert_sql, -1, &upsert, 0), db, "prepare");
  double *write_times = malloc(sizeof(double) * writes), *refresh_times = malloc(sizeof(double) * writes);
  int64_t sequence = entries;
  long largest = 0;
  srand(1);
  for (int i = 0; i < writes; i++) {
    snprintf(word, sizeof word, "word%05d", rand() % entries);
    double t0 = now();
    learn(upsert, word, ++sequence);
    write_times[i] = now() - t0;
    double t1 = now();
    int version = data_version(reader);
    if (version != t.data_version) { t.data_version = version; table_load(&t, reader); }
    refresh_times[i] = now() - t1;
    long size = file_size(path) + file_size(wal);
    if (size > largest) largest = size;
  }
  sqlite3_finalize(upsert);
  sqlite3_close(db);

  sqlite3 *full = open_db(path, "FULL");
  check(sqlite3_prepare_v2(full, upsert_sql, -1, &upsert, 0), full, "prepare");
  int synced = writes / 10 < 10 ? 10 : writes / 10;
  double *sync_times = malloc(sizeof(double) * synced);
  for (int i = 0; i < synced; i++) {
    snprintf(word, sizeof word, "word%05d", rand() % entries);
    double t0 = now();
    learn(upsert, word, ++sequence);
    sync_times[i] = now() - t0;
  }
  sqlite3_finalize(upsert);
  sqlite3_close(full);

  char a[32];
  printf("store                         SQLite %s (WAL, synchronous=NORMAL; C API)\n", sqlite3_libversion());
  printf("entries                       %d (inserted in one transaction in %s)\n", entries, show(populate, a));
  report("open + load", opens, 21);
  report("one write acknowledged", write_times, writes);
  report("one write, synchronous=FULL", sync_times, synced);
  report("reader refresh after a write", refresh_times, writes);
  printf("%-30s%ld bytes (%.1f per entry), after a checkpoint\n", "file size, compacted", compacted,
         (double)compacted / entries);
  printf("%-30s%ld bytes (database + WAL, during the writes)\n", "file size, largest", largest);
  sqlite3_close(reader);
  table_free(&t);
  unlink(path);
  unlink(wal);
  char shm[4096];
  snprintf(shm, sizeof shm, "%s-shm", path);
  unlink(shm);
  return 0;
}

// The writer of the kill test: resumes after the last operation in the database and
// acknowledges each one on the pipe after its transaction committed.
static void writer(const char *path, int ops, int ack) {
  sqlite3 *db = open_db(path, "NORMAL");
  sqlite3_stmt *s;
  check(sqlite3_prepare_v2(db, "SELECT coalesce(max(last_use), 0) FROM words", -1, &s, 0), db, "prepare");
  sqlite3_step(s);
  int64_t start = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  int64_t message = -1 - start;  // negative: where this run starts
  if (write(ack, &message, sizeof message) != sizeof message) _exit(1);
  sqlite3_stmt *upsert;
  check(sqlite3_prepare_v2(db, upsert_sql, -1, &upsert, 0), db, "prepare");
  char word[32];
  for (int64_t i = start; i < ops; i++) {
    snprintf(word, sizeof word, "word%05d", (int)(i * 7919 % 400));
    learn(upsert, word, i + 1);
    if (write(ack, &i, sizeof i) != sizeof i) _exit(1);
  }
  _exit(0);
}

static int kill_test(const char *path, int ops, double kill_ms) {
  char wal[4096], shm[4096];
  snprintf(wal, sizeof wal, "%s-wal", path);
  snprintf(shm, sizeof shm, "%s-shm", path);
  unlink(path);
  unlink(wal);
  unlink(shm);
  sqlite3_close(open_db(path, "NORMAL"));
  double started = now();
  int64_t known = 0, lost = 0;
  int runs = 0, kills = 0;
  srand(2);
  while (known < ops) {
    int fds[2];
    if (pipe(fds) != 0) return 1;
    pid_t pid = fork();
    if (pid == 0) { close(fds[0]); writer(path, ops, fds[1]); }
    close(fds[1]);
    runs++;
    int64_t message;
    if (read(fds[0], &message, sizeof message) != sizeof message) { fprintf(stderr, "writer failed\n"); return 1; }
    int64_t start = -1 - message;
    if (start < known) lost += known - start;
    known = start;
    usleep((useconds_t)(1000 + (kill_ms - 1) * 1000 * (rand() / (double)RAND_MAX)));
    kill(pid, SIGKILL);
    kills++;
    while (read(fds[0], &message, sizeof message) == sizeof message) known = message + 1;
    close(fds[0]);
    waitpid(pid, NULL, 0);
  }
  sqlite3 *db = open_db(path, "NORMAL");
  sqlite3_stmt *s;
  sqlite3_prepare_v2(db, "SELECT max(last_use), sum(uses) FROM words", -1, &s, 0);
  sqlite3_step(s);
  int64_t last = sqlite3_column_int64(s, 0), uses = sqlite3_column_int64(s, 1);
  sqlite3_finalize(s);
  sqlite3_close(db);
  if (last != ops || uses != ops) lost++;
  printf("SQLite kill test: %d operations, %d writer runs, %d kills, lost %lld, %.1f s\n", ops, runs, kills,
         (long long)lost, now() - started);
  unlink(path);
  unlink(wal);
  unlink(shm);
  return lost != 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "bench") == 0)
    return bench(argv[2], argc > 3 ? atoi(argv[3]) : 20000, argc > 4 ? atoi(argv[4]) : 2000);
  if (argc >= 3 && strcmp(argv[1], "kill") == 0)
    return kill_test(argv[2], argc > 3 ? atoi(argv[3]) : 20000, argc > 4 ? atof(argv[4]) : 5);
  fprintf(stderr, "usage: %s bench DB [ENTRIES] [WRITES] | kill DB [OPS] [KILL_MS]\n", argv[0]);
  return 64;
}
