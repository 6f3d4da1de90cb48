/*
 * swipedict.h: the C API of SwipeDict.
 *
 * SwipeDict reads memory-mapped dictionaries built for swipe keyboards ("blobs", made by
 * `swipedict build`) and decodes swipes into words. This header is the whole C interface of
 * libswipedict (`make capi` builds build/lib/libswipedict.so, or .dylib on macOS, and copies
 * this file to build/include/). docs/c-api.md is its guide.
 *
 *     swipedict_dictionary *dict;
 *     if (swipedict_open("en.swipedict", 0, &dict) != SWIPEDICT_OK) {
 *       fprintf(stderr, "%s\n", swipedict_errmsg());
 *       return 1;
 *     }
 *     int64_t id;
 *     if (swipedict_lookup(dict, "hello", &id) == SWIPEDICT_OK) printf("hello is word %lld\n", (long long)id);
 *
 *     swipedict_session *swipe;
 *     swipedict_rect keys = {0, 8, 1080, 486};            // where the view draws the letter keys
 *     swipedict_session_create(dict, &keys, 0, &swipe);
 *     swipedict_session_add(swipe, 640, 120, 0.000);      // touches in view coordinates,
 *     swipedict_session_add(swipe, 300, 40, 0.016);       // time in seconds
 *     swipedict_suggestion top[4];
 *     size_t n;
 *     swipedict_session_end(swipe, 50000, top, 4, &n, NULL);   // the lift: 50 ms at most
 *     for (size_t i = 0; i < n; i++) printf("%s %.3f\n", top[i].word, top[i].score);
 *     swipedict_session_free(swipe);
 *     swipedict_close(dict);
 *
 * CONVENTIONS
 *
 * Status. Every function that can fail returns an int: SWIPEDICT_OK (0) on success, a
 * negative SWIPEDICT_E_* code on failure, or SWIPEDICT_NOT_FOUND (1), which is no failure:
 * the word, ID or entry asked for does not exist. After a failure, swipedict_errmsg() says
 * what went wrong in words (a file name, what is wrong with it, what to do).
 *
 * Handles. Dictionaries, sessions and user stores are opaque handles, made by one function
 * and released by its pair (swipedict_open/swipedict_close, swipedict_session_create/
 * swipedict_session_free, swipedict_user_open/swipedict_user_close). A handle is not a
 * pointer to memory: it names an entry of the library's handle table, with a generation
 * count. A handle that was released (or was never made, or is of another kind) is refused
 * with SWIPEDICT_E_HANDLE, never dereferenced: using a handle after its release, or
 * releasing it twice, is an error code, not a crash. Releasing NULL does nothing and
 * returns SWIPEDICT_OK. (The generation wraps after 2^20 reuses of one table entry on
 * 32-bit systems and 2^44 on 64-bit ones; only then could a stale handle name a new
 * object.)
 *
 * Memory. The library never keeps a pointer the caller passed in after the call returns,
 * and never returns memory the caller must free: results go into buffers the caller
 * provides, with their capacity. Strings in are NUL-terminated UTF-8 (invalid UTF-8 is
 * SWIPEDICT_E_ARGUMENT); strings out are NUL-terminated UTF-8. A word longer than
 * SWIPEDICT_WORD_CAPACITY - 1 bytes is cut at a character boundary in a result record;
 * its `length` field gives its whole length and swipedict_word() spells it whole.
 *
 * Robustness. No argument makes a call crash: NULL pointers are SWIPEDICT_E_NULL (where a
 * pointer is required), stale handles SWIPEDICT_E_HANDLE, out-of-range IDs
 * SWIPEDICT_NOT_FOUND, out-of-range indices and counts SWIPEDICT_E_RANGE, non-finite
 * coordinates are ignored, and a damaged blob gives SWIPEDICT_E_FORMAT at open or empty
 * answers where it is damaged (the loader never reads outside the file). Pointers that are
 * neither NULL nor valid (freed memory, a too-short buffer whose capacity is overstated)
 * cannot be detected by any C API.
 *
 * Threads. Every function may be called from any thread. A dictionary handle is shared
 * freely: its queries run in parallel on several threads. A session or a user store is
 * meant for one thread at a time (a keyboard's input thread, or its decoding thread);
 * calls on one from several threads at once are serialized by a lock inside it, so they are
 * safe but wait for each other. swipedict_errmsg() is per thread.
 *
 * Versions. SWIPEDICT_ABI_VERSION changes whenever a function, a record layout or a
 * constant of this header changes incompatibly; swipedict_abi_version() returns the
 * version the library was built with. Check both agree before using the library.
 */
