/*
 * swipedict_jni.c: the JNI glue between SwipeDict.kt and libswipedict (include/swipedict.h).
 *
 * A sketch to start an Android keyboard from, NOT BUILT OR TESTED HERE: this repository's
 * machines have no Android SDK or NDK (Tests/CAPI/run.sh only checks that it compiles
 * against a desktop JDK's jni.h). docs/c-api.md ("Android") says how to build it with the
 * Swift SDK for Android and the NDK.
 *
 * Strings cross as UTF-8 byte arrays, never through GetStringUTFChars/NewStringUTF: those
 * speak Java's "modified UTF-8", which encodes characters outside the BMP (emoji) as two
 * surrogates and NUL as two bytes, neither of which is UTF-8. Handles cross as jlong.
 * A failure throws java.lang.IllegalStateException with swipedict_errmsg()'s text (a
 * released handle cannot crash here either: the library refuses it).
 */
#include <jni.h>
#include <stdlib.h>
#include <string.h>

#include "swipedict.h"

#define RESULTS 32

/* Throws IllegalStateException with the library's message; returns 1 when status failed. */
static int failed(JNIEnv *env, int status) {
  if (status >= 0) return 0;
  jclass type = (*env)->FindClass(env, "java/lang/IllegalStateException");
  if (type) (*env)->ThrowNew(env, type, swipedict_errmsg());
  return 1;
}

/* A NUL-terminated copy of a Java byte array (UTF-8); NULL for null (free() it). */
static char *utf8(JNIEnv *env, jbyteArray bytes) {
  if (!bytes) return NULL;
  jsize length = (*env)->GetArrayLength(env, bytes);
  char *text = malloc((size_t)length + 1);
  if (!text) return NULL;
  (*env)->GetByteArrayRegion(env, bytes, 0, length, (jbyte *)text);
  text[length] = 0;
  return text;
}

/* The suggestions' words as byte[][] (the Kotlin side decodes them as UTF-8). */
static jobjectArray words(JNIEnv *env, const swipedict_suggestion *found, size_t count) {
  jclass bytes_type = (*env)->FindClass(env, "[B");
  if (!bytes_type) return NULL;
  jobjectArray array = (*env)->NewObjectArray(env, (jsize)count, bytes_type, NULL);
  for (size_t i = 0; array && i < count; i++) {
    jsize length = (jsize)strlen(found[i].word);
    jbyteArray word = (*env)->NewByteArray(env, length);
    if (!word) return NULL;
    (*env)->SetByteArrayRegion(env, word, 0, length, (const jbyte *)found[i].word);
    (*env)->SetObjectArrayElement(env, array, (jsize)i, word);
    (*env)->DeleteLocalRef(env, word);
  }
  return array;
}

static jint capacity(jint limit) { return limit < 0 ? 0 : limit > RESULTS ? RESULTS : limit; }

/* ---- org.swipedict.SwipeDictionary ----------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_org_swipedict_SwipeDictionary_nativeOpen(JNIEnv *env, jclass type, jbyteArray path) {
  (void)type;
  char *text = utf8(env, path);
  swipedict_dictionary *dict = NULL;
  int status = swipedict_open(text, 0, &dict);
  free(text);
  return failed(env, status) ? 0 : (jlong)(intptr_t)dict;
}

JNIEXPORT void JNICALL Java_org_swipedict_SwipeDictionary_nativeClose(JNIEnv *env, jclass type, jlong dict) {
  (void)env;
  (void)type;
  swipedict_close((swipedict_dictionary *)(intptr_t)dict);
}

JNIEXPORT jlong JNICALL Java_org_swipedict_SwipeDictionary_nativeLookup(JNIEnv *env, jclass type, jlong dict,
                                                                        jbyteArray word) {
  (void)type;
  char *text = utf8(env, word);
  int64_t id = -1;
  int status = swipedict_lookup((swipedict_dictionary *)(intptr_t)dict, text, &id);
  free(text);
  if (failed(env, status)) return -1;
  return status == SWIPEDICT_OK ? (jlong)id : -1;
}

/* kind: 0 complete, 1 correct, 2 next words. */
JNIEXPORT jobjectArray JNICALL Java_org_swipedict_SwipeDictionary_nativeSuggest(JNIEnv *env, jclass type, jlong dict,
                                                                                jint kind, jbyteArray input,
                                                                                jbyteArray previous, jint limit) {
  (void)type;
  char *text = utf8(env, input), *before = utf8(env, previous);
  swipedict_suggestion found[RESULTS];
  size_t count = 0;
  swipedict_dictionary *d = (swipedict_dictionary *)(intptr_t)dict;
  int status = kind == 0   ? swipedict_complete(d, text, before, found, (size_t)capacity(limit), &count)
               : kind == 1 ? swipedict_correct(d, text, before, found, (size_t)capacity(limit), &count)
                           : swipedict_next_words(d, text, found, (size_t)capacity(limit), &count);
  free(text);
  free(before);
  return failed(env, status) ? NULL : words(env, found, count);
}

JNIEXPORT void JNICALL Java_org_swipedict_SwipeDictionary_nativeUseUserWords(JNIEnv *env, jclass type, jlong dict,
                                                                             jlong store) {
  (void)type;
  failed(env, swipedict_use_user_words((swipedict_dictionary *)(intptr_t)dict,
                                       (swipedict_user_store *)(intptr_t)store));
}

