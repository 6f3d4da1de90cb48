#!/usr/bin/env python3
"""Where a blob's automaton bytes go, and how far other encodings of the same automaton
could take them: the evidence behind bench/README's "How small the automaton can get".

  automaton_bytes.py BLOB [--hits FILE] [--prefixes FILE] [--swipedict PATH]

1. Parses the DAWG section's node area (format 1.5, docs/format.md) node by node, from
   the last byte down, and splits its bytes into targets, labels, outputs and the rest
   (headers, counts, width codes, dense indexes). The parts must add up to the section's
   node bytes, or the script stops.
2. Rebuilds the minimal automaton from the blob's words (`swipedict dump`, labels from
   `swipedict inspect --json`) and checks it has the section's states and transitions.
3. On that automaton: how references spread over states; order-0 entropies of labels and
   targets and the bits of the outputs (what an order-0 coder of each part would need);
   the size of bit-packed encodings with fixed-width fields; and a model of format 1.5's
   own encoder with and without a table of the most referenced states (1-byte references).
4. With --hits, the kinds of node lookups of those words step through; with --prefixes,
   the nodes a depth-first listing of those prefixes enters per word.

Needs python3 and a built swipedict. en takes about 4 s, de about 10 s.
"""
import argparse
import collections
import json
import math
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


# --- 1. The section's bytes, by part -------------------------------------------------------