#ifndef SWIPEDICT_H
#define SWIPEDICT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Versions ------------------------------------------------------------------------- */

/** The version of this header's interface (functions, records, constants). */
#define SWIPEDICT_ABI_VERSION 1

/**
 * The ABI version the library was built with: compare it with SWIPEDICT_ABI_VERSION.
 * Thread-safe; never fails.
 */
int swipedict_abi_version(void);

/**
 * The library's version and the newest blob format it reads, e.g.
 * "swipedict 0.1.0 (ABI 1, blob format 1.5)". A static string: do not free it.
 * Thread-safe; never fails.
 */
const char *swipedict_version(void);

/* ---- Status codes and messages ------------------------------------------------------------ */

/** Success. */
#define SWIPEDICT_OK 0
/** No failure: the word, ID or entry asked for does not exist (outputs are left untouched). */
#define SWIPEDICT_NOT_FOUND 1
/** A pointer argument that must not be NULL was NULL. */
#define SWIPEDICT_E_NULL (-1)
/** The handle is not open: released, never made, or a handle of another kind. */
#define SWIPEDICT_E_HANDLE (-2)
/** An argument is invalid: a string that is not UTF-8, a word the user store refuses, an
 *  empty or non-finite rectangle, a count out of range. */
#define SWIPEDICT_E_ARGUMENT (-3)
/** An index is out of range (a layout key index). */
#define SWIPEDICT_E_RANGE (-4)
/** The system refused a file operation (open, map, read, write). */
#define SWIPEDICT_E_IO (-5)
/** The file is not a valid blob or user dictionary: damaged, truncated, another format, a
 *  newer major version. */
#define SWIPEDICT_E_FORMAT (-6)
/** The output buffer is too small (swipedict_word: the length needed is returned). */
#define SWIPEDICT_E_BUFFER (-7)
/** A write to a user store this process may only read (its file or directory is read-only). */
#define SWIPEDICT_E_READ_ONLY (-8)
/** Another process held the user store's lock too long; nothing was written: try later. */
#define SWIPEDICT_E_BUSY (-9)
/** The blob lacks what the call needs (swipe features for a session). */
#define SWIPEDICT_E_UNSUPPORTED (-10)
/** Too many handles are open (over a million on 64-bit systems, 4,095 on 32-bit ones). */
#define SWIPEDICT_E_LIMIT (-11)

/**
 * A fixed description of a status code ("a pointer argument was NULL"); "unknown status"
 * for a code this header does not define. A static string. Thread-safe.
 */
const char *swipedict_errstr(int status);

/**
 * What the last failing call on this thread said, in words: the status's description and
 * the details (a path, what is wrong with a file and where, what to do). "" when no call on
 * this thread has failed yet. Successful calls leave it as it is.
 *
 * Ownership: the library's, per thread; valid until the next failing call on the same
 * thread. Copy it to keep it.
 */
const char *swipedict_errmsg(void);

/* ---- Records ------------------------------------------------------------------------------ */

/** The bytes a record holds of a word, its terminating NUL included. */
#define SWIPEDICT_WORD_CAPACITY 264

/** The most results any query returns, whatever capacity it is given. */
#define SWIPEDICT_MAX_RESULTS 1000

