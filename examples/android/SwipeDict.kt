// SwipeDict.kt: a Kotlin face for libswipedict, over swipedict_jni.c.
//
// A sketch to start an Android keyboard from, NOT BUILT OR TESTED HERE: this repository's
// machines have no Android SDK, NDK or Kotlin compiler. docs/c-api.md ("Android") says how to
// build the libraries and where they go.
//
//     val english = SwipeDictionary(File(filesDir, "en.swipedict").path)
//     val swipe = SwipeSession(english, keyArea)          // the letter keys' rectangle, in px
//     override fun onTouchEvent(event: MotionEvent): Boolean {
//         swipe.onTouchEvent(event)                        // down and moves, with their history
//         if (event.actionMasked == MotionEvent.ACTION_UP) {
//             decoder.execute { show(swipe.end(deadlineMs = 50)) }   // off the UI thread
//         }
//         return true
//     }
package org.swipedict

import android.graphics.RectF
import android.view.MotionEvent

private fun utf8(text: String?): ByteArray? = text?.toByteArray(Charsets.UTF_8)

private fun strings(words: Array<ByteArray>?): List<String> = words?.map { String(it, Charsets.UTF_8) } ?: emptyList()

private object Native {
    init {
        // libswipedict.so first (the Swift runtime it needs ships beside it: docs/c-api.md).
        System.loadLibrary("swipedict")
        System.loadLibrary("swipedict_jni")
    }
}

/** A SwipeDict blob, memory-mapped; share it between threads. Close it when done. */
class SwipeDictionary(path: String) : AutoCloseable {
    internal var handle: Long = run {
        Native
        nativeOpen(utf8(path)!!)
    }
        private set

    /** The word's ID, or null when the blob lacks it (case and accents as given). */
    fun lookup(word: String): Long? = nativeLookup(handle, utf8(word)!!).takeIf { it >= 0 }

    /** Words starting with [prefix], most likely first (after [previous], on a blob with word pairs). */
    fun complete(prefix: String, limit: Int = 3, previous: String? = null): List<String> =
        strings(nativeSuggest(handle, 0, utf8(prefix), utf8(previous), limit))

    /** The words the user most likely meant by [typed], best first. */
    fun correct(typed: String, limit: Int = 3, previous: String? = null): List<String> =
        strings(nativeSuggest(handle, 1, utf8(typed), utf8(previous), limit))

    /** The words most likely to follow [previous] (a blob built with word pairs). */
    fun nextWords(previous: String, limit: Int = 3): List<String> =
        strings(nativeSuggest(handle, 2, utf8(previous), null, limit))

    /** Merges the user's words as [store] holds them now into every query (null: none). */
    fun useUserWords(store: UserStore?) = nativeUseUserWords(handle, store?.handle ?: 0)

    override fun close() {
        nativeClose(handle)
        handle = 0
    }

    private companion object {
        @JvmStatic external fun nativeOpen(path: ByteArray): Long
        @JvmStatic external fun nativeClose(dict: Long)
        @JvmStatic external fun nativeLookup(dict: Long, word: ByteArray): Long
        @JvmStatic external fun nativeSuggest(
            dict: Long, kind: Int, input: ByteArray?, previous: ByteArray?, limit: Int,
        ): Array<ByteArray>?
        @JvmStatic external fun nativeUseUserWords(dict: Long, store: Long)
    }
}

/**
 * One swipe at a time, fed with the keyboard view's touches (pixels): the library maps them
 * onto the layout through [keyArea] (where the view draws the letter keys), drops stray
 * points and clamps the rest onto the keys. Touches on the UI thread, [end] on a worker.
 */
class SwipeSession(dictionary: SwipeDictionary, keyArea: RectF) : AutoCloseable {
    private var handle: Long =
        nativeCreate(dictionary.handle, keyArea.left.toDouble(), keyArea.top.toDouble(),
            keyArea.width().toDouble(), keyArea.height().toDouble())

    /** Where the view draws the keys now (after a rotation or a resize). */
    fun setKeyArea(keyArea: RectF) = nativeSetKeyArea(handle, keyArea.left.toDouble(), keyArea.top.toDouble(),
        keyArea.width().toDouble(), keyArea.height().toDouble())

    /** The word committed last: it ranks the next swipes (blobs built with word pairs). */
    fun setPreviousWord(word: String?) = nativeSetPreviousWord(handle, utf8(word))

    /** Feeds a down or move event, with the samples batched into it (its history). */
    fun onTouchEvent(event: MotionEvent) {
        when (event.actionMasked) {
            MotionEvent.ACTION_DOWN, MotionEvent.ACTION_MOVE, MotionEvent.ACTION_UP -> {
                val points = DoubleArray(3 * (event.historySize + 1))
                for (i in 0 until event.historySize) {
                    points[3 * i] = event.getHistoricalX(i).toDouble()
                    points[3 * i + 1] = event.getHistoricalY(i).toDouble()
                    points[3 * i + 2] = event.getHistoricalEventTime(i) / 1000.0
                }
                val last = 3 * event.historySize
                points[last] = event.x.toDouble()
                points[last + 1] = event.y.toDouble()
                points[last + 2] = event.eventTime / 1000.0
                nativeAdd(handle, points)
            }
            MotionEvent.ACTION_CANCEL -> nativeCancel(handle)
        }
    }

    /** The lift: the swipe's best words, found within [deadlineMs]. */
    fun end(deadlineMs: Long = 50, limit: Int = 4): List<String> =
        strings(nativeEnd(handle, deadlineMs * 1000, limit))

    override fun close() {
        nativeFree(handle)
        handle = 0
    }

    private companion object {
        @JvmStatic external fun nativeCreate(dict: Long, x: Double, y: Double, width: Double, height: Double): Long
        @JvmStatic external fun nativeFree(session: Long)
        @JvmStatic external fun nativeSetKeyArea(session: Long, x: Double, y: Double, width: Double, height: Double)
        @JvmStatic external fun nativeSetPreviousWord(session: Long, word: ByteArray?)
        @JvmStatic external fun nativeAdd(session: Long, points: DoubleArray)
        @JvmStatic external fun nativeEnd(session: Long, deadlineMicroseconds: Long, limit: Int): Array<ByteArray>?
        @JvmStatic external fun nativeCancel(session: Long)
    }
}

/** The user's words in one file (added, learned, blocked); one per thread that writes. */
class UserStore(path: String) : AutoCloseable {
    internal var handle: Long = run {
        Native
        nativeOpen(utf8(path)!!)
    }
        private set

    fun learn(word: String) = nativeChange(handle, 0, utf8(word)!!)
    fun unlearn(word: String) = nativeChange(handle, 1, utf8(word)!!)
    fun block(word: String) = nativeChange(handle, 2, utf8(word)!!)
    fun add(word: String) = nativeChange(handle, 3, utf8(word)!!)

    /** Picks up the settings app's writes; whether anything changed. */
    fun refresh(): Boolean = nativeRefresh(handle)

    override fun close() {
        nativeClose(handle)
        handle = 0
    }

    private companion object {
        @JvmStatic external fun nativeOpen(path: ByteArray): Long
        @JvmStatic external fun nativeClose(store: Long)
        @JvmStatic external fun nativeChange(store: Long, change: Int, word: ByteArray)
        @JvmStatic external fun nativeRefresh(store: Long): Boolean
    }
}
