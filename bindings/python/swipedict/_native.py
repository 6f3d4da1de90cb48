"""The C library under the package: finding it, and the ctypes form of swipedict.h.

Every record and function here mirrors include/swipedict.h (ABI version ``ABI_VERSION``);
the package refuses a library built for another ABI.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path

#: The version of swipedict.h these declarations follow.
ABI_VERSION = 1

WORD_CAPACITY = 264
MAX_RESULTS = 1000
NO_DEADLINE = -1

OK = 0
NOT_FOUND = 1
E_NULL = -1
E_HANDLE = -2
E_ARGUMENT = -3
E_RANGE = -4
E_IO = -5
E_FORMAT = -6
E_BUFFER = -7
E_READ_ONLY = -8
E_BUSY = -9
E_UNSUPPORTED = -10
E_LIMIT = -11

OPEN_VERIFY = 1
OPEN_SUGGEST_OFFENSIVE = 2
SESSION_UNFILTERED = 1
USER_NO_CREATE = 1
USER_SYNC = 2


class CSuggestion(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_int64),
        ("score", ctypes.c_double),
        ("distance", ctypes.c_double),
        ("frequency", ctypes.c_uint32),
        ("length", ctypes.c_uint32),
        ("word", ctypes.c_char * WORD_CAPACITY),
    ]


class CRect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("width", ctypes.c_double), ("height", ctypes.c_double)]


class CPoint(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("time", ctypes.c_double)]


class CLayoutInfo(ctypes.Structure):
    _fields_ = [
        ("min_x", ctypes.c_double),
        ("min_y", ctypes.c_double),
        ("max_x", ctypes.c_double),
        ("max_y", ctypes.c_double),
        ("key_width", ctypes.c_double),
        ("key_count", ctypes.c_uint32),
        ("reserved", ctypes.c_uint32),
        ("name", ctypes.c_char * 64),
        ("unit", ctypes.c_char * 16),
    ]


class CKey(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_double),
        ("y", ctypes.c_double),
        ("width", ctypes.c_double),
        ("height", ctypes.c_double),
        ("codepoint", ctypes.c_uint32),
        ("reserved", ctypes.c_uint32),
    ]


class CSwipeInfo(ctypes.Structure):
    _fields_ = [
        ("point_count", ctypes.c_uint32),
        ("dropped_point_count", ctypes.c_uint32),
        ("candidate_count", ctypes.c_uint32),
        ("matched_count", ctypes.c_uint32),
        ("is_complete", ctypes.c_int32),
        ("is_truncated", ctypes.c_int32),
    ]


class CUserEntry(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int32),
        ("length", ctypes.c_uint32),
        ("uses", ctypes.c_int64),
        ("last_use", ctypes.c_uint64),
        ("word", ctypes.c_char * WORD_CAPACITY),
    ]


_handle = ctypes.c_void_p
_text = ctypes.c_char_p
_int = ctypes.c_int
_size = ctypes.c_size_t
_p = ctypes.POINTER

#: name: (result type, argument types), as swipedict.h declares them.
_FUNCTIONS = {
    "swipedict_abi_version": (_int, []),
    "swipedict_version": (_text, []),
    "swipedict_errstr": (_text, [_int]),
    "swipedict_errmsg": (_text, []),
    "swipedict_open": (_int, [_text, ctypes.c_uint32, _p(_handle)]),
    "swipedict_open_bytes": (_int, [ctypes.c_void_p, _size, ctypes.c_uint32, _p(_handle)]),
    "swipedict_close": (_int, [_handle]),
    "swipedict_word_count": (_int, [_handle, _p(ctypes.c_int64)]),
    "swipedict_lookup": (_int, [_handle, _text, _p(ctypes.c_int64)]),
    "swipedict_word": (_int, [_handle, ctypes.c_int64, ctypes.c_char_p, _size, _p(_size)]),
    "swipedict_frequency": (_int, [_handle, ctypes.c_int64, _p(ctypes.c_uint32)]),
    "swipedict_complete": (_int, [_handle, _text, _text, _p(CSuggestion), _size, _p(_size)]),
    "swipedict_correct": (_int, [_handle, _text, _text, _p(CSuggestion), _size, _p(_size)]),
    "swipedict_next_words": (_int, [_handle, _text, _p(CSuggestion), _size, _p(_size)]),
    "swipedict_layout": (_int, [_handle, _p(CLayoutInfo)]),
    "swipedict_layout_key": (_int, [_handle, ctypes.c_int64, _p(CKey)]),
    "swipedict_map_to_layout": (
        _int,
        [_handle, _p(CRect), ctypes.c_double, ctypes.c_double, _p(ctypes.c_double), _p(ctypes.c_double)],
    ),
    "swipedict_map_to_view": (
        _int,
        [_handle, _p(CRect), ctypes.c_double, ctypes.c_double, _p(ctypes.c_double), _p(ctypes.c_double)],
    ),
    "swipedict_clamp_to_keys": (_int, [_handle, _p(ctypes.c_double), _p(ctypes.c_double)]),
    "swipedict_session_create": (_int, [_handle, _p(CRect), ctypes.c_uint32, _p(_handle)]),
    "swipedict_session_free": (_int, [_handle]),
    "swipedict_session_set_key_area": (_int, [_handle, _p(CRect)]),
    "swipedict_session_set_previous_word": (_int, [_handle, _text]),
    "swipedict_session_set_result_count": (_int, [_handle, _size]),
    "swipedict_session_add": (_int, [_handle, ctypes.c_double, ctypes.c_double, ctypes.c_double]),
    "swipedict_session_add_points": (_int, [_handle, ctypes.c_void_p, _size]),
    "swipedict_session_end": (
        _int,
        [_handle, ctypes.c_int64, _p(CSuggestion), _size, _p(_size), _p(CSwipeInfo)],
    ),
    "swipedict_session_cancel": (_int, [_handle]),
    "swipedict_user_open": (_int, [_text, ctypes.c_uint32, _p(_handle)]),
    "swipedict_user_close": (_int, [_handle]),
    "swipedict_user_add": (_int, [_handle, _text, ctypes.c_int64]),
    "swipedict_user_learn": (_int, [_handle, _text]),
    "swipedict_user_unlearn": (_int, [_handle, _text]),
    "swipedict_user_block": (_int, [_handle, _text]),
    "swipedict_user_remove": (_int, [_handle, _text]),
    "swipedict_user_refresh": (_int, [_handle, _p(_int)]),
    "swipedict_user_count": (_int, [_handle, _p(_size)]),
    "swipedict_user_entries": (_int, [_handle, _p(CUserEntry), _size, _p(_size)]),
    "swipedict_user_get": (_int, [_handle, _text, _p(CUserEntry)]),
    "swipedict_user_is_read_only": (_int, [_handle, _p(_int)]),
    "swipedict_use_user_words": (_int, [_handle, _handle]),
}


def _library_name() -> str:
    if sys.platform == "darwin":
        return "libswipedict.dylib"
    if sys.platform == "win32":
        return "swipedict.dll"
    return "libswipedict.so"


def _candidates() -> list[str]:
    """Where the library may be, in order: $SWIPEDICT_LIBRARY, beside this package (a
    wheel), the repository's build/lib (after `make capi`), the system's search path."""
    found = []
    env = os.environ.get("SWIPEDICT_LIBRARY")
    if env:
        found.append(env)
    here = Path(__file__).resolve().parent
    found.append(str(here / _library_name()))
    if len(here.parents) > 2:
        found.append(str(here.parents[2] / "build" / "lib" / _library_name()))
    system = ctypes.util.find_library("swipedict")
    if system:
        found.append(system)
    return found


def load() -> ctypes.CDLL:
    """The C library with every function declared; ImportError when it is missing or of
    another ABI."""
    tried = []
    for candidate in _candidates():
        if os.sep in candidate and not os.path.exists(candidate):
            tried.append(candidate)
            continue
        try:
            library = ctypes.CDLL(candidate)
        except OSError as error:
            tried.append(f"{candidate} ({error})")
            continue
        for name, (restype, argtypes) in _FUNCTIONS.items():
            function = getattr(library, name)
            function.restype = restype
            function.argtypes = argtypes
        abi = library.swipedict_abi_version()
        if abi != ABI_VERSION:
            raise ImportError(f"{candidate} has ABI {abi}; this package needs ABI {ABI_VERSION}")
        return library
    raise ImportError(
        "libswipedict was not found (tried: " + ", ".join(tried) + "): run `make capi` in the SwipeDict "
        "repository, or set SWIPEDICT_LIBRARY to the library's path"
    )


lib = load()