/** A word suggested by completion, correction, next-word prediction or a swipe. */
typedef struct swipedict_suggestion {
  /** The word's ID: 0 ≤ id < word count for a word of the blob, from the word count up for
   *  a user's word the blob lacks (swipedict_use_user_words). */
  int64_t id;
  /** The score the answer is ranked by, higher is better; comparable within one answer
   *  only. Completion, correction: the frequency byte less the edit cost in the blob's
   *  frequency steps; next words: the pair's frequency byte; swipes: frequency weight x
   *  ln(count) - distance. */
  double score;
  /** Correction: the edit cost; swipes: the mean squared distance between the swipe and
   *  the word's ideal path, in key widths squared; completion and next words: 0. */
  double distance;
  /** The word's frequency byte, 0 to 255 on a log scale (raised by the user's uses). */
  uint32_t frequency;
  /** The word's whole length in bytes, without the NUL; at least SWIPEDICT_WORD_CAPACITY
   *  when `word` holds only its beginning. */
  uint32_t length;
  /** The word, NUL-terminated UTF-8. */
  char word[SWIPEDICT_WORD_CAPACITY];
} swipedict_suggestion;

/** A rectangle in a view's coordinates (points, pixels: whatever the view measures in). */
typedef struct swipedict_rect {
  double x;      /**< the left edge */
  double y;      /**< the top edge (y grows downwards) */
  double width;  /**< positive */
  double height; /**< positive */
} swipedict_rect;

/** A touch: where, in a view's coordinates, and when, in seconds (NAN: unknown). */
typedef struct swipedict_point {
  double x;
  double y;
  double time;
} swipedict_point;

/** What a blob's keyboard layout is: its name, unit, key width and the keys' extent. */
typedef struct swipedict_layout_info {
  /** The keys' bounding rectangle in layout units: from the left edge of the leftmost key
   *  to the right edge of the rightmost, the top of the top row to the bottom of the
   *  bottom row. A view that draws the keys in a rectangle passes it as the key area. */
  double min_x, min_y, max_x, max_y;
  /** The layout's key width, the decoder's unit of length. */
  double key_width;
  /** The number of keys (swipedict_layout_key takes 0 to key_count - 1). */
  uint32_t key_count;
  uint32_t reserved;
  /** The layout's name ("qwerty-en") and unit ("pt"), NUL-terminated, cut when longer. */
  char name[64];
  char unit[16];
} swipedict_layout_info;

/** One key of a blob's layout, in layout units. */
typedef struct swipedict_key {
  double x, y;          /**< the key's center */
  double width, height; /**< its size */
  uint32_t codepoint;   /**< the (lowercase) character it types, a Unicode scalar value */
  uint32_t reserved;
} swipedict_key;

/** What a swipe's decoding took (swipedict_session_end). */
typedef struct swipedict_swipe_info {
  /** The points the decoder got (after stray points were dropped). */
  uint32_t point_count;
  /** Points dropped as stray (far from both neighbours) or for a non-finite coordinate. */
  uint32_t dropped_point_count;
  /** Words that passed the decoder's filters, and how many of them were matched. */
  uint32_t candidate_count;
  uint32_t matched_count;
  /** 1 when every candidate was matched; 0 when the deadline cut the search short. */
  int32_t is_complete;
  /** 1 when points past the most a swipe takes (2,000) were ignored. */
  int32_t is_truncated;
} swipedict_swipe_info;

/* ---- Dictionaries ------------------------------------------------------------------------- */

/** An open blob. */
typedef struct swipedict_dictionary swipedict_dictionary;

/** swipedict_open flag: also check every checksum and the automaton's structure (reads the
 *  whole file; for a blob just downloaded). */
#define SWIPEDICT_OPEN_VERIFY 1u
/** swipedict_open flag: offer words the blob marks possibly offensive (by default they stay
 *  words, found by swipedict_lookup, but are never suggested). */
