"""SwipeDict for Python: memory-mapped dictionaries for swipe keyboards, and the swipe decoder.

A thin layer (ctypes, no compiled extension) over libswipedict, SwipeDict's C API::

    import swipedict

    with swipedict.Dictionary("build/en.swipedict") as d:
        d.lookup("hello")              # 119759: the word's ID, or None
        d.word(119759)                 # 'hello'
        d.complete("hel", limit=3)     # ['help', 'held', 'hell']
        d.correct("wrold")             # ['world', 'worlds']
        d.next_words("going")          # from a blob built with word pairs ([] without)
        d.decode([(225, 81), (94, 27), (337, 81), (319, 27)]).words
        # ['hello', 'helo', 'help', 'hellooo']: a swipe in layout units

Points are rows ``(x, y)`` or ``(x, y, time)``: lists of tuples, or numpy arrays of shape
(n, 2) or (n, 3) (numpy is optional). Times are in seconds and are not used by the decoder.

Classes: :class:`Dictionary` (a blob), :class:`Session` (a swipe fed touch by touch, in a
view's coordinates, as a keyboard does), :class:`UserStore` (the user's words). Errors are
:class:`SwipeDictError` and its subclasses, carrying the library's message.

The library is found at ``$SWIPEDICT_LIBRARY``, beside this package (a wheel from ``make
python``), or in the repository's ``build/lib`` (after ``make capi``).
"""

from __future__ import annotations

import ctypes
import math
import os
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence, Union

from . import _native as _n

__all__ = [
    "Dictionary",
    "Session",
    "UserStore",
    "Suggestion",
    "Decoding",
    "UserEntry",
    "Layout",
    "Key",
    "SwipeDictError",
    "InvalidFileError",
    "ClosedError",
    "ReadOnlyError",
    "BusyError",
    "UnsupportedError",
    "abi_version",
    "version",
]

_lib = _n.lib

#: A rectangle in a view's coordinates: (x, y, width, height).
Rect = tuple[float, float, float, float]
#: Points: rows (x, y) or (x, y, time in seconds), or a numpy array of shape (n, 2) or (n, 3).
Points = Union[Iterable[Sequence[float]], Any]


# ---- Errors ---------------------------------------------------------------------------------


class SwipeDictError(Exception):
    """A call of the library failed; ``status`` is its swipedict.h status code, the message
    the library's own (what went wrong, the file, what to do)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class InvalidFileError(SwipeDictError):
    """The file is not a valid blob or user dictionary (damaged, another format, a newer
    version)."""


class ClosedError(SwipeDictError, ValueError):
    """The object was closed."""


class ReadOnlyError(SwipeDictError, PermissionError):
    """The user dictionary is read-only for this process."""


class BusyError(SwipeDictError):
    """Another process held the user dictionary's lock too long; nothing was written."""


class UnsupportedError(SwipeDictError):
    """The blob lacks what the call needs (swipe features)."""


class _FileError(SwipeDictError, OSError):
    pass


class _ArgumentError(SwipeDictError, ValueError):
    pass


class _RangeError(SwipeDictError, IndexError):
    pass


_ERRORS: dict[int, type[SwipeDictError]] = {
    _n.E_HANDLE: ClosedError,
    _n.E_ARGUMENT: _ArgumentError,
    _n.E_RANGE: _RangeError,
    _n.E_IO: _FileError,
    _n.E_FORMAT: InvalidFileError,
    _n.E_READ_ONLY: ReadOnlyError,
    _n.E_BUSY: BusyError,
    _n.E_UNSUPPORTED: UnsupportedError,
}


def _check(status: int) -> int:
    """``status`` when it is no failure (OK, NOT_FOUND); otherwise raises its error."""
    if status >= 0:
        return status
    message = _lib.swipedict_errmsg().decode("utf-8", "replace")
    raise _ERRORS.get(status, SwipeDictError)(status, message)


def _encode(text: str) -> bytes:
    if "\0" in text:
        raise ValueError("a word cannot contain NUL")
    return text.encode("utf-8", "surrogatepass")


def abi_version() -> int:
    """The ABI version of the loaded library (the package checks it matches its own)."""
    return int(_lib.swipedict_abi_version())