/* ---- org.swipedict.SwipeSession ------------------------------------------------------------ */

JNIEXPORT jlong JNICALL Java_org_swipedict_SwipeSession_nativeCreate(JNIEnv *env, jclass type, jlong dict, jdouble x,
                                                                     jdouble y, jdouble width, jdouble height) {
  (void)type;
  swipedict_rect keys = {x, y, width, height};
  swipedict_session *session = NULL;
  int status = swipedict_session_create((swipedict_dictionary *)(intptr_t)dict, &keys, 0, &session);
  return failed(env, status) ? 0 : (jlong)(intptr_t)session;
}

JNIEXPORT void JNICALL Java_org_swipedict_SwipeSession_nativeFree(JNIEnv *env, jclass type, jlong session) {
  (void)env;
  (void)type;
  swipedict_session_free((swipedict_session *)(intptr_t)session);
}

JNIEXPORT void JNICALL Java_org_swipedict_SwipeSession_nativeSetKeyArea(JNIEnv *env, jclass type, jlong session,
                                                                        jdouble x, jdouble y, jdouble width,
                                                                        jdouble height) {
  (void)type;
  swipedict_rect keys = {x, y, width, height};
  failed(env, swipedict_session_set_key_area((swipedict_session *)(intptr_t)session, &keys));
}

JNIEXPORT void JNICALL Java_org_swipedict_SwipeSession_nativeSetPreviousWord(JNIEnv *env, jclass type, jlong session,
                                                                             jbyteArray word) {
  (void)type;
  char *text = utf8(env, word);
  int status = swipedict_session_set_previous_word((swipedict_session *)(intptr_t)session, text);
  free(text);
  failed(env, status);
}

/* Points as x0, y0, t0, x1, y1, t1, ... (t in seconds): a MotionEvent's history in one call. */
JNIEXPORT void JNICALL Java_org_swipedict_SwipeSession_nativeAdd(JNIEnv *env, jclass type, jlong session,
                                                                 jdoubleArray points) {
  (void)type;
  jsize length = (*env)->GetArrayLength(env, points);
  jdouble *values = (*env)->GetDoubleArrayElements(env, points, NULL);
  if (!values) return;
  int status = SWIPEDICT_OK;
  for (jsize i = 0; i + 2 < length && status == SWIPEDICT_OK; i += 3)
    status = swipedict_session_add((swipedict_session *)(intptr_t)session, values[i], values[i + 1], values[i + 2]);
  (*env)->ReleaseDoubleArrayElements(env, points, values, JNI_ABORT);
  failed(env, status);
}

JNIEXPORT jobjectArray JNICALL Java_org_swipedict_SwipeSession_nativeEnd(JNIEnv *env, jclass type, jlong session,
                                                                         jlong deadline_us, jint limit) {
  (void)type;
  swipedict_suggestion found[RESULTS];
  size_t count = 0;
  int status = swipedict_session_end((swipedict_session *)(intptr_t)session, (int64_t)deadline_us, found,
                                     (size_t)capacity(limit), &count, NULL);
  return failed(env, status) ? NULL : words(env, found, count);
}

JNIEXPORT void JNICALL Java_org_swipedict_SwipeSession_nativeCancel(JNIEnv *env, jclass type, jlong session) {
  (void)type;
  failed(env, swipedict_session_cancel((swipedict_session *)(intptr_t)session));
}

/* ---- org.swipedict.UserStore --------------------------------------------------------------- */

JNIEXPORT jlong JNICALL Java_org_swipedict_UserStore_nativeOpen(JNIEnv *env, jclass type, jbyteArray path) {
  (void)type;
  char *text = utf8(env, path);
  swipedict_user_store *store = NULL;
  int status = swipedict_user_open(text, 0, &store);
  free(text);
  return failed(env, status) ? 0 : (jlong)(intptr_t)store;
}

JNIEXPORT void JNICALL Java_org_swipedict_UserStore_nativeClose(JNIEnv *env, jclass type, jlong store) {
  (void)env;
  (void)type;
  swipedict_user_close((swipedict_user_store *)(intptr_t)store);
}

/* change: 0 learn, 1 unlearn, 2 block, 3 add. */
JNIEXPORT void JNICALL Java_org_swipedict_UserStore_nativeChange(JNIEnv *env, jclass type, jlong store, jint change,
                                                                 jbyteArray word) {
  (void)type;
  char *text = utf8(env, word);
  swipedict_user_store *s = (swipedict_user_store *)(intptr_t)store;
  int status = change == 0   ? swipedict_user_learn(s, text)
               : change == 1 ? swipedict_user_unlearn(s, text)
               : change == 2 ? swipedict_user_block(s, text)
                             : swipedict_user_add(s, text, -1);
  free(text);
  failed(env, status);
}

JNIEXPORT jboolean JNICALL Java_org_swipedict_UserStore_nativeRefresh(JNIEnv *env, jclass type, jlong store) {
  (void)type;
  int changed = 0;
  int status = swipedict_user_refresh((swipedict_user_store *)(intptr_t)store, &changed);
  return !failed(env, status) && changed ? JNI_TRUE : JNI_FALSE;
}