#define SWIPEDICT_OPEN_SUGGEST_OFFENSIVE 2u

/**
 * Opens a blob: maps the file read-only and checks its header, section table and the
 * sections' bounds (O(1) in the size of the dictionary, unless SWIPEDICT_OPEN_VERIFY).
 *
 * @param path   the blob's path, NUL-terminated.
 * @param flags  0, or SWIPEDICT_OPEN_* flags or-ed together (unknown bits: ARGUMENT).
 * @param out    receives the handle; set to NULL on failure.
 * @return OK; E_NULL; E_ARGUMENT (path not UTF-8, unknown flag); E_IO (the file cannot be
 *         opened or mapped); E_FORMAT (not a valid blob: the message names the section and
 *         the byte offset); E_LIMIT.
 *
 * Ownership: the caller owns the handle; release it with swipedict_close. The mapping lives
 * until the handle and every session made from it are released. Replace a blob file only
 * by renaming a new file over it: a file changed or cut short in place changes the bytes
 * under every process that has it mapped.
 * Threads: any thread.
 */
int swipedict_open(const char *path, uint32_t flags, swipedict_dictionary **out);

/**
 * Opens a blob held in memory (an Android asset, a download, a fuzzer's input): the bytes
 * are copied once into an aligned buffer the handle owns.
 *
 * @param bytes   the blob's bytes (may be NULL when length is 0).
 * @param length  their number.
 * @param flags   as swipedict_open.
 * @param out     receives the handle; set to NULL on failure.
 * @return OK; E_NULL; E_ARGUMENT; E_FORMAT; E_LIMIT.
 *
 * Ownership: the caller keeps `bytes` (the library copied them) and owns the handle.
 * Threads: any thread.
 */
int swipedict_open_bytes(const void *bytes, size_t length, uint32_t flags, swipedict_dictionary **out);

/**
 * Releases a dictionary handle. Sessions made from it keep working (they hold the mapping)
 * until they are freed.
 *
 * @return OK (also for NULL); E_HANDLE for a handle already released or not a dictionary.
 * Threads: any thread; a query running on another thread finishes normally, and calls made
 * after this one returned get E_HANDLE.
 */
int swipedict_close(swipedict_dictionary *dict);

/**
 * The number of words in the blob (word IDs are 0 to count - 1).
 * @return OK; E_NULL; E_HANDLE.
 */
int swipedict_word_count(const swipedict_dictionary *dict, int64_t *count);

/**
 * Looks a word up exactly (case and accents as given).
 *
 * @param word  NUL-terminated UTF-8.
 * @param id    receives the word's ID when found.
 * @return OK; NOT_FOUND when the blob lacks the word; E_NULL; E_HANDLE; E_ARGUMENT (not
 *         UTF-8).
 * Threads: any thread, in parallel with other queries. Cost: O(length of the word).
 */
int swipedict_lookup(const swipedict_dictionary *dict, const char *word, int64_t *id);

/**
 * Spells the word with an ID (a blob word for 0 to count - 1; from count up, a user's word
 * the blob lacks, once swipedict_use_user_words gave them).
 *
 * @param id        any value: IDs that name no word are NOT_FOUND.
 * @param buffer    receives the word, NUL-terminated; may be NULL when capacity is 0.
 * @param capacity  the buffer's size in bytes.
 * @param length    receives the word's length in bytes without the NUL (may be NULL).
 * @return OK; NOT_FOUND; E_NULL; E_HANDLE; E_BUFFER when capacity < length + 1 (nothing
 *         is written to buffer; *length says what is needed).
 */
int swipedict_word(const swipedict_dictionary *dict, int64_t id, char *buffer, size_t capacity, size_t *length);

/**
 * The frequency byte (0 to 255, log scale) a word's queries rank by: the blob's, raised by
 * the user's uses.
 * @return OK; NOT_FOUND for an ID that names no word; E_NULL; E_HANDLE.
 */