def version() -> str:
    """The library's version and the newest blob format it reads."""
    return _lib.swipedict_version().decode()


# ---- Records ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Suggestion:
    """A suggested word with the figures it was ranked by."""

    word: str
    #: The word's ID (from ``len(dictionary)`` up for a user's word the blob lacks).
    id: int
    #: Higher is better; comparable within one answer only.
    score: float
    #: Correction: the edit cost; swipes: mean squared distance in key widths squared; else 0.
    distance: float
    #: The frequency byte, 0 to 255 (log scale).
    frequency: int


@dataclass(frozen=True)
class Decoding:
    """What a swipe decoded to."""

    #: The best words with their scores, best first.
    suggestions: list[Suggestion]
    #: Points the decoder got, and points dropped (stray, or not finite).
    point_count: int
    dropped_point_count: int
    #: Words that passed the filters, and how many were matched before the deadline.
    candidate_count: int
    matched_count: int
    #: False when the deadline cut the matching short.
    complete: bool
    #: True when points past the most a swipe takes (2,000) were ignored.
    truncated: bool

    @property
    def words(self) -> list[str]:
        """The best words, best first."""
        return [s.word for s in self.suggestions]


@dataclass(frozen=True)
class Key:
    """One key of a layout, in layout units: its center, size and character."""

    character: str
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Layout:
    """A blob's keyboard layout."""

    name: str
    unit: str
    #: The decoder's unit of length.
    key_width: float
    #: The keys' bounding rectangle: (min_x, min_y, max_x, max_y), in layout units.
    bounds: tuple[float, float, float, float]
    keys: list[Key]


@dataclass(frozen=True)
class UserEntry:
    """One word of a user dictionary."""

    word: str
    #: "added", "learned" or "blocked".
    kind: str
    uses: int
    #: The write that last touched it (larger is more recent).
    last_use: int


_KINDS = {1: "added", 2: "learned", 3: "blocked"}
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _suggestion(record: _n.CSuggestion) -> Suggestion:
    return Suggestion(
        word=record.word.decode("utf-8", "replace"),
        id=record.id,
        score=record.score,
        distance=record.distance,
        frequency=record.frequency,
    )


def _rect(area: Optional[Rect]) -> Optional[_n.CRect]:
    if area is None:
        return None
    x, y, width, height = area
    return _n.CRect(float(x), float(y), float(width), float(height))


def _points(points: Points) -> tuple[Any, int, Any]:
    """Points as a C array: (pointer, count, owner to keep alive)."""
    if hasattr(points, "__array_interface__"):
        import numpy as np  # only when given a numpy array

        array = np.asarray(points, dtype=np.float64)
        if array.ndim != 2 or array.shape[1] not in (2, 3):
            raise ValueError(f"points must have shape (n, 2) or (n, 3), not {array.shape}")
        if array.shape[1] == 2:
            array = np.column_stack((array, np.full(len(array), np.nan)))
        array = np.ascontiguousarray(array)
        return array.ctypes.data_as(ctypes.c_void_p), len(array), array
    rows = []
    for row in points:
        if len(row) == 2:
            rows.append(_n.CPoint(float(row[0]), float(row[1]), math.nan))
        elif len(row) == 3:
            rows.append(_n.CPoint(float(row[0]), float(row[1]), math.nan if row[2] is None else float(row[2])))
        else:
            raise ValueError(f"a point is (x, y) or (x, y, time), not {row!r}")
    array = (_n.CPoint * len(rows))(*rows)
    return ctypes.cast(array, ctypes.c_void_p), len(rows), array


# ---- Dictionary -------------------------------------------------------------------------------


class _Handle:
    """An object behind a library handle, released by close() (or when collected)."""

    _free: Any = None
    _what = "object"

    def __init__(self) -> None:
        self._handle: Optional[int] = None

    def _h(self) -> int:
        if self._handle is None:
            raise ClosedError(_n.E_HANDLE, f"the {self._what} is closed")
        return self._handle

    @property
    def closed(self) -> bool:
        """Whether close() was called."""
        return self._handle is None

    def close(self) -> None:
        """Releases it (again is harmless)."""
        handle, self._handle = self._handle, None
        if handle is not None:
            type(self)._free(handle)

    def __enter__(self):  # type: ignore[no-untyped-def]
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