def section_parts(blob, inspect):
    dawg = next(s for s in inspect["sections"] if s["tag"] == "DAWG")
    with open(blob, "rb") as f:
        f.seek(dawg["offset"])
        section = f.read(dawg["length"])
    words, node_bytes, _root, states, transitions = struct.unpack_from("<QQQII", section, 0)
    area = section[64:]
    if len(area) != node_bytes:
        sys.exit("DAWG: node bytes do not match the section length")
    parts = collections.Counter()
    kinds = collections.Counter()
    p = node_bytes - 1
    while p >= 0:
        h = area[p]
        last_is_next = (h >> 5) & 1  # N, on nodes that are not single
        if h & 0x80:  # single: [field, mm bytes] header
            mm = (h >> 4) & 3
            kinds["single"] += 1
            parts["rest"] += 1
            parts["targets"] += mm
            p -= 1 + mm
            continue
        if h & 0x10:  # pair: targets, [output], label0, label1, header
            c1, c0 = (h >> 2) & 3, h & 3
            target_bytes = (0 if last_is_next else c1) + c0
            output_bytes = 0 if (c0 == 0 or (last_is_next and c1 != 0)) else 1
            kinds["pair"] += 1
            parts["rest"] += 1
            parts["labels"] += 2
            parts["targets"] += target_bytes
            parts["outputs"] += output_bytes
            p -= 3 + target_bytes + output_bytes
            continue
        if h & 3 == 1:  # one transition: [field, cc bytes], label, header
            cc = (h >> 2) & 3
            kinds["one"] += 1
            parts["rest"] += 1
            parts["labels"] += 1
            parts["targets"] += cc
            p -= 2 + cc
            continue
        nn, ow = h & 3, (h >> 2) & 3
        q = p - 1
        delta = False
        if nn in (2, 3):
            n = nn
        else:
            b = area[q]
            q -= 1
            if b < 128:
                n = b
            elif b == 128:
                n = area[q]
                q -= 1
            else:
                n, delta = b - 128, True
        count_bytes = p - 1 - q
        last_label = area[q]  # plain labels end just before the count
        label_bytes = 1 + (n - 1 + 1) // 2 if delta else n
        q -= label_bytes
        output_bytes = (n - 1 + 1) // 2 if ow == 0 else ow * (n - 1)
        q -= output_bytes
        parts["rest"] += 1 + count_bytes
        parts["labels"] += label_bytes
        parts["outputs"] += output_bytes
        if n >= 33:  # wide: dense index, n fixed fields, width byte
            width = area[q]
            kinds["wide"] += 1
            parts["targets"] += n * width
            parts["rest"] += 1 + last_label + 1
            q -= 1 + n * width + last_label + 1
        else:
            code_bytes = (n + 3) // 4
            codes = area[q - code_bytes + 1:q + 1]
            widths = [(codes[i // 4] >> (2 * (i % 4))) & 3 for i in range(n)]
            if last_is_next:
                widths[-1] = 0
            kinds["general"] += 1
            parts["rest"] += code_bytes
            parts["targets"] += sum(widths)
            q -= code_bytes + sum(widths)
        p = q
    if sum(parts.values()) != node_bytes:
        sys.exit("DAWG: the parts do not add up to the node bytes")
    return dict(words=words, node_bytes=node_bytes, states=states, transitions=transitions,
                parts=parts, kinds=kinds)


# --- 2. The automaton, rebuilt ----------------------------------------------------------------

def rebuild(swipedict, blob, inspect):
    label = {c: i for i, c in enumerate(inspect["alphabet"])}
    words = []
    for line in run([swipedict, "dump", blob]).splitlines():
        if line.startswith("#"):
            continue
        words.append(tuple(label[c] for c in line.split("\t")[0]))
    final, labels, targets = [False], [[]], [[]]
    register = {}
    path = [0]
    previous = ()

    def minimize(depth):
        while len(path) - 1 > depth:
            child = path.pop()
            key = (final[child], tuple(labels[child]), tuple(targets[child]))
            same = register.setdefault(key, child)
            if same != child:
                targets[path[-1]][-1] = same

    for word in words:  # in ID order, which is label order
        common = 0
        while common < min(len(word), len(previous)) and word[common] == previous[common]:
            common += 1
        minimize(common)
        for symbol in word[common:]:
            final.append(False)
            labels.append([])
            targets.append([])
            labels[path[-1]].append(symbol)
            targets[path[-1]].append(len(final) - 1)
            path.append(len(final) - 1)
        final[path[-1]] = True
        previous = word
    minimize(0)
    # Keep the reachable states; count the words below each.
    number, order, stack = {}, [], [0]
    while stack:
        s = stack.pop()
        if s not in number:
            number[s] = len(order)
            order.append(s)
            stack.extend(targets[s])
    F = [final[s] for s in order]
    L = [labels[s] for s in order]
    T = [[number[t] for t in targets[s]] for s in order]
    count = [None] * len(order)
    stack = [(0, 0)]
    while stack:
        s, i = stack.pop()
        if i < len(T[s]):
            stack.append((s, i + 1))
            if count[T[s][i]] is None:
                stack.append((T[s][i], 0))
        else:
            count[s] = int(F[s]) + sum(count[t] for t in T[s])
    sink = next(s for s in range(len(T)) if not T[s])
    return dict(final=F, labels=L, targets=T, count=count, sink=sink, words=len(words))


def layout_order(a, hot_states=4096):
    """States in the order DAWGEncoder writes them: the sink, the most referenced states,
    then depth-first post-order from the root."""
    T = a["targets"]
    written = [False] * len(T)
    order = []

    def emit(root):
        if written[root]:
            return
        stack = [[root, 0]]
        on_stack = {root}
        while stack:
            top = stack[-1]
            s, i = top
            if i < len(T[s]):
                top[1] += 1
                child = T[s][i]
                if not written[child] and child not in on_stack:
                    stack.append([child, 0])
                    on_stack.add(child)
            else:
                stack.pop()
                on_stack.discard(s)
                if not written[s]:
                    written[s] = True
                    order.append(s)

    indegree = collections.Counter(t for ts in T for t in ts)
    emit(a["sink"])
    hot = sorted((s for s in range(len(T)) if indegree[s] > 1), key=lambda s: (-indegree[s], s))
    for s in hot[:hot_states]:
        emit(s)
    emit(0)
    return order


def outputs_of(a, s):
    out, running = [], int(a["final"][s])
    for i, t in enumerate(a["targets"][s]):
        if i > 0:
            out.append(running)
        running += a["count"][t]
    return out


# --- 3. Models ----------------------------------------------------------------------------

def byte_width(v):
    w = 1
    while w < 8 and v >> (8 * w):
        w += 1
    return w


def inline_labels(a):
    """The labels single-transition nodes keep in their header: the 16 most used by such
    states (ties: the lower label), as DAWGEncoder picks them."""
    L, T = a["labels"], a["targets"]
    uses = collections.Counter(L[s][0] for s in range(len(T)) if len(T[s]) == 1)
    return {l for l, _ in sorted(uses.items(), key=lambda x: (-x[1], x[0]))[:16]}


def delta_coded(labels):
    """Whether a general node stores `labels` as differences (format 1.5's rule)."""
    return 4 <= len(labels) <= 12 and all(b - a_ <= 16 for a_, b in zip(labels, labels[1:]))


def follow(a, state, symbol):
    """The target of `state`'s transition labeled `symbol`, or None."""
    labels = a["labels"][state]
    return a["targets"][state][labels.index(symbol)] if symbol in labels else None


def format_model(a, order, table=frozenset()):
    """Node bytes of format 1.5's encoding (DAWGEncoder's rules), where a reference to a
    state in `table` costs one byte (an index) instead of its address field."""
    F, L, T = a["final"], a["labels"], a["targets"]
    inline = inline_labels(a)
    address = {}
    pos = 0
    previous = None
    sink = a["sink"]

    def field(t):
        if t in table:
            return 1
        absolute = address[t] << 1
        relative = ((pos - 1 - address[t]) << 1) | 1
        return min(byte_width(absolute), byte_width(relative))

    for s in order:
        n = len(T[s])
        if n == 1 and L[s][0] in inline:
            if T[s][0] != previous:
                pos += field(T[s][0])
            pos += 1
        else:
            wide = n >= 33
            next_last = not wide and n > 0 and T[s][-1] == previous and T[s][-1] != sink
            if wide:
                pos += L[s][-1] + 1
                pos += n * max(byte_width(address[t] << 1) for t in T[s])
            else:
                for i in range(n - 1, -1, -1):
                    t = T[s][i]
                    if t != sink and not (next_last and i == n - 1):
                        pos += field(t)
            out = outputs_of(a, s)
            largest = max(out, default=0)
            if n == 1:
                pos += 2
            elif n == 2 and largest < 256:
                if T[s][0] != sink and not (next_last and 1 <= out[0] <= 3):
                    pos += 1
                pos += 3
            else:
                pos += 1 if wide else (n + 3) // 4
                pos += (len(out) + 1) // 2 if largest < 16 else byte_width(largest) * len(out)
                pos += 1 + n // 2 if delta_coded(L[s]) else n
                pos += 0 if n in (2, 3) else (2 if n >= 128 else 1)
                pos += 1
        address[s] = pos - 1
        previous = s
    return pos + 3 * len(table)


def bit_model(a, order, per_target_class):
    """Bits of a bit-packed encoding with fixed-width fields, in bytes: per node a final
    bit, a 2-bit count (+8 bits beyond 3), a next bit, 5-bit output width and n − 1
    outputs of it, labels of ceil(log2(alphabet)) bits, and targets (relative or absolute
    bit addresses + a flag bit) either all of the node's widest width (5-bit width field)
    or each with a 2-bit class: the sink, 8, 16 or 24 bits."""
    F, L, T = a["final"], a["labels"], a["targets"]
    label_bits = max(1, max(l for ls in L for l in ls).bit_length())
    sink = a["sink"]
    address = {}
    pos = 0
    previous = None
    for s in order:
        n = len(T[s])
        bits = 1 + 2 + (8 if n > 3 or n == 0 else 0) + 1
        next_last = n > 0 and T[s][-1] == previous and T[s][-1] != sink
        values = []
        for i, t in enumerate(T[s]):
            if next_last and i == n - 1:
                continue
            values.append(0 if t == sink else min(address[t], pos - address[t]))
        if per_target_class:
            for v in values:
                need = v.bit_length() + 1
                bits += 2 + (0 if v == 0 else 8 if need <= 8 else 16 if need <= 16 else 24)
        elif values:
            bits += 5 + len(values) * (max(v.bit_length() for v in values) + 1)
        out = outputs_of(a, s)
        if out:
            bits += 5 + len(out) * max(o.bit_length() for o in out)
        bits += n * label_bits
        pos += bits
        address[s] = pos
        previous = s
    return pos / 8


def listing_visits(a, alphabet, prefixes):
    """Per word listed under `prefixes`: the nodes a depth-first listing enters, apart
    from the sink, and how many of them have one transition."""
    label = {c: i for i, c in enumerate(alphabet)}
    F, T = a["final"], a["targets"]
    words = nodes = singles = 0
    for prefix in prefixes:
        s = 0
        for c in prefix:
            s = follow(a, s, label.get(c))
            if s is None:
                break
        stack = [] if s is None else [s]
        while stack:
            s = stack.pop()
            words += F[s]
            if s != a["sink"]:
                nodes += 1
                singles += len(T[s]) == 1
            stack.extend(T[s])
    return words, nodes, singles


def lookup_kinds(a, alphabet, words):
    """The kinds of node (format 1.5's rules, as format_model) a lookup of each of `words`
    steps through, counted over all steps; and the steps per word."""
    label = {c: i for i, c in enumerate(alphabet)}
    L, T = a["labels"], a["targets"]
    inline = inline_labels(a)

    def kind(s):
        n = len(T[s])
        if n == 1:
            return "single" if L[s][0] in inline else "one"
        if n == 2:
            return "pair"
        if n >= 33:
            return "wide (dense index)"
        if delta_coded(L[s]):
            return "general, delta-coded labels"
        return "general, 3-8 plain labels" if n <= 8 else "general, 9-32 plain labels"

    kinds = collections.Counter()
    steps = 0
    for word in words:
        s = 0
        for c in word:
            target = follow(a, s, label.get(c))
            if target is None:
                break
            kinds[kind(s)] += 1
            steps += 1
            s = target
    return kinds, steps


def entropy_bytes(counter):
    total = sum(counter.values())
    return -sum(c * math.log2(c / total) for c in counter.values()) / 8


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("blob")
    parser.add_argument("--hits", help="a file of words, one per line: the kinds of node their lookups step through")
    parser.add_argument("--prefixes", help="a file of prefixes, one per line: count the nodes listing them enters")
    parser.add_argument("--swipedict", default=os.path.join(HERE, "..", ".build", "release", "swipedict"))
    args = parser.parse_args()
    inspect = json.loads(run([args.swipedict, "inspect", args.blob, "--json"]))
    section = section_parts(args.blob, inspect)
    W = section["words"]
    a = rebuild(args.swipedict, args.blob, inspect)
    transitions = sum(len(t) for t in a["targets"])
    if (len(a["targets"]), transitions) != (section["states"], section["transitions"]):
        sys.exit("the rebuilt automaton differs from the section's")

    def per_word(b):
        return f"{b / W:.3f}"

    print(f"{os.path.basename(args.blob)}: {W:,} words, {section['states']:,} states, "
          f"{transitions:,} transitions; node area {section['node_bytes']:,} bytes "
          f"({per_word(section['node_bytes'])} B/word)")
    print("\nnode bytes by part (parsed from the section)")
    for part in ["targets", "labels", "outputs", "rest"]:
        b = section["parts"][part]
        print(f"  {part:8} {b:>10,}  {per_word(b)} B/word  {100 * b / section['node_bytes']:4.1f} %")
    print("  nodes: " + ", ".join(f"{k} {v:,}" for k, v in section["kinds"].most_common()))

    T = a["targets"]
    indegree = collections.Counter(t for ts in T for t in ts)
    refs = sorted(indegree.values(), reverse=True)
    total = sum(refs)
    once = sum(1 for v in indegree.values() if v == 1)
    print("\nreferences (transitions) by target")
    print(f"  to the sink {100 * indegree[a['sink']] / total:.1f} %; states reached by one "
          f"transition: {once:,} of {len(T) - 1:,}, taking {100 * once / total:.1f} %")
    print("  to the most referenced states: " + ", ".join(
        f"{k:,} {100 * sum(refs[:k]) / total:.1f} %" for k in [16, 256, 4096, 32768]))

    labels = collections.Counter(l for ls in a["labels"] for l in ls)
    output_bits = sum(max(1, o.bit_length()) for s in range(len(T)) for o in outputs_of(a, s))
    print("\nwhat an order-0 coder of each part would need (B/word; stored, from above)")
    print(f"  labels, order-0 entropy              {per_word(entropy_bytes(labels))}"
          f"  ({per_word(section['parts']['labels'])})")
    print(f"  targets, order-0 entropy of states   {per_word(entropy_bytes(indegree))}"
          f"  ({per_word(section['parts']['targets'])}: next and relative fields beat it)")
    print(f"  outputs, bits of each value          {per_word(output_bits / 8)}"
          f"  ({per_word(section['parts']['outputs'])})")

    order = layout_order(a)
    base = format_model(a, order)
    print("\nother encodings of the same automaton, same node order (B/word)")
    rows = [("format 1.5, modelled", f"{per_word(base)}  (section {per_word(section['node_bytes'])})")]
    hot = [s for s, _ in sorted(indegree.items(), key=lambda x: (-x[1], x[0])) if s != a["sink"]]
    for k in [127, 255]:
        size = format_model(a, order, frozenset(hot[:k]))
        rows.append((f"format 1.5 + a 1-byte index of the {k} most referenced", per_word(size)))
    rows.append(("bit-packed, one target width per node", per_word(bit_model(a, order, False))))
    rows.append(("bit-packed, a 2-bit width class per target", per_word(bit_model(a, order, True))))
    for name, value in rows:
        print(f"  {name:55} {value}")

    if args.hits:
        with open(args.hits, encoding="utf-8") as f:
            words = [line.rstrip("\n") for line in f if line.strip()]
        kinds, steps = lookup_kinds(a, inspect["alphabet"], words)
        print(f"\nlooking up the {len(words):,} words: {steps / len(words):.2f} steps per word, through")
        for name, n in kinds.most_common():
            print(f"  {name:30} {100 * n / steps:5.1f} %")

    if args.prefixes:
        with open(args.prefixes, encoding="utf-8") as f:
            prefixes = [line.rstrip("\n") for line in f if line.strip()]
        words, nodes, singles = listing_visits(a, inspect["alphabet"], prefixes)
        print(f"\nlisting the {len(prefixes):,} prefixes: {words:,} words; per word, "
              f"{nodes / words:.2f} nodes entered besides the sink, "
              f"{singles / words:.2f} of them with one transition")

if __name__ == "__main__":
    main()