int swipedict_frequency(const swipedict_dictionary *dict, int64_t id, uint32_t *frequency);

/**
 * The words that start with a prefix, ignoring case and accents ("uber" finds "Über"), most
 * likely first: by frequency, the user's uses and, given a previous word, their count after
 * it. The empty prefix gives the most frequent words (or, after a previous word, its most
 * likely followers). Words that must not be suggested (blocked by the user; marked
 * offensive, unless SWIPEDICT_OPEN_SUGGEST_OFFENSIVE) are left out. A prefix longer than
 * 128 characters (no word of a blob is longer) gets none.
 *
 * @param prefix    NUL-terminated UTF-8.
 * @param previous  the word before, NUL-terminated, or NULL for none (ranks by word pairs
 *                  when the blob was built with --bigrams; ignored otherwise).
 * @param out       receives up to min(capacity, SWIPEDICT_MAX_RESULTS) suggestions, best
 *                  first; may be NULL when capacity is 0.
 * @param count     receives how many were written.
 * @return OK (also when none match: *count is 0); E_NULL; E_HANDLE; E_ARGUMENT.
 * Threads: any thread, in parallel with other queries.
 */
int swipedict_complete(const swipedict_dictionary *dict, const char *prefix, const char *previous,
                       swipedict_suggestion *out, size_t capacity, size_t *count);

/**
 * The words the user most likely meant by a typed word, best first: slips to neighbouring
 * keys, omissions, swaps, weighed against frequency, the user's uses and the previous word.
 * The typed word itself comes first when it is a likely word; whitelisted corrections of an
 * AOSP list lead. Typed text longer than 128 characters gets none (correction's time grows
 * with its length).
 *
 * Arguments and result as swipedict_complete. The corrector is prepared on the first call
 * (a pass over the frequencies, about a millisecond on 300,000 words) and kept.
 */
int swipedict_correct(const swipedict_dictionary *dict, const char *typed, const char *previous,
                      swipedict_suggestion *out, size_t capacity, size_t *count);

/**
 * The words most likely to follow a word (from a blob built with word pairs), best first;
 * none when the blob has no pairs or does not know the word.
 *
 * Arguments and result as swipedict_complete, with `previous` required.
 */
int swipedict_next_words(const swipedict_dictionary *dict, const char *previous, swipedict_suggestion *out,
                         size_t capacity, size_t *count);

/* ---- The layout and the coordinate mapping ------------------------------------------------ */

/**
 * The blob's keyboard layout: name, unit, key width, the keys' bounding rectangle.
 * @return OK; E_NULL; E_HANDLE.
 */
int swipedict_layout(const swipedict_dictionary *dict, swipedict_layout_info *info);

/**
 * One key of the blob's layout.
 * @param index  0 to key_count - 1; any other value is E_RANGE.
 * @return OK; E_NULL; E_HANDLE; E_RANGE.
 */
int swipedict_layout_key(const swipedict_dictionary *dict, int64_t index, swipedict_key *key);

/*
 * The coordinate mapping. A view draws the layout's keys stretched over a rectangle, its
 * key area (in the view's coordinates: from the left edge of the leftmost key to the right
 * edge of the rightmost, the top of the top row to the bottom of the bottom row, without a
 * space bar row the layout does not have). A touch maps to layout units by scaling x and y
 * separately, as the view stretched the keys. A NULL key area means the layout's own
 * rectangle: points in layout units map to themselves. Sessions map their points the same
 * way (swipedict_session_create).
 */

/**
 * Maps a point of the view to layout units (not clamped: it may lie off the keys).
 * @param key_area  where the view draws the keys, or NULL for layout units.
 * @return OK; E_NULL (dict or an output); E_HANDLE; E_ARGUMENT (a key area that is empty or
 *         not finite).
 */