class Dictionary(_Handle):
    """A SwipeDict blob, memory-mapped: lookups, completion, correction, next words, swipes.

    Opening checks the header and the sections' bounds without reading the words (O(1)); the
    blob's pages are read as queries touch them. Share one between threads freely.

    :param path: the blob (``swipedict build``, ``make``).
    :param verify: also check every checksum and the automaton (reads the whole file).
    :param suggest_offensive: offer words the blob marks possibly offensive (by default they
        are words, found by :meth:`lookup`, but never suggested).
    :raises InvalidFileError: not a valid blob. :raises OSError: the file cannot be read.
    """

    _free = _lib.swipedict_close
    _what = "dictionary"

    def __init__(self, path: Union[str, "os.PathLike[str]"], *, verify: bool = False,
                 suggest_offensive: bool = False) -> None:
        super().__init__()
        handle = ctypes.c_void_p()
        _check(_lib.swipedict_open(_encode(os.fspath(path)), self._flags(verify, suggest_offensive), ctypes.byref(handle)))
        self._handle = handle.value
        self._decoder: Optional[Session] = None

    @classmethod
    def from_bytes(cls, data: bytes, *, verify: bool = False, suggest_offensive: bool = False) -> "Dictionary":
        """A blob held in memory (copied once)."""
        self = cls.__new__(cls)
        _Handle.__init__(self)
        handle = ctypes.c_void_p()
        _check(_lib.swipedict_open_bytes(data, len(data), cls._flags(verify, suggest_offensive), ctypes.byref(handle)))
        self._handle = handle.value
        self._decoder = None
        return self

    @staticmethod
    def _flags(verify: bool, suggest_offensive: bool) -> int:
        return (_n.OPEN_VERIFY if verify else 0) | (_n.OPEN_SUGGEST_OFFENSIVE if suggest_offensive else 0)

    def close(self) -> None:
        """Releases the blob (sessions made from it keep working until they are closed)."""
        decoder, self._decoder = getattr(self, "_decoder", None), None
        if decoder is not None:
            decoder.close()
        super().close()

    def __len__(self) -> int:
        """The number of words in the blob (IDs are 0 to len - 1)."""
        count = ctypes.c_int64()
        _check(_lib.swipedict_word_count(self._h(), ctypes.byref(count)))
        return count.value

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.lookup(word) is not None

    def lookup(self, word: str) -> Optional[int]:
        """The ID of ``word`` (exactly: case and accents as given), or None."""
        found = ctypes.c_int64()
        status = _check(_lib.swipedict_lookup(self._h(), _encode(word), ctypes.byref(found)))
        return found.value if status == _n.OK else None

    def word(self, id: int) -> Optional[str]:
        """The word with ``id``, or None when no word has it."""
        if not _INT64_MIN <= id <= _INT64_MAX:
            return None
        buffer = ctypes.create_string_buffer(_n.WORD_CAPACITY)
        length = ctypes.c_size_t()
        status = _lib.swipedict_word(self._h(), id, buffer, len(buffer), ctypes.byref(length))
        if status == _n.E_BUFFER:
            buffer = ctypes.create_string_buffer(length.value + 1)
            status = _lib.swipedict_word(self._h(), id, buffer, len(buffer), ctypes.byref(length))
        if _check(status) == _n.NOT_FOUND:
            return None
        return buffer.raw[: length.value].decode("utf-8", "replace")

    def frequency(self, id: int) -> Optional[int]:
        """The frequency byte (0 to 255, log scale) of word ``id`` (raised by the user's
        uses), or None."""
        if not _INT64_MIN <= id <= _INT64_MAX:
            return None
        found = ctypes.c_uint32()
        status = _check(_lib.swipedict_frequency(self._h(), id, ctypes.byref(found)))
        return found.value if status == _n.OK else None

    def _suggestions(self, function: Any, *arguments: Any, limit: int) -> list[Suggestion]:
        if limit <= 0:
            return []
        out = (_n.CSuggestion * min(limit, _n.MAX_RESULTS))()
        count = ctypes.c_size_t()
        _check(function(self._h(), *arguments, out, len(out), ctypes.byref(count)))
        return [_suggestion(out[i]) for i in range(count.value)]

    def complete_scored(self, prefix: str, limit: int = 10, previous: Optional[str] = None) -> list[Suggestion]:
        """:meth:`complete` with each word's ID, score and frequency."""
        return self._suggestions(
            _lib.swipedict_complete, _encode(prefix), None if previous is None else _encode(previous), limit=limit
        )

    def complete(self, prefix: str, limit: int = 10, previous: Optional[str] = None) -> list[str]:
        """The words starting with ``prefix``, ignoring case and accents, most likely first
        (by frequency, the user's uses, and their count after ``previous`` on a blob built
        with word pairs). At most ``limit`` (and 1,000)."""
        return [s.word for s in self.complete_scored(prefix, limit, previous)]

    def correct_scored(self, typed: str, limit: int = 10, previous: Optional[str] = None) -> list[Suggestion]:
        """:meth:`correct` with each word's ID, score, edit cost and frequency."""
        return self._suggestions(
            _lib.swipedict_correct, _encode(typed), None if previous is None else _encode(previous), limit=limit
        )

    def correct(self, typed: str, limit: int = 10, previous: Optional[str] = None) -> list[str]:
        """The words the user most likely meant by ``typed``, best first (the typed word
        itself first when it is a likely word)."""
        return [s.word for s in self.correct_scored(typed, limit, previous)]

    def next_words_scored(self, previous: str, limit: int = 10) -> list[Suggestion]:
        """:meth:`next_words` with each word's ID, pair score and frequency."""
        return self._suggestions(_lib.swipedict_next_words, _encode(previous), limit=limit)

    def next_words(self, previous: str, limit: int = 10) -> list[str]:
        """The words most likely to follow ``previous`` (a blob built with word pairs), best
        first; empty otherwise."""
        return [s.word for s in self.next_words_scored(previous, limit)]

    @property
    def layout(self) -> Layout:
        """The blob's keyboard layout."""
        info = _n.CLayoutInfo()
        _check(_lib.swipedict_layout(self._h(), ctypes.byref(info)))
        keys = []
        for index in range(info.key_count):
            key = _n.CKey()
            _check(_lib.swipedict_layout_key(self._h(), index, ctypes.byref(key)))
            keys.append(Key(chr(key.codepoint), key.x, key.y, key.width, key.height))
        return Layout(
            name=info.name.decode("utf-8", "replace"),
            unit=info.unit.decode("utf-8", "replace"),
            key_width=info.key_width,
            bounds=(info.min_x, info.min_y, info.max_x, info.max_y),
            keys=keys,
        )

    def to_layout(self, x: float, y: float, key_area: Optional[Rect] = None) -> tuple[float, float]:
        """A view point in layout units, for a view that draws the keys in ``key_area``
        (x, y, width, height); None: the point is in layout units already."""
        lx, ly = ctypes.c_double(), ctypes.c_double()
        area = _rect(key_area)
        _check(_lib.swipedict_map_to_layout(self._h(), None if area is None else ctypes.byref(area), x, y,
                                            ctypes.byref(lx), ctypes.byref(ly)))
        return lx.value, ly.value

    def to_view(self, x: float, y: float, key_area: Optional[Rect] = None) -> tuple[float, float]:
        """A layout point in the view: the inverse of :meth:`to_layout`."""
        vx, vy = ctypes.c_double(), ctypes.c_double()
        area = _rect(key_area)
        _check(_lib.swipedict_map_to_view(self._h(), None if area is None else ctypes.byref(area), x, y,
                                          ctypes.byref(vx), ctypes.byref(vy)))
        return vx.value, vy.value

    def clamp(self, x: float, y: float) -> tuple[float, float]:
        """A layout point moved onto the keys' rectangle."""
        cx, cy = ctypes.c_double(x), ctypes.c_double(y)
        _check(_lib.swipedict_clamp_to_keys(self._h(), ctypes.byref(cx), ctypes.byref(cy)))
        return cx.value, cy.value

    def session(self, key_area: Optional[Rect] = None, *, unfiltered: bool = False, top: int = 4) -> "Session":
        """A swipe session, as a keyboard feeds one: touches in the coordinates of a view that
        draws the keys in ``key_area`` (None: layout units), through the touch trace (stray
        points dropped, points clamped onto the keys) unless ``unfiltered``."""
        return Session(self, key_area, unfiltered=unfiltered, top=top)

    def decode(self, points: Points, *, previous: Optional[str] = None, deadline_ms: Optional[float] = None,
               top: int = 4) -> Decoding:
        """Decodes a recorded swipe in layout units, exactly as ``swipedict decode`` does
        (points as given: unfiltered).

        :param points: rows (x, y) or (x, y, time), or a numpy array of shape (n, 2)/(n, 3).
        :param previous: the word before (ranks by word pairs, on a blob built with them).
        :param deadline_ms: stop matching this long after the call; None matches everything.
        :param top: how many words to return (1 to 1,000).
        """
        if self._decoder is None:
            self._decoder = Session(self, None, unfiltered=True, top=top)
        decoder = self._decoder
        decoder.top = top
        decoder.previous_word = previous
        decoder.add_points(points)
        return decoder.end(deadline_ms)

    def use_user_words(self, store: Optional["UserStore"]) -> None:
        """Merges the user's words as ``store`` holds them now into every query (call again
        after writes or :meth:`UserStore.refresh`): blocked words are never suggested, uses
        raise a word, added words complete, correct and swipe. None takes them away."""
        _check(_lib.swipedict_use_user_words(self._h(), None if store is None else store._h()))


