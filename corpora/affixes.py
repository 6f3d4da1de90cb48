"""Hunspell dictionaries read and expanded: the word forms a .dic/.aff pair spells out.

corpora/make_corpora.py uses it for what asking hunspell itself (`hunspell -l`) cannot give:
the spelling of each form (case: `iPhone`, `iPhones`), the forms of the stems a dictionary
flags NOSUGGEST (in SCOWL's English dictionaries: offensive words) or FORBIDDENWORD (in
igerman98: known misspellings such as `Abendmal`), and which forms a stem has at all.

What is expanded, as hunspell applies it (hunspell(5)):
  - FLAG char (default), long, num and UTF-8; AF flag aliases;
  - PFX and SFX rules: strip, append, condition (a pattern of characters, `.` and `[...]`
    or `[^...]` classes, anchored at the end for suffixes and the start for prefixes);
  - the cross product of a prefix and a suffix when both rules allow it (`Y`);
  - continuation classes (`ant/n'q'`: flags on an affix): one further level, a second
    suffix on a suffixed form (en_GB's `-ation` then `-s`) or a prefix on it (French
    elision, `n'`), as hunspell's two-fold suffixes allow;
  - NEEDAFFIX and ONLYINCOMPOUND stems are no words by themselves (only their affixed
    forms, resp. none: compounding is left to hunspell); CIRCUMFIX affixes are applied only
    together (a prefix and a suffix that both carry the flag).
Not expanded: compounds (COMPOUNDFLAG, COMPOUNDRULE), which are unbounded; the caller asks
hunspell for them. ICONV/OCONV and morphological fields are ignored.

Measured against hunspell itself (the numbers in corpora/README.md, "Spelling sources"):
every form this module spells for en_US, en_GB and de_DE is one that `hunspell -l` accepts,
but a few dozen (forms of stems whose rules hunspell resolves differently, see the README);
Debian's `unmunch` (hunspell-tools 1.7.1) is not used: it spells en_GB forms hunspell
rejects (`refractorinessation's`) and leaves flags in 136,666 de_DE lines.

Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class Affix:
    kind: str            # "PFX" or "SFX"
    flag: str
    cross: bool
    strip: str
    append: str
    cont: tuple[str, ...]  # continuation flags
    condition: re.Pattern | None

    def apply(self, word: str) -> str | None:
        """The affixed form, or None when the condition or the strip does not match."""
        if self.kind == "SFX":
            if self.condition is not None and not self.condition.search(word):
                return None
            if self.strip:
                if not word.endswith(self.strip) or len(word) <= len(self.strip):
                    return None
                word = word[: -len(self.strip)]
            return word + self.append
        if self.condition is not None and not self.condition.match(word):
            return None
        if self.strip:
            if not word.startswith(self.strip) or len(word) <= len(self.strip):
                return None
            word = word[len(self.strip):]
        return self.append + word


@dataclass
class Dictionary:
    """A parsed .aff/.dic pair: its stems (word, flags) and affix rules."""
    name: str
    flag_mode: str = "char"
    affixes: dict[str, list[Affix]] = field(default_factory=dict)
    stems: list[tuple[str, frozenset[str]]] = field(default_factory=list)
    nosuggest: str | None = None
    forbidden: str | None = None
    needaffix: str | None = None
    onlyincompound: str | None = None
    circumfix: str | None = None
    aliases: list[frozenset[str]] = field(default_factory=list)
    cross: dict[tuple[str, str], bool] = field(default_factory=dict)

    # ---------------------------------------------------------------- reading
    def split_flags(self, text: str) -> frozenset[str]:
        if not text:
            return frozenset()
        if self.aliases and text.isdigit():
            index = int(text)
            if 1 <= index <= len(self.aliases):
                return self.aliases[index - 1]
        if self.flag_mode == "long":
            return frozenset(text[i:i + 2] for i in range(0, len(text) - 1, 2))
        if self.flag_mode == "num":
            return frozenset(f for f in text.split(",") if f)
        return frozenset(text)

    @classmethod
    def read(cls, dic_path: str, aff_path: str) -> "Dictionary":
        d = cls(name=dic_path)
        d._read_aff(_read_text(aff_path))
        d._read_dic(_read_text(dic_path))
        return d

    def _read_aff(self, text: str) -> None:
        lines = [line.split() for line in text.splitlines()]
        # FLAG first: every other line's flags depend on it.
        for f in lines:
            if len(f) >= 2 and f[0] == "FLAG":
                self.flag_mode = {"long": "long", "num": "num"}.get(f[1], "char")
        pending: dict[tuple[str, str], int] = {}
        for f in lines:
            if not f or f[0].startswith("#"):
                continue
            key = f[0]
            if key == "AF" and len(f) >= 2 and not f[1].isdigit():
                self.aliases.append(self._flags_no_alias(f[1]))
            elif key in ("NOSUGGEST", "FORBIDDENWORD", "NEEDAFFIX", "ONLYINCOMPOUND",
                         "CIRCUMFIX") and len(f) >= 2:
                setattr(self, "forbidden" if key == "FORBIDDENWORD" else key.lower(), f[1])
            elif key in ("PFX", "SFX") and len(f) >= 4:
                flag = f[1]
                if (key, flag) not in pending:
                    # The header: PFX flag cross count.
                    if f[2] in ("Y", "N") and f[3].isdigit():
                        pending[(key, flag)] = int(f[3])
                        self.affixes.setdefault(flag, [])
                        self.cross[(key, flag)] = f[2] == "Y"
                    continue
                strip = "" if f[2] == "0" else f[2]
                append, _, cont = f[3].partition("/")
                append = "" if append == "0" else append
                condition = f[4] if len(f) >= 5 else "."
                self.affixes[flag].append(Affix(
                    kind=key, flag=flag, cross=self.cross[(key, flag)], strip=strip,
                    append=append,
                    cont=tuple(sorted(self._flags_no_alias(cont) if not (self.aliases and cont.isdigit())
                                      else self.split_flags(cont))),
                    condition=_condition(condition, key)))

    def _flags_no_alias(self, text: str) -> frozenset[str]:
        aliases, self.aliases = self.aliases, []
        try:
            return self.split_flags(text)
        finally:
            self.aliases = aliases

    def _read_dic(self, text: str) -> None:
        lines = text.splitlines()
        for n, line in enumerate(lines):
            if n == 0 and line.strip().isdigit():
                continue
            if not line or line[0] in " \t#":
                continue
            entry = line.split("\t")[0].split(" ")[0] if "\t" in line or " " in line else line
            word, flags = _split_entry(entry)
            if word:
                self.stems.append((word, self.split_flags(flags)))

    # ---------------------------------------------------------------- expanding
    def forms(self, word: str, flags: frozenset[str]) -> set[str]:
        """Every form of one stem (itself included unless NEEDAFFIX/ONLYINCOMPOUND)."""
        out: set[str] = set()
        if self.onlyincompound and self.onlyincompound in flags:
            return out
        if not (self.needaffix and self.needaffix in flags):
            out.add(word)
        only = self.onlyincompound
        usable = [a for f in sorted(flags) for a in self.affixes.get(f, ())
                  if not (only and only in a.cont)]  # such an affix makes a compound part
        prefixes = [a for a in usable if a.kind == "PFX"]
        suffixes = [a for a in usable if a.kind == "SFX"]
        circ = self.circumfix
        for p in prefixes:
            if circ and circ in p.cont:
                continue
            form = p.apply(word)
            if form is not None:
                out.add(form)
        for s in suffixes:
            form = s.apply(word)
            if form is None:
                continue
            s_circ = bool(circ and circ in s.cont)
            if not s_circ and not (self.needaffix and self.needaffix in s.cont):
                out.add(form)
            # A second suffix, or a prefix, from the suffix's continuation classes.
            for f in s.cont:
                for a in self.affixes.get(f, ()):
                    if only and only in a.cont:
                        continue
                    second = a.apply(form)
                    if second is not None and not s_circ:
                        out.add(second)
            # The cross product with the stem's own prefixes.
            if s.cross:
                for p in prefixes:
                    if not p.cross or (circ and (circ in p.cont) != s_circ):
                        continue
                    both = p.apply(form)
                    if both is not None:
                        out.add(both)
        return out

    def expand(self) -> dict[str, frozenset[str]]:
        """form -> the flags of the stem(s) it comes from (union)."""
        result: dict[str, set[str]] = {}
        for word, flags in self.stems:
            if self.forbidden and self.forbidden in flags:
                continue  # a misspelling: flagged_forms(forbidden) has its forms
            for form in self.forms(word, flags):
                result.setdefault(form, set()).update(flags)
        return {k: frozenset(v) for k, v in result.items()}

    def flagged_forms(self, flag: str | None) -> set[str]:
        """The forms of the stems that carry `flag` (NOSUGGEST, FORBIDDENWORD)."""
        if not flag:
            return set()
        out: set[str] = set()
        for word, flags in self.stems:
            if flag in flags:
                out |= self.forms(word, flags) | {word}
        return out


def _split_entry(entry: str) -> tuple[str, str]:
    """`word/flags` with `\\/` an escaped slash in the word."""
    i = 0
    while True:
        j = entry.find("/", i)
        if j < 0:
            return entry.replace("\\/", "/"), ""
        if j > 0 and entry[j - 1] == "\\":
            i = j + 1
            continue
        return entry[:j].replace("\\/", "/"), entry[j + 1:]


def _condition(text: str, kind: str) -> re.Pattern | None:
    if text == ".":
        return None
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "[":
            j = text.index("]", i)
            body = text[i + 1:j]
            neg = body.startswith("^")
            chars = body[1:] if neg else body
            out.append("[" + ("^" if neg else "") + "".join(re.escape(x) for x in chars) + "]")
            i = j + 1
        elif c == ".":
            out.append(".")
            i += 1
        else:
            out.append(re.escape(c))
            i += 1
    pattern = "".join(out)
    return re.compile(pattern + "$" if kind == "SFX" else pattern)


def _read_text(path: str) -> str:
    raw = open(path, "rb").read()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("iso-8859-1")