int swipedict_map_to_layout(const swipedict_dictionary *dict, const swipedict_rect *key_area, double view_x,
                            double view_y, double *layout_x, double *layout_y);

/** The inverse of swipedict_map_to_layout: a layout point in the view. Same results. */
int swipedict_map_to_view(const swipedict_dictionary *dict, const swipedict_rect *key_area, double layout_x,
                          double layout_y, double *view_x, double *view_y);

/**
 * Moves a layout point onto the keys' rectangle (a coordinate past an edge becomes the
 * edge), as sessions do with every point.
 * @param x, y  in and out, in layout units.
 * @return OK; E_NULL; E_HANDLE.
 */
int swipedict_clamp_to_keys(const swipedict_dictionary *dict, double *x, double *y);

/* ---- Swipe sessions ----------------------------------------------------------------------- */

/** One swipe at a time being decoded, fed touch by touch. */
typedef struct swipedict_session swipedict_session;

/** swipedict_session_end's deadline meaning "match every candidate". */
#define SWIPEDICT_NO_DEADLINE (-1)

/** swipedict_session_create flag: hand the points to the decoder as they are, only mapped by
 *  the key area: no stray point dropped, none clamped onto the keys, no bound on their
 *  number. What `swipedict decode` does with a recorded swipe in layout units: for
 *  evaluating the decoder on swipe files (examples/c/decode.c, Python's Dictionary.decode).
 *  A keyboard leaves it off. */
#define SWIPEDICT_SESSION_UNFILTERED 1u

/**
 * Makes a session over a dictionary: the reference decoder, with the touch trace of the
 * keyboard engine in front of it. Each point added goes through the coordinate mapping;
 * then a point far from both its neighbours (more than 4 key widths: a palm, a second
 * finger) is dropped, the rest are clamped onto the keys, times become milliseconds since
 * the first point and never decrease, and at most 2,000 points reach the decoder (each
 * point reaches it one touch late, when the next one shows whether it was stray). While the
 * finger moves, the decoder reduces the points and scans the dictionary for the words that
 * start there (bounded work per point); the lift (swipedict_session_end) finishes.
 *
 * @param dict      the dictionary; the session keeps its mapping (the dictionary may be
 *                  closed before the session is freed).
 * @param key_area  where the view draws the keys, or NULL for points in layout units.
 * @param flags     0, or SWIPEDICT_SESSION_UNFILTERED.
 * @param out       receives the handle; NULL on failure.
 * @return OK; E_NULL; E_HANDLE; E_ARGUMENT (bad key area, unknown flag); E_UNSUPPORTED (a
 *         blob without swipe features); E_LIMIT.
 * Ownership: the caller's; release with swipedict_session_free.
 * Threads: a session is for one thread at a time (calls from several are serialized).
 */
int swipedict_session_create(swipedict_dictionary *dict, const swipedict_rect *key_area, uint32_t flags,
                             swipedict_session **out);

/** Releases a session. OK (also for NULL); E_HANDLE for one already released. */
int swipedict_session_free(swipedict_session *session);

/**
 * Sets where the view draws the keys (rotation, a new size), from the next swipe on.
 * @param key_area  the new rectangle, or NULL for layout units.
 * @return OK; E_NULL; E_HANDLE; E_ARGUMENT (empty or not finite: the old one stays).
 */
int swipedict_session_set_key_area(swipedict_session *session, const swipedict_rect *key_area);

/**
 * Sets the previous word (the last one committed), which ranks the session's next swipes
 * by its word pairs (a blob built with --bigrams); NULL forgets it (a new text field).
 * @return OK; E_NULL (session); E_HANDLE; E_ARGUMENT (not UTF-8).
 */
int swipedict_session_set_previous_word(swipedict_session *session, const char *word);

/**
 * Sets how many words a swipe answers (4 by default): 1 to SWIPEDICT_MAX_RESULTS, from
 * the next swipe on.
 * @return OK; E_NULL; E_HANDLE; E_RANGE.
 */
