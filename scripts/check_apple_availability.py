#!/usr/bin/env python3
"""Checks that the products a keyboard links call no Swift API above the Apple floors.

Linux builds check no availability: a call to an API that Apple's SDK has only from iOS 18
compiles here and fails to compile for an iOS 16 app. This script does the check the Apple
compiler would do, for the standard library's modules (Swift, _Concurrency,
_StringProcessing, Synchronization):

1. The floors come from Package.swift's `platforms:` (macOS, iOS, tvOS, watchOS, visionOS).
2. The targets are those of the products a keyboard links (SwipeDict, SwipeDecoder and
   whatever they depend on in this package), read from `swift package describe`.
3. Each target's sources are type-checked by the Swift compiler, which writes its syntax tree
   as JSON (`-dump-ast -dump-ast-format json`) with the USR of every declaration a piece of
   code refers to, and the mangled name of every type it uses.
4. The availability of each standard-library declaration comes from the toolchain's own
   modules (`swift-symbolgraph-extract`, which reads the `@available` attributes the
   `.swiftinterface` files carry: `@available(macOS 15.0, iOS 18.0, …)`).
5. A reference is fine when, on every platform, the API's version is at most the floor of
   the code around it: the package's floor, raised by an `@available` attribute on an
   enclosing declaration, by `if #available(…)` around it, or by a `guard #available(…)`
   before it in its block.

Declarations the symbol graph leaves out (underscored ones) must be listed in
scripts/apple_availability_allowed.txt with the reason they are safe; anything else is an
error. Calls into C (Glibc or Darwin) and into Foundation are not checked here: the Darwin
branches are few and read against Apple's documentation (docs/apple.md).

Usage:
  scripts/check_apple_availability.py             check every target (after `swift build`;
                                                  make test runs it), and that no two tracked
                                                  paths differ only in case
  scripts/check_apple_availability.py --self-test show that the check finds an unguarded
                                                  call of an iOS 18 API and accepts guarded ones
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLATFORMS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")
CHECKED_MODULES = ("Swift", "_Concurrency", "_StringProcessing", "Synchronization")
KEYBOARD_PRODUCTS = ("SwipeDict", "SwipeDecoder")
ALLOWED_FILE = ROOT / "scripts" / "apple_availability_allowed.txt"

Version = tuple  # (major, minor)


def parse_version(text: str) -> Version:
    parts = [int(p) for p in text.split(".")]
    return (parts[0], parts[1] if len(parts) > 1 else 0)


def vision_from_ios(ios: Version) -> Version:
    """visionOS availability inferred from iOS, as the compiler does: iOS 17 or earlier is
    visionOS 1.0; iOS 18 is visionOS 2; from iOS 26 the numbers are the same."""
    if ios <= (17, 0) or ios[0] <= 17:
        return (1, 0)
    if ios[0] < 26:
        return (ios[0] - 16, ios[1])
    return ios


def show(v: Version) -> str:
    return f"{v[0]}.{v[1]}" if v[1] else f"{v[0]}"


# MARK: - Floors and targets


def package_floors(package_swift: Path) -> dict[str, Version]:
    text = package_swift.read_text()
    block = re.search(r"platforms:\s*\[(.*?)\]", text, re.S)
    if not block:
        sys.exit(f"{package_swift}: no `platforms:` list; the keyboard products need a floor per Apple platform")
    floors = {}
    for name, major, minor in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\.v(\d+)(?:_(\d+))?\)", block.group(1)):
        floors[name] = (int(major), int(minor or 0))
    missing = [p for p in PLATFORMS if p not in floors]
    if missing:
        sys.exit(f"{package_swift}: `platforms:` names no floor for {', '.join(missing)}: "
                 "without one the package takes the tools' default, below what the products need")
    return floors


def package_targets(describe: dict) -> tuple[list[dict], set[str]]:
    """The package's Swift targets but the tests, dependencies first, and the names of those the
    keyboard products are built from."""
    targets = {t["name"]: t for t in describe["targets"]}
    ordered: list[str] = []

    def visit(name: str) -> None:
        target = targets.get(name)
        if target is None or name in ordered:
            return
        for dependency in target.get("target_dependencies", []):
            visit(dependency)
        ordered.append(name)

    def shipped(target: dict) -> bool:
        return target.get("type") != "test" and not target["path"].startswith("Tests/")

    for name in sorted(targets):
        if shipped(targets[name]):
            visit(name)
    keyboard: set[str] = set()

    def mark(name: str) -> None:
        if name in targets and name not in keyboard:
            keyboard.add(name)
            for dependency in targets[name].get("target_dependencies", []):
                mark(dependency)

    for product in describe["products"]:
        if product["name"] in KEYBOARD_PRODUCTS:
            for name in product["targets"]:
                mark(name)
    swift = [targets[n] for n in ordered if targets[n].get("module_type") == "SwiftTarget" and shipped(targets[n])]
    return swift, keyboard


def module_maps(describe: dict) -> list[str]:
    """The module maps of the package's system-library targets (CZstd, CZlib)."""
    return [str(ROOT / t["path"] / "module.modulemap") for t in describe["targets"]
            if t.get("module_type") == "SystemLibraryTarget"]


