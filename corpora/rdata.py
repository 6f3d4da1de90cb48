"""Character vectors out of an installed R package's data, without R.

An R package installs its data sets as a lazy-load database: data/Rdata.rdx (a gzip-compressed
serialized R list: each object's name and its offset and length in Rdata.rdb) and
data/Rdata.rdb (each object a 4-byte big-endian length, then its zlib-compressed
serialization). corpora/make_pairs.py reads Jane Austen's novels from Debian's
r-cran-janeaustenr so.

The serialization ("R internals", section 1.8) is read far enough for data: XDR ("X\\n")
format versions 2 and 3; pairlists, symbols, character, logical, integer, real and generic
vectors, attributes, references; the compact ALTREP integer sequences R writes for row names.
Anything else is an error naming the type, never a silent skip. Standard library only.
"""

from __future__ import annotations

import gzip
import struct
import zlib

NILVALUE, REFSXP, GLOBALENV, UNBOUNDVALUE, MISSINGARG, BASENAMESPACE = 254, 255, 253, 252, 251, 250
EMPTYENV, BASEENV, ATTRLISTSXP, ATTRLANGSXP, ALTREP = 242, 241, 239, 240, 238
SYMSXP, LISTSXP, LANGSXP, CHARSXP, LGLSXP, INTSXP, REALSXP, STRSXP, VECSXP = 1, 2, 6, 9, 10, 13, 14, 16, 19


class RObject:
    """A vector or pairlist with its attributes (name -> value)."""

    def __init__(self, kind: int, value, attributes: dict | None = None):
        self.kind = kind
        self.value = value
        self.attributes = attributes or {}


class Reader:
    def __init__(self, data: bytes):
        if data[:2] != b"X\n":
            raise ValueError("not an XDR serialization of R (it does not start with 'X\\n')")
        self.data = data
        self.pos = 2
        self.refs: list = []
        version = self.int()
        self.int()  # writer's R version
        self.int()  # minimal reader version
        if version == 3:
            length = self.int()  # the native encoding's name follows
            self.pos += length
        elif version != 2:
            raise ValueError(f"R serialization version {version}")

    def int(self) -> int:
        (v,) = struct.unpack_from(">i", self.data, self.pos)
        self.pos += 4
        return v

    def item(self):
        flags = self.int()
        kind = flags & 0xFF
        has_attr, has_tag = flags & (1 << 9), flags & (1 << 10)
        if kind == NILVALUE:
            return None
        if kind == REFSXP:
            index = flags >> 8
            return self.refs[(index if index else self.int()) - 1]
        if kind in (GLOBALENV, UNBOUNDVALUE, MISSINGARG, BASENAMESPACE, EMPTYENV, BASEENV):
            return None
        if kind == SYMSXP:
            name = self.item()
            self.refs.append(name)
            return name
        if kind in (LISTSXP, LANGSXP, ATTRLISTSXP, ATTRLANGSXP):
            out: dict = {}
            attributes = self.item() if has_attr else None
            tag = self.item() if has_tag else None
            out[tag if tag is not None else len(out)] = self.item()
            rest = self.item()
            if isinstance(rest, RObject) and rest.kind == LISTSXP:
                for k, v in rest.value.items():
                    out[k if not isinstance(k, int) else len(out)] = v
            return RObject(LISTSXP, out, attributes.value if isinstance(attributes, RObject) else None)
        if kind == CHARSXP:
            length = self.int()
            if length == -1:
                return None  # NA_character_
            s = self.data[self.pos:self.pos + length].decode("utf-8", errors="strict")
            self.pos += length
            return s
        if kind in (LGLSXP, INTSXP):
            n = self.int()
            value = list(struct.unpack_from(f">{n}i", self.data, self.pos))
            self.pos += 4 * n
        elif kind == REALSXP:
            n = self.int()
            value = list(struct.unpack_from(f">{n}d", self.data, self.pos))
            self.pos += 8 * n
        elif kind in (STRSXP, VECSXP):
            n = self.int()
            value = [self.item() for _ in range(n)]
        elif kind == ALTREP:
            info, state, attributes = self.item(), self.item(), self.item()
            cls = info.value.get(0) if isinstance(info, RObject) else None
            if cls == "compact_intseq" and isinstance(state, RObject):
                n, start, step = (int(x) for x in state.value)
                return RObject(INTSXP, list(range(start, start + n * step, step)),
                               attributes.value if isinstance(attributes, RObject) else None)
            raise ValueError(f"ALTREP class {cls!r} is not supported")
        else:
            raise ValueError(f"R object type {kind} is not supported")
        attributes = self.item() if has_attr else None
        return RObject(kind, value, attributes.value if isinstance(attributes, RObject) else None)


def named(obj: RObject) -> dict:
    """A named list (a generic vector with a `names` attribute) as a dict."""
    return dict(zip(obj.attributes["names"].value, obj.value))


def unserialize(data: bytes):
    return Reader(data).item()


def lazyload(rdx_path: str, rdb_path: str) -> dict:
    """name -> object, for every object of an R lazy-load database."""
    index = named(unserialize(gzip.decompress(open(rdx_path, "rb").read())))
    rdb = open(rdb_path, "rb").read()
    out = {}
    for name, where in named(index["variables"]).items():
        offset, length = (int(x) for x in where.value)
        blob = rdb[offset:offset + length]
        (size,) = struct.unpack(">I", blob[:4])
        data = zlib.decompress(blob[4:])
        if len(data) != size:
            raise ValueError(f"{rdb_path}: {name}: {len(data)} bytes, the index says {size}")
        out[name] = unserialize(data)
    return out