int swipedict_session_set_result_count(swipedict_session *session, size_t count);

/**
 * Adds the next touch of the swipe (the first one after a lift, a cancel or the session's
 * creation begins a new swipe).
 * @param x, y  where, in the view's coordinates (non-finite points are dropped).
 * @param time  when, in seconds from any origin (UITouch.timestamp; on Android
 *              MotionEvent.getEventTime() / 1000.0), or NAN.
 * @return OK; E_NULL; E_HANDLE.
 * Cost: bounded (at most 65,536 words of the start scan per point: a fraction of a
 * millisecond).
 */
int swipedict_session_add(swipedict_session *session, double x, double y, double time);

/** swipedict_session_add for `count` points in order (NULL only with count 0). */
int swipedict_session_add_points(swipedict_session *session, const swipedict_point *points, size_t count);

/**
 * The lift: filters and matches the swipe, writes its best words, and resets the session
 * for the next swipe. A session without points answers no words.
 *
 * @param deadline_us  how long the matching may take from this call, in microseconds
 *                     (values above an hour count as an hour), or SWIPEDICT_NO_DEADLINE
 *                     (any negative value) to match every candidate. A keyboard gives
 *                     about 50,000: the best words found by then come back.
 * @param out          receives up to min(capacity, result count) words, best first; NULL
 *                     only with capacity 0.
 * @param count        receives how many were written.
 * @param info         receives what the decoding took, or NULL.
 * @return OK; E_NULL; E_HANDLE.
 * Threads: call it on the thread that decodes (not a UI thread): it takes up to the
 * deadline.
 */
int swipedict_session_end(swipedict_session *session, int64_t deadline_us, swipedict_suggestion *out,
                          size_t capacity, size_t *count, swipedict_swipe_info *info);

/** Drops the swipe under way (a system gesture took the touch). OK; E_NULL; E_HANDLE. */
int swipedict_session_cancel(swipedict_session *session);

/* ---- The user's words --------------------------------------------------------------------- */

/** A user dictionary: the words a user added, learned from use, or blocked, in one file that
 *  several processes (a keyboard and its settings app) read and write. */
typedef struct swipedict_user_store swipedict_user_store;

/** swipedict_user_open flag: fail with E_IO when the file is missing, instead of creating it. */
#define SWIPEDICT_USER_NO_CREATE 1u
/** swipedict_user_open flag: flush every write to the disk (fsync), so that it survives a
 *  power loss, not only the process being killed. */
#define SWIPEDICT_USER_SYNC 2u

/** An entry's kind (swipedict_user_entry.kind). */
#define SWIPEDICT_USER_ADDED 1
#define SWIPEDICT_USER_LEARNED 2
#define SWIPEDICT_USER_BLOCKED 3

/** One entry of a user dictionary. */
typedef struct swipedict_user_entry {
  /** SWIPEDICT_USER_ADDED, _LEARNED or _BLOCKED. */
  int32_t kind;
  /** The word's length in bytes without the NUL (user words are at most 64 characters,
   *  so they always fit). */
  uint32_t length;
  /** How often the user used it. */
  int64_t uses;
  /** The write that last touched it (a sequence number: larger is more recent). */
  uint64_t last_use;
  /** The word, NUL-terminated UTF-8 (NFC). */
  char word[SWIPEDICT_WORD_CAPACITY];
} swipedict_user_entry;

/**
 * Opens (or creates) a user dictionary file: an append-only checksummed log, written under
 * a file lock, read without one. A file or directory this process may not write opens
 * read-only (swipedict_user_is_read_only); writes then fail with E_READ_ONLY.
 *
 * @param path   the file; its directory must exist. Not a symbolic link.
 * @param flags  0 or SWIPEDICT_USER_* flags.
 * @param out    receives the handle; NULL on failure.
 * @return OK; E_NULL; E_ARGUMENT; E_IO; E_FORMAT (not a user dictionary, damaged header,
 *         newer version, too large); E_LIMIT.
 * Ownership: the caller's; release with swipedict_user_close (which closes the file).
 * Threads: one thread at a time (calls from several are serialized). Each process, or
 * each thread that writes, opens its own.
 */
