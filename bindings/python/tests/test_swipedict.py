"""Tests of the Python package over libswipedict (run by `make test` through Tests/CAPI/run.sh).

The environment names what to test with: SWIPEDICT_TEST_BLOB (an English blob on qwerty-en;
by default build/en.swipedict), SWIPEDICT_TEST_SWIPEDICT (the `swipedict` binary, for the
comparison with `swipedict decode`) and SWIPEDICT_TEST_DEV_SWIPES (../shared's real swipes).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path

import pytest

import swipedict

ROOT = Path(__file__).resolve().parents[3]
BLOB = os.environ.get("SWIPEDICT_TEST_BLOB", str(ROOT / "build" / "en.swipedict"))
SWIPEDICT = os.environ.get("SWIPEDICT_TEST_SWIPEDICT")
DEV_SWIPES = os.environ.get("SWIPEDICT_TEST_DEV_SWIPES", str(ROOT.parent / "shared" / "swipes" / "hws-dev.jsonl"))
#: `swipedict decode`'s lines for DEV_SWIPES on BLOB, when Tests/CAPI/run.sh made them already.
DEV_CLI_LINES = os.environ.get("SWIPEDICT_TEST_DEV_CLI_LINES")

if not os.path.exists(BLOB):
    pytest.skip(f"no blob to test with: {BLOB} is missing (run make, or set SWIPEDICT_TEST_BLOB)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def d() -> swipedict.Dictionary:
    with swipedict.Dictionary(BLOB) as dictionary:
        yield dictionary


def ideal_path(d: swipedict.Dictionary, word: str, steps: int = 8) -> list[tuple[float, float]]:
    """The word's key centers, `steps` points from each to the next."""
    centers = {key.character: (key.x, key.y) for key in d.layout.keys}
    keys = [centers[c] for c in word]
    path = []
    for (x0, y0), (x1, y1) in zip(keys, keys[1:]):
        path += [(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps) for i in range(steps)]
    return path + [keys[-1]]