# MARK: - Availability of the standard library


@dataclass
class Availability:
    name: str
    path: tuple[str, ...]
    signature: str
    introduced: dict[str, Version] = field(default_factory=dict)
    unavailable: set[str] = field(default_factory=set)

    def above(self, floors: dict[str, Version]) -> list[str]:
        """What of this declaration is above `floors`, one entry per platform."""
        found = []
        for platform in PLATFORMS:
            needed = self.introduced.get(platform)
            if platform in self.unavailable:
                found.append(f"unavailable on {platform}")
            elif needed is not None and needed > floors[platform]:
                found.append(f"{platform} {show(needed)} (floor here {show(floors[platform])})")
        return found


def symbol_graph(work: Path) -> tuple[dict[str, Availability], dict[tuple[str, ...], list[str]]]:
    """USR -> availability, and (module, path components…) -> USRs, for CHECKED_MODULES."""
    by_usr: dict[str, Availability] = {}
    by_path: dict[tuple[str, ...], list[str]] = {}
    out = work / "symbols"
    out.mkdir(parents=True, exist_ok=True)
    for module in CHECKED_MODULES:
        subprocess.run(
            ["swift-symbolgraph-extract", "-module-name", module, "-target", host_triple(),
             "-output-dir", str(out), "-minimum-access-level", "public"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for path in sorted(out.glob("*.symbols.json")):
        graph = json.loads(path.read_text())
        module = graph["module"]["name"]
        for symbol in graph["symbols"]:
            usr = symbol["identifier"]["precise"]
            path_key = (module, *symbol["pathComponents"])
            signature = json.dumps(symbol.get("functionSignature"), sort_keys=True)
            availability = Availability(".".join(symbol["pathComponents"]), path_key, signature)
            for entry in symbol.get("availability", []):
                domain = entry.get("domain")
                if domain not in PLATFORMS:
                    continue
                if entry.get("isUnconditionallyUnavailable"):
                    availability.unavailable.add(domain)
                if "introduced" in entry:
                    i = entry["introduced"]
                    availability.introduced[domain] = (i["major"], i.get("minor", 0))
            if "iOS" in availability.introduced and "visionOS" not in availability.introduced:
                availability.introduced["visionOS"] = vision_from_ios(availability.introduced["iOS"])
            by_usr[usr] = availability
            by_path.setdefault(path_key, []).append(usr)
    return by_usr, by_path


def host_triple() -> str:
    result = subprocess.run(["swiftc", "-print-target-info"], check=True, capture_output=True, text=True)
    return json.loads(result.stdout)["target"]["triple"]


def usr_module(usr: str) -> str | None:
    """The module a Swift USR belongs to: `s:12_Concurrency…`, or a standard substitution
    (`s:s5UInt8V…`, `s:SS…` for String; `s:Sc…` for _Concurrency's Task and friends);
    None for a C declaration (`c:…`) or an imported one (`s:So…`)."""
    if not usr.startswith("s:"):
        return None
    body = usr[2:]
    if body.startswith("e:"):
        body = body[2:].removeprefix("s:")
    if body.startswith(("So", "SC")):
        return None
    if body.startswith("Sc"):
        return "_Concurrency"
    if body.startswith(("s", "S")):
        return "Swift"
    match = re.match(r"(\d+)", body)
    if match:
        start = len(match.group(1))
        return body[start:start + int(match.group(1))]
    return None


# MARK: - The syntax trees


@dataclass
class Use:
    usr: str
    name: str
    file: str
    line: int
    floors: dict[str, Version]


@dataclass
class Build:
    """Where the compiled modules the targets import are, and what else the compiler needs."""
    modules: Path
    bin_path: Path
    package_name: str
    maps: list[str]

    def other_modules(self) -> list[str]:
        """The modules a target may import that are not checked here: the package's dependencies
        and C libraries, Foundation's modules, the C library's."""
        built = [p.stem for p in self.modules.glob("*.swiftmodule")]
        toolchain = ["Foundation", "FoundationEssentials", "FoundationInternationalization",
                     "FoundationNetworking", "Glibc", "Musl", "Darwin", "Dispatch"]
        return sorted(set(built + toolchain) - set(CHECKED_MODULES))


def dump_asts(target: dict, build: Build, work: Path, defines: list[str]) -> list[dict]:
    sources = [str(ROOT / target["path"] / s) for s in target["sources"]]
    # Generated sources (a target's embedded resources).
    sources += [str(p) for p in sorted((build.bin_path / f"{target['name']}.build" / "DerivedSources").glob("*.swift"))]
    args = ["swiftc", "-frontend", "-dump-ast", "-dump-ast-format", "json",
            "-module-name", target["name"], "-package-name", build.package_name,
            "-swift-version", "6", "-parse-as-library", "-I", str(build.modules)]
    for module_map in build.maps:
        args += ["-Xcc", f"-fmodule-map-file={module_map}"]
    for define in defines:
        args += ["-D", define]
    for source in sources:
        args += ["-primary-file", source]
    out = work / f"{target['name']}.ast.json"
    with out.open("w") as stream:
        result = subprocess.run(args, stdout=stream, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"the compiler could not type-check {target['name']}:\n{result.stderr[-4000:]}")
    raw = out.read_text()
    decoder = json.JSONDecoder()
    files, i = [], 0
    while i < len(raw):
        while i < len(raw) and raw[i].isspace():
            i += 1
        if i >= len(raw):
            break
        tree, i = decoder.raw_decode(raw, i)
        files.append(tree)
    out.unlink()
    return files


def raise_floors(floors: dict[str, Version], specs: list[tuple[str, Version]]) -> dict[str, Version]:
    raised = dict(floors)
    for domain, version in specs:
        if domain in raised and version > raised[domain]:
            raised[domain] = version
    if any(d == "iOS" for d, _ in specs) and not any(d == "visionOS" for d, _ in specs):
        raised["visionOS"] = max(raised["visionOS"], vision_from_ios(raised["iOS"]))
    return raised


def available_specs(condition: dict) -> list[tuple[str, Version]] | None:
    """The platforms and versions of an `#available(…)` condition, or None."""
    if condition.get("_kind") != "#available":
        return None
    return [(q["domain"], parse_version(q["version"])) for q in condition.get("queries", [])
            if q.get("domain") in PLATFORMS and "version" in q]


def attribute_specs(node: dict) -> list[tuple[str, Version]]:
    return [(a["domain"], parse_version(a["introduced"])) for a in node.get("attrs", [])
            if a.get("_kind") == "available_attr" and a.get("domain") in PLATFORMS and "introduced" in a]


def collect_uses(tree: dict, floors: dict[str, Version], uses: list[Use], types: list[Use]) -> None:
    path = tree["filename"]
    text = Path(path).read_bytes()
    line_starts = [0] + [i + 1 for i, b in enumerate(text) if b == 0x0A]

    def line_of(offset: int) -> int:
        lo, hi = 0, len(line_starts)
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            if line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1

    def walk(node, floors, offset):
        if isinstance(node, list):
            for item in node:
                walk(item, floors, offset)
            return
        if not isinstance(node, dict):
            return
        kind = node.get("_kind")
        if isinstance(node.get("range"), dict):
            offset = node["range"].get("start", offset)
        specs = attribute_specs(node)
        if specs:
            floors = raise_floors(floors, specs)
        if kind == "decl_ref" and node.get("decl_usr"):
            uses.append(Use(node["decl_usr"], node.get("base_name", "?"), path, line_of(offset), floors))
        for key in ("type", "type_usr", "interface_type", "result"):
            value = node.get(key)
            if isinstance(value, str) and value.startswith("$s"):
                types.append(Use(value, "", path, line_of(offset), floors))
        if kind == "if_stmt":
            conditions = node.get("conditions", [])
            walk(conditions, floors, offset)
            specs = [s for c in conditions for s in (available_specs(c) or [])]
            walk(node.get("then_stmt"), raise_floors(floors, specs), offset)
            walk(node.get("else_stmt"), floors, offset)
            return
        if kind == "brace_stmt":
            current = floors
            for element in node.get("elements", []):
                walk(element, current, offset)
                if isinstance(element, dict) and element.get("_kind") == "guard_stmt":
                    specs = [s for c in element.get("conditions", []) for s in (available_specs(c) or [])]
                    current = raise_floors(current, specs)
            return
        for key, value in node.items():
            if key not in ("attrs", "_kind", "range"):
                walk(value, floors, offset)

    walk(tree, floors, 0)


def demangle(names: list[str]) -> dict[str, str]:
    if not names:
        return {}
    result = subprocess.run(["swift-demangle", "--compact"], input="\n".join(names) + "\n",
                            capture_output=True, text=True, check=True)
    return dict(zip(names, result.stdout.splitlines()))


def type_paths(demangled: str) -> set[tuple[str, ...]]:
    """The checked modules' nominal types a demangled type names, each with its enclosing ones
    (`_Concurrency.ContinuousClock.Instant` gives ContinuousClock and ContinuousClock.Instant)."""
    found = set()
    for module in CHECKED_MODULES:
        for match in re.finditer(rf"(?<![\w.]){re.escape(module)}((?:\.[A-Za-z_]\w*)+)", demangled):
            parts = match.group(1).split(".")[1:]
            for n in range(1, len(parts) + 1):
                found.add((module, *parts[:n]))
    return found


# MARK: - The check


def load_allowed() -> dict[str, str]:
    allowed = {}
    if ALLOWED_FILE.exists():
        for line in ALLOWED_FILE.read_text().splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            usr, _, reason = line.partition(" ")
            allowed[usr] = reason.strip()
    return allowed


def check(targets: list[dict], floors: dict[str, Version], build: Build, work: Path, defines: list[str],
          quiet: bool = False, graph=None) -> list[str]:
    by_usr, by_path = graph or symbol_graph(work)
    allowed = load_allowed()
    problems: list[str] = []
    counted = {"checked": 0, "other modules": 0, "allowed": 0, "older overload": 0}
    for target in targets:
        uses: list[Use] = []
        types: list[Use] = []
        for tree in dump_asts(target, build, work, defines):
            collect_uses(tree, floors, uses, types)
        names = demangle(sorted({t.usr for t in types}))
        for t in types:
            for path in type_paths(names.get(t.usr, "")):
                for usr in by_path.get(path, []):
                    uses.append(Use(usr, ".".join(path[1:]), t.file, t.line, t.floors))
        ours = tuple(f"{len(t['name'])}{t['name']}" for t in targets)
        others = tuple(f"{len(m)}{m}" for m in build.other_modules())
        seen = set()
        for use in uses:
            module = usr_module(use.usr)
            if module not in CHECKED_MODULES:
                if module is None or module not in {t["name"] for t in targets}:
                    counted["other modules"] += 1
                continue
            if any(name in use.usr for name in ours):
                continue  # a member of this package's extension of a standard type
            availability = by_usr.get(use.usr)
            if availability is None and any(name in use.usr for name in others):
                counted["other modules"] += 1  # another module's extension of a standard type
                continue
            if availability is None:
                if use.usr in allowed:
                    counted["allowed"] += 1
                    continue
                if "_builtin" in use.usr or use.name.startswith("_builtin"):
                    continue  # literal initializers the compiler calls
                key = (use.usr, use.file, use.line)
                if key not in seen:
                    seen.add(key)
                    problems.append(f"{rel(use.file)}:{use.line}: `{use.name}` ({use.usr}) is not in the "
                                    "standard library's symbol graph: check its availability by hand and list "
                                    f"it in {rel(str(ALLOWED_FILE))} with the reason")
                continue
            counted["checked"] += 1
            above = availability.above(use.floors)
            if above and any(
                    not by_usr[other].above(use.floors) and by_usr[other].signature == availability.signature
                    for other in by_path.get(availability.path, []) if other != use.usr):
                # Another declaration of the same name and signature is available here (a newer
                # protocol requirement beside its older default, as `FixedWidthInteger.&*`): the
                # Apple compiler ranks the unavailable one lower and picks that one.
                counted["older overload"] += 1
                continue
            key = (use.usr, use.file, use.line)
            if above and key not in seen:
                seen.add(key)
                problems.append(f"{rel(use.file)}:{use.line}: `{availability.name}` needs {', '.join(above)}: "
                                "guard it with `if #available`, or raise the floor in Package.swift")
    if not quiet:
        print(f"apple-availability: {', '.join(t['name'] for t in targets)}: {counted['checked']} references "
              f"into {', '.join(CHECKED_MODULES)} checked against "
              + ", ".join(f"{p} {show(floors[p])}" for p in PLATFORMS)
              + f" ({counted['older overload']} to a newer declaration beside an older one of the same "
              "signature, which the Apple compiler picks)"
              + f"; {counted['allowed']} listed in {ALLOWED_FILE.name}; {counted['other modules']} into C, "
              "Foundation and other packages not checked here (docs/apple.md)")
    return sorted(set(problems))


def rel(path: str) -> str:
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return path


def self_test(work: Path) -> int:
    """An iOS 18 call unguarded must be found; guarded ones must not."""
    source = work / "selftest" / "Sources" / "Probe"
    source.mkdir(parents=True, exist_ok=True)
    (source / "Probe.swift").write_text("""\
func unguarded(_ b: [UInt8]) -> String? {
  String(validating: b, as: UTF8.self)  // expected: iOS 18, unguarded
}
func guarded(_ b: [UInt8]) -> String? {
  if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
    return String(validating: b, as: UTF8.self)
  }
  return nil
}
func guardedEarly(_ b: [UInt8]) -> String? {
  guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
  return String(validating: b, as: UTF8.self)
}
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
func annotated(_ b: [UInt8]) -> String? { String(validating: b, as: UTF8.self) }
func atTheFloor() -> Duration { ContinuousClock.now - ContinuousClock.now }
func partlyGuarded(_ b: [UInt8]) -> String? {
  if #available(macOS 15, *) { return String(validating: b, as: UTF8.self) }  // expected: only macOS guarded
  return nil
}
""")
    target = {"name": "Probe", "path": str(source), "sources": ["Probe.swift"]}
    floors = {"macOS": (13, 0), "iOS": (16, 0), "tvOS": (16, 0), "watchOS": (9, 0), "visionOS": (1, 0)}
    problems = check([target], floors, Build(work, work, "probe", []), work, [], quiet=True)
    lines = sorted({int(p.split(":")[1]) for p in problems})
    text = (source / "Probe.swift").read_text().splitlines()
    expected = [n for n, line in enumerate(text, 1) if "// expected:" in line]
    if lines != expected:
        print("apple-availability self-test FAILED: expected problems on lines "
              f"{expected} of the probe, got {lines}:", *problems, sep="\n  ")
        return 1
    print(f"apple-availability self-test: an unguarded iOS 18 call and a partly guarded one found "
          f"({len(problems)} problems on lines {lines}); #available, guard #available, @available and "
          "floor-level APIs accepted")
    return 0


def case_collisions() -> list[str]:
    """Tracked paths (files or folders) that differ only in case: one path on a case-insensitive
    disk, macOS's default, where a clone would merge them."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        return []  # not a git checkout: nothing to compare
    paths = set()
    for line in listed.stdout.splitlines():
        parts = line.split("/")
        paths.update("/".join(parts[:n]) for n in range(1, len(parts) + 1))
    by_fold: dict[str, list[str]] = {}
    for path in sorted(paths):
        by_fold.setdefault(path.lower(), []).append(path)
    return [" and ".join(group) for group in by_fold.values() if len(group) > 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--self-test", action="store_true", help="check the checker on a probe")
    parser.add_argument("--bin-path", help="the debug build's bin path (default: swift build --show-bin-path)")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="apple-availability-") as temporary:
        work = Path(temporary)
        if options.self_test:
            return self_test(work)
        bin_path = Path(options.bin_path or subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout.strip())
        modules = bin_path / "Modules"
        if not modules.is_dir():
            modules = bin_path
        describe = json.loads(subprocess.run(
            ["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True, capture_output=True,
            text=True).stdout)
        collisions = case_collisions()
        if collisions:
            print("apple-availability: paths that differ only in case, one path on a case-insensitive disk "
                  "(macOS's default):", *collisions, sep="\n  ")
            return 1
        floors = package_floors(ROOT / "Package.swift")
        targets, keyboard = package_targets(describe)
        # SwiftPM names a root package by its folder (lowercased): the modules were built with it.
        # The C modules of the dependencies too (FlyingSocks's CSystemLinux).
        checkouts = sorted(str(p) for p in (bin_path.parent.parent / "checkouts").glob("*/**/module.modulemap"))
        build = Build(modules, bin_path, ROOT.name.lower(), module_maps(describe) + checkouts)
        graph = symbol_graph(work)
        # Every target as released; the keyboard's also with its debug-only invariant checks.
        problems = check(targets, floors, build, work, [], graph=graph)
        problems += check([t for t in targets if t["name"] in keyboard], floors, build, work,
                          ["SWIPEDICT_INTERNAL_CHECKS"], quiet=True, graph=graph)
        problems = sorted(set(problems))
        if problems:
            print(f"apple-availability: {len(problems)} uses above the Apple floors of Package.swift:",
                  *problems, sep="\n  ")
            return 1
        return 0


if __name__ == "__main__":
    sys.exit(main())