int swipedict_user_open(const char *path, uint32_t flags, swipedict_user_store **out);

/** Closes a user store. OK (also for NULL); E_HANDLE for one already closed. */
int swipedict_user_close(swipedict_user_store *store);

/**
 * Adds a word as the user's own (a name, slang): it completes, corrects and swipes like a
 * blob word once given to a dictionary (swipedict_use_user_words). A blocked word is
 * unblocked.
 * @param uses  its use count, or a negative value to keep the count it has (0 for a new one).
 * @return OK; E_NULL; E_HANDLE; E_ARGUMENT (not a word: empty, over 64 characters,
 *         whitespace, a control character); E_READ_ONLY; E_BUSY; E_IO.
 */
int swipedict_user_add(swipedict_user_store *store, const char *word, int64_t uses);

/** One more use of a word (a learned word is created when it has no entry). Results as
 *  swipedict_user_add. */
int swipedict_user_learn(swipedict_user_store *store, const char *word);

/** Takes one use back, as after the user deleted a word just committed (a learned word with
 *  no use left is forgotten; a word without an entry is left alone). As swipedict_user_add. */
int swipedict_user_unlearn(swipedict_user_store *store, const char *word);

/** Blocks a word: never suggested again, whatever a dictionary says. As swipedict_user_add. */
int swipedict_user_block(swipedict_user_store *store, const char *word);

/** Removes a word's entry (unblocks a blocked one). NOT_FOUND when it has none. */
int swipedict_user_remove(swipedict_user_store *store, const char *word);

/**
 * Picks up what other processes wrote (the settings app): reads only the bytes appended
 * since the last read.
 * @param changed  receives 1 when the entries changed, else 0 (may be NULL).
 * @return OK; E_NULL; E_HANDLE; E_IO; E_FORMAT (the file was replaced by something else).
 */
int swipedict_user_refresh(swipedict_user_store *store, int *changed);

/** The number of entries. OK; E_NULL; E_HANDLE. */
int swipedict_user_count(swipedict_user_store *store, size_t *count);

/**
 * The entries, least recently used first.
 * @param out       receives up to `capacity` entries; NULL only with capacity 0.
 * @param count     receives how many were written (the total is swipedict_user_count).
 * @return OK; E_NULL; E_HANDLE.
 */
int swipedict_user_entries(swipedict_user_store *store, swipedict_user_entry *out, size_t capacity,
                           size_t *count);

/** A word's entry (exactly as written, after NFC). OK; NOT_FOUND; E_NULL; E_HANDLE; E_ARGUMENT. */
int swipedict_user_get(swipedict_user_store *store, const char *word, swipedict_user_entry *entry);

/** Whether writes are refused (the file or its directory is read-only for this process):
 *  *read_only is 1 or 0. OK; E_NULL; E_HANDLE. */
int swipedict_user_is_read_only(swipedict_user_store *store, int *read_only);

/**
 * Gives a dictionary the user's words as the store holds them now (call it again after
 * writes and refreshes): blocked words are never suggested, uses raise a word, and added or
 * learned words the blob lacks complete, correct and swipe like its words, under IDs from
 * the word count up. NULL takes them away. Costs a pass over the blob's frequencies.
 *
 * Sessions of the dictionary see the words from their next swipe; queries running on other
 * threads finish with the words they started with.
 * @return OK; E_NULL (dict); E_HANDLE (either handle).
 */
int swipedict_use_user_words(swipedict_dictionary *dict, swipedict_user_store *store);

#ifdef __cplusplus
}
#endif

#endif /* SWIPEDICT_H */