def read_swipes(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


def cli_tops(blob: str, swipes: str, lines: str | None = None) -> list[list[str]]:
    """The top words `swipedict decode` gives each swipe of the file (read from its text
    lines, "WORD<TAB>→ TOP1 TOP2…", when a file of them is given)."""
    if lines and os.path.exists(lines):
        with open(lines, encoding="utf-8") as file:
            tops = [line.rstrip("\n").split("\t→ ", 1)[-1].split("\t")[0] for line in file]
        return [[] if top == "(nothing)" else top.split(" ") for top in tops]
    run = subprocess.run([SWIPEDICT, "decode", blob, "--swipes", swipes, "--json"], check=True,
                         capture_output=True, text=True)
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    return [line["top"] for line in lines if "top" in line]


# ---- Words --------------------------------------------------------------------------------------


def test_version_and_abi() -> None:
    assert swipedict.abi_version() == 1
    assert "ABI 1" in swipedict.version()


def test_lookup_and_word_round_trip(d: swipedict.Dictionary) -> None:
    assert len(d) >= 10_000
    for id in range(0, len(d), 997):
        word = d.word(id)
        assert word is not None and d.lookup(word) == id
    hello = d.lookup("hello")
    assert hello is not None and d.word(hello) == "hello"
    assert "hello" in d and "qxqxqzz" not in d and 42 not in d
    assert d.lookup("qxqxqzz") is None
    assert d.lookup("café") is not None
    assert d.word(-1) is None and d.word(len(d)) is None and d.word(2**63 - 1) is None and d.word(2**70) is None
    assert d.frequency(-(2**80)) is None
    assert 0 < d.frequency(hello) < 256 and d.frequency(-5) is None
    with pytest.raises(ValueError):
        d.lookup("nul\0inside")


def test_complete_correct_next(d: swipedict.Dictionary) -> None:
    words = d.complete("hel", limit=8)
    assert len(words) == 8 and all(w.lower().startswith("hel") for w in words)
    assert "hello" in words and "help" in words
    scored = d.complete_scored("hel", limit=8)
    assert [s.word for s in scored] == words
    assert all(a.score >= b.score for a, b in zip(scored, scored[1:]))
    assert d.complete("hel", limit=0) == []
    assert len(d.complete("", limit=2000)) == 1000
    assert d.correct("wrold")[0] == "world"
    assert d.correct_scored("wrold")[0].distance > 0
    assert d.next_words("going") == []  # this blob has no word pairs
    assert d.complete("wor", previous="hello") == d.complete("wor")


def test_layout_and_mapping(d: swipedict.Dictionary) -> None:
    layout = d.layout
    assert layout.name == "qwerty-en" and layout.unit == "pt" and layout.key_width == 37.5
    assert layout.bounds == (0, 0, 375, 162) and len(layout.keys) == 26 and layout.keys[0].character == "q"
    pixels = (0, 24, 1125, 486)
    x, y = d.to_layout(562.5, 267, pixels)
    assert math.isclose(x, 187.5, abs_tol=1e-4) and math.isclose(y, 81, abs_tol=1e-4)
    assert all(math.isclose(a, b, abs_tol=1e-3) for a, b in zip(d.to_view(x, y, pixels), (562.5, 267)))
    assert d.clamp(-5, 500) == (0, 162)
    with pytest.raises(ValueError):
        d.to_layout(1, 1, (0, 0, 0, 10))


# ---- Swipes -------------------------------------------------------------------------------------


def test_decode_lists_and_numpy(d: swipedict.Dictionary) -> None:
    path = ideal_path(d, "hello")
    decoding = d.decode(path)
    assert decoding.words[0] == "hello" and len(decoding.words) == 4
    assert decoding.complete and decoding.point_count == len(path) and decoding.candidate_count >= 4
    assert d.decode(path, top=2).words == decoding.words[:2]
    assert d.decode([]).words == []
    np = pytest.importorskip("numpy", reason="numpy is not installed: numpy arrays not tested")
    assert d.decode(np.array(path)).words == decoding.words
    timed = np.column_stack((np.array(path), np.arange(len(path)) * 0.01))
    assert d.decode(timed).words == decoding.words
    assert d.decode(np.array(path, dtype=np.float32)[::1]).words == decoding.words
    with pytest.raises(ValueError):
        d.decode(np.zeros((4, 5)))


def test_session_in_view_coordinates(d: swipedict.Dictionary) -> None:
    area = (60, 10, 812, 150)  # a landscape phone's key area
    path = ideal_path(d, "world")
    with d.session(area) as session:
        for i, (x, y) in enumerate(path):
            session.add(*d.to_view(x, y, area), time=0.01 * i)
            if i == len(path) // 2:
                session.add(60, 160)  # a stray touch at the keys' far corner: dropped
        result = session.end(deadline_ms=50)
        assert result.words[0] == "world"
        assert result.point_count == len(path) and result.dropped_point_count == 1
        assert session.end().words == []  # nothing under way
        session.add_points([d.to_view(x, y, area) for x, y in path])
        session.cancel()
        assert session.end().words == []
    with pytest.raises(swipedict.ClosedError):
        session.add(1, 1)


def test_decode_is_swipedict_decode_on_synthetic_swipes(tmp_path: Path, d: swipedict.Dictionary) -> None:
    if not SWIPEDICT:
        pytest.skip("SWIPEDICT_TEST_SWIPEDICT is not set: no swipedict binary to compare with")
    swipes = tmp_path / "synth.jsonl"
    subprocess.run([SWIPEDICT, "synth", BLOB, "--sample", "60", "--seed", "11", "--model",
                    str(ROOT / "corpora" / "swipe-models" / "hws-dev.json"), "-o", str(swipes)],
                   check=True, capture_output=True)
    ours = [d.decode(s["points"]).words for s in read_swipes(str(swipes))]
    assert ours == cli_tops(BLOB, str(swipes))


def test_decode_is_swipedict_decode_on_real_swipes(d: swipedict.Dictionary) -> None:
    if not SWIPEDICT:
        pytest.skip("SWIPEDICT_TEST_SWIPEDICT is not set: no swipedict binary to compare with")
    if not os.path.exists(DEV_SWIPES):
        pytest.skip(f"{DEV_SWIPES} is absent: the real swipes are not in the repository")
    ours = [d.decode(s["points"]).words for s in read_swipes(DEV_SWIPES)]
    theirs = cli_tops(BLOB, DEV_SWIPES, DEV_CLI_LINES)
    assert len(ours) == len(theirs) == 721
    assert [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b] == []


# ---- Errors and lifetimes -----------------------------------------------------------------------


def test_errors(tmp_path: Path) -> None:
    with pytest.raises(OSError) as missing:
        swipedict.Dictionary(tmp_path / "missing.swipedict")
    assert "missing.swipedict" in str(missing.value)
    with pytest.raises(swipedict.InvalidFileError):
        swipedict.Dictionary.from_bytes(b"not a blob" * 20)
    damaged = bytearray(Path(BLOB).read_bytes())
    del damaged[len(damaged) // 2:]
    with pytest.raises(swipedict.InvalidFileError) as cut:
        swipedict.Dictionary.from_bytes(bytes(damaged))
    assert "invalid blob" in str(cut.value)


def test_closed_objects_raise() -> None:
    d = swipedict.Dictionary(BLOB)
    session = d.session()
    d.close()
    d.close()
    assert d.closed
    with pytest.raises(swipedict.ClosedError):
        d.lookup("hello")
    with pytest.raises(ValueError):
        d.complete("he")
    # A session outlives its dictionary.
    with swipedict.Dictionary(BLOB) as helper:
        path = ideal_path(helper, "hello")
    session.add_points(path)
    assert session.end().words[0] == "hello"
    session.close()


def test_from_bytes(d: swipedict.Dictionary) -> None:
    with swipedict.Dictionary.from_bytes(Path(BLOB).read_bytes(), verify=True) as copy:
        assert copy.lookup("hello") == d.lookup("hello")


# ---- The user's words ---------------------------------------------------------------------------


def test_user_store(tmp_path: Path) -> None:
    path = tmp_path / "user.words"
    with pytest.raises(OSError):
        swipedict.UserStore(path, create=False)
    with swipedict.UserStore(path) as store, swipedict.UserStore(path, create=False) as reader:
        assert not store.read_only and len(store) == 0
        store.add("Zoë", uses=3)
        store.learn("gonna")
        store.learn("gonna")
        store.block("hello")
        with pytest.raises(ValueError) as invalid:
            store.learn("two words")
        assert "not a valid word" in str(invalid.value)
        assert not store.remove("never-added")
        entries = store.entries()
        assert [(e.word, e.kind, e.uses) for e in entries] == [
            ("Zoë", "added", 3), ("gonna", "learned", 2), ("hello", "blocked", 0)]
        assert store.get("Zoe\u0308") == entries[0] and "gonna" in store and store.get("x") is None
        assert reader.refresh() and len(reader) == 3 and not reader.refresh()

        with swipedict.Dictionary(BLOB) as d:
            session = d.session()
            hello = ideal_path(d, "hello")
            d.use_user_words(reader)
            assert "hello" not in d.complete("hel", limit=20) and d.lookup("hello") is not None
            zoe = [s for s in d.complete_scored("zo", limit=20) if s.word == "Zoë"]
            assert zoe and zoe[0].id >= len(d) and d.word(zoe[0].id) == "Zoë"
            session.add_points(hello)
            assert "hello" not in session.end().words
            d.use_user_words(None)
            session.add_points(hello)
            assert session.end().words[0] == "hello"
            session.close()
        assert store.remove("Zoë") and len(store) == 2