# ---- Session ----------------------------------------------------------------------------------


class Session(_Handle):
    """One swipe at a time, fed touch by touch (:meth:`Dictionary.session`).

    ``add`` as the finger moves (the decoder reduces the points and scans the dictionary
    then), ``end`` at the lift. One thread at a time.
    """

    _free = _lib.swipedict_session_free
    _what = "session"

    def __init__(self, dictionary: Dictionary, key_area: Optional[Rect] = None, *, unfiltered: bool = False,
                 top: int = 4) -> None:
        super().__init__()
        handle = ctypes.c_void_p()
        area = _rect(key_area)
        _check(_lib.swipedict_session_create(dictionary._h(), None if area is None else ctypes.byref(area),
                                             _n.SESSION_UNFILTERED if unfiltered else 0, ctypes.byref(handle)))
        self._handle = handle.value
        self._top = 4
        self._previous: Optional[str] = None
        self.top = top

    @property
    def top(self) -> int:
        """How many words a swipe answers (1 to 1,000), from the next swipe on."""
        return self._top

    @top.setter
    def top(self, count: int) -> None:
        if count != self._top:
            _check(_lib.swipedict_session_set_result_count(self._h(), count))
            self._top = count

    @property
    def previous_word(self) -> Optional[str]:
        """The word before the next swipes (ranks by word pairs); None for none."""
        return self._previous

    @previous_word.setter
    def previous_word(self, word: Optional[str]) -> None:
        if word != self._previous:
            _check(_lib.swipedict_session_set_previous_word(self._h(), None if word is None else _encode(word)))
            self._previous = word

    def set_key_area(self, key_area: Optional[Rect]) -> None:
        """Where the view draws the keys, from the next swipe on (None: layout units)."""
        area = _rect(key_area)
        _check(_lib.swipedict_session_set_key_area(self._h(), None if area is None else ctypes.byref(area)))

    def add(self, x: float, y: float, time: Optional[float] = None) -> None:
        """Adds a touch (view coordinates; time in seconds, or None)."""
        _check(_lib.swipedict_session_add(self._h(), x, y, math.nan if time is None else time))

    def add_points(self, points: Points) -> None:
        """Adds touches in order (rows (x, y) or (x, y, time), or a numpy array)."""
        pointer, count, owner = _points(points)
        _check(_lib.swipedict_session_add_points(self._h(), pointer, count))
        del owner

    def end(self, deadline_ms: Optional[float] = None) -> Decoding:
        """The lift: the swipe's best words (matching stops ``deadline_ms`` after the call;
        None matches every candidate). The session is then ready for the next swipe."""
        deadline = _n.NO_DEADLINE if deadline_ms is None else max(0, int(deadline_ms * 1000))
        out = (_n.CSuggestion * self._top)()
        count = ctypes.c_size_t()
        info = _n.CSwipeInfo()
        _check(_lib.swipedict_session_end(self._h(), deadline, out, len(out), ctypes.byref(count), ctypes.byref(info)))
        return Decoding(
            suggestions=[_suggestion(out[i]) for i in range(count.value)],
            point_count=info.point_count,
            dropped_point_count=info.dropped_point_count,
            candidate_count=info.candidate_count,
            matched_count=info.matched_count,
            complete=bool(info.is_complete),
            truncated=bool(info.is_truncated),
        )

    def cancel(self) -> None:
        """Drops the swipe under way."""
        _check(_lib.swipedict_session_cancel(self._h()))


# ---- User store -------------------------------------------------------------------------------


class UserStore(_Handle):
    """A user dictionary file: the words a user added, learned from use, or blocked, shared
    by the processes that open it (a keyboard and its settings).

    :param path: the file (its directory must exist).
    :param create: create the file when it is missing (else ``OSError``).
    :param sync: flush every write to the disk (survives a power loss).
    """

    _free = _lib.swipedict_user_close
    _what = "user store"

    def __init__(self, path: Union[str, "os.PathLike[str]"], *, create: bool = True, sync: bool = False) -> None:
        super().__init__()
        handle = ctypes.c_void_p()
        flags = (0 if create else _n.USER_NO_CREATE) | (_n.USER_SYNC if sync else 0)
        _check(_lib.swipedict_user_open(_encode(os.fspath(path)), flags, ctypes.byref(handle)))
        self._handle = handle.value

    def add(self, word: str, uses: Optional[int] = None) -> None:
        """Adds ``word`` as the user's own (unblocks it); ``uses`` sets its count."""
        _check(_lib.swipedict_user_add(self._h(), _encode(word), -1 if uses is None else uses))

    def learn(self, word: str) -> None:
        """One more use of ``word`` (a learned entry is made when it has none)."""
        _check(_lib.swipedict_user_learn(self._h(), _encode(word)))

    def unlearn(self, word: str) -> None:
        """Takes one use of ``word`` back (after the user deleted it)."""
        _check(_lib.swipedict_user_unlearn(self._h(), _encode(word)))

    def block(self, word: str) -> None:
        """Never suggest ``word`` again."""
        _check(_lib.swipedict_user_block(self._h(), _encode(word)))

    def remove(self, word: str) -> bool:
        """Removes ``word``'s entry; False when it had none."""
        return _check(_lib.swipedict_user_remove(self._h(), _encode(word))) == _n.OK

    def refresh(self) -> bool:
        """Picks up other processes' writes; whether the entries changed."""
        changed = ctypes.c_int()
        _check(_lib.swipedict_user_refresh(self._h(), ctypes.byref(changed)))
        return bool(changed.value)

    def __len__(self) -> int:
        count = ctypes.c_size_t()
        _check(_lib.swipedict_user_count(self._h(), ctypes.byref(count)))
        return count.value

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    @staticmethod
    def _entry(record: _n.CUserEntry) -> UserEntry:
        return UserEntry(record.word.decode("utf-8", "replace"), _KINDS.get(record.kind, "unknown"), record.uses,
                         record.last_use)

    def entries(self) -> list[UserEntry]:
        """Every entry, least recently used first."""
        capacity = len(self)
        out = (_n.CUserEntry * max(capacity, 1))()
        count = ctypes.c_size_t()
        _check(_lib.swipedict_user_entries(self._h(), out, capacity, ctypes.byref(count)))
        return [self._entry(out[i]) for i in range(count.value)]

    def get(self, word: str) -> Optional[UserEntry]:
        """The entry of ``word``, or None."""
        record = _n.CUserEntry()
        status = _check(_lib.swipedict_user_get(self._h(), _encode(word), ctypes.byref(record)))
        return self._entry(record) if status == _n.OK else None

    @property
    def read_only(self) -> bool:
        """Whether this process may only read the file."""
        flag = ctypes.c_int()
        _check(_lib.swipedict_user_is_read_only(self._h(), ctypes.byref(flag)))
        return bool(flag.value)
