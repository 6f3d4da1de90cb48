//! fst peer (BurntSushi's fst 0.3.5 from Debian's librust-fst-dev).
//!
//!   fst-peer build WORDLIST OUT [--set]
//!   fst-peer bench OUT --hits FILE --misses FILE [--prefixes FILE] [--passes N]
//!                [--keyboard-words FILE --completions FILE]
//!
//! Build: read, sort bytewise, dedupe, then `fst::MapBuilder` with value =
//! rank in bytewise order (a word -> ID map with lexicographic IDs); `--set`
//! builds an `fst::Set` instead (size comparison only).
//! Open: `Map::from_path` (memory-mapped through the crate's memmap 0.7).
//! Lookup: `Map::get`. ID -> word: fst has no such call, but the values are
//! monotone in key order, so a walk of the raw transducer that takes, at each
//! state, the last transition whose output does not exceed the remaining ID
//! (binary search)
//! finds the word (checked on every hit before timing).
//! Prefix listing: `Map::range()` from the prefix to its successor.
//! Keyboard completion (the 10 most frequent words under a prefix): see
//! `keyboard()`.
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter};
use std::process::exit;
use std::time::Instant;

fn die(msg: &str) -> ! {
    eprintln!("error: {}", msg);
    exit(1)
}

fn usage() -> ! {
    eprintln!(
        "usage: fst-peer build WORDLIST OUT [--set]\n       fst-peer bench OUT --hits FILE --misses FILE [--prefixes FILE] [--passes N]\n                [--keyboard-words FILE --completions FILE]"
    );
    exit(64)
}

fn read_lines(path: &str) -> Vec<Vec<u8>> {
    let f = File::open(path).unwrap_or_else(|e| die(&format!("cannot open {}: {}", path, e)));
    let mut out = Vec::new();
    for line in BufReader::new(f).split(b'\n') {
        let mut l = line.unwrap_or_else(|e| die(&format!("{}: {}", path, e)));
        if l.last() == Some(&b'\r') {
            l.pop();
        }
        if !l.is_empty() {
            out.push(l);
        }
    }
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// One warm-up pass, then `passes` timed passes; median of per-pass means (ns).
fn time_passes<F: FnMut() -> usize>(passes: usize, mut pass: F) -> f64 {
    pass();
    let mut means = Vec::with_capacity(passes);
    for _ in 0..passes {
        let t0 = Instant::now();
        let n = pass();
        let ns = t0.elapsed().as_nanos() as f64;
        means.push(if n > 0 { ns / n as f64 } else { 0.0 });
    }
    median(means)
}

fn file_size(path: &str) -> u64 {
    std::fs::metadata(path).unwrap_or_else(|e| die(&format!("{}: {}", path, e))).len()
}

fn build(file: &str, out: &str, set: bool) {
    let t0 = Instant::now();
    let mut words = read_lines(file);
    words.sort_unstable();
    words.dedup();
    let w = BufWriter::new(File::create(out).unwrap_or_else(|e| die(&format!("{}: {}", out, e))));
    if set {
        let mut b = fst::SetBuilder::new(w).unwrap_or_else(|e| die(&e.to_string()));
        for word in &words {
            b.insert(word).unwrap_or_else(|e| die(&e.to_string()));
        }
        b.finish().unwrap_or_else(|e| die(&e.to_string()));
    } else {
        let mut b = fst::MapBuilder::new(w).unwrap_or_else(|e| die(&e.to_string()));
        for (i, word) in words.iter().enumerate() {
            b.insert(word, i as u64).unwrap_or_else(|e| die(&e.to_string()));
        }
        b.finish().unwrap_or_else(|e| die(&e.to_string()));
    }
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    println!(
        "{{\"peer\": \"fst\", \"variant\": \"{}\", \"words\": {}, \"buildMs\": {:.1}, \"bytes\": {}}}",
        if set { "fst::Set" } else { "fst::Map (value = bytewise rank)" },
        words.len(),
        ms,
        file_size(out)
    );
}

/// ID -> word on a map whose values are the ranks of the keys in byte order.
fn id_to_word(fst: &fst::raw::Fst, id: u64, key: &mut Vec<u8>) -> bool {
    key.clear();
    let mut node = fst.root();
    let mut rem = id;
    loop {
        if node.is_final() && node.final_output().value() == rem {
            return true;
        }
        // Outputs are non-decreasing along a state's transitions (byte
        // order = ID order): binary search for the last one <= rem.
        let (mut lo, mut hi) = (0usize, node.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if node.transition(mid).out.value() <= rem {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == 0 {
            return false;
        }
        let t = node.transition(lo - 1);
        rem -= t.out.value();
        key.push(t.inp);
        node = fst.node(t.addr);
    }
}

/// Smallest byte string greater than every string with prefix `p`
/// (None: no upper bound).
fn prefix_successor(p: &[u8]) -> Option<Vec<u8>> {
    let mut s = p.to_vec();
    while let Some(&last) = s.last() {
        if last < 0xff {
            *s.last_mut().unwrap() += 1;
            return Some(s);
        }
        s.pop();
    }
    None
}

fn list_prefix(map: &fst::Map, p: &[u8], bound: &Option<Vec<u8>>, sum: &mut u64) -> usize {
    use fst::{IntoStreamer, Streamer};
    let mut rb = map.range().ge(p);
    if let Some(b) = bound {
        rb = rb.lt(b);
    }
    let mut stream = rb.into_stream();
    let mut n = 0;
    while let Some((k, v)) = stream.next() {
        n += 1;
        *sum = sum.wrapping_add(k.len() as u64 + v);
    }
    n
}

// ---------------------------------------------------------------- keyboard queries

fn split_tab(line: &[u8], n: usize, path: &str) -> Vec<Vec<u8>> {
    let f: Vec<Vec<u8>> = line.split(|&b| b == b'\t').map(|x| x.to_vec()).collect();
    if f.len() != n {
        die(&format!("{}: expected {} tab-separated fields: {}", path, n, String::from_utf8_lossy(line)));
    }
    f
}

fn parse_int(b: &[u8]) -> u64 {
    std::str::from_utf8(b).ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| die("bad number"))
}

/// Per call: the median over `passes` timed passes (after a warm-up pass) of its ns.
fn time_calls<F: FnMut(usize) -> u64>(passes: usize, n: usize, mut call: F, checksum: &mut u64) -> Vec<f64> {
    for i in 0..n {
        *checksum = checksum.wrapping_add(call(i));
    }
    let mut samples = vec![0f64; n * passes];
    for p in 0..passes {
        for i in 0..n {
            let t0 = Instant::now();
            let r = call(i);
            let ns = t0.elapsed().as_nanos() as f64;
            *checksum = checksum.wrapping_add(r);
            samples[i * passes + p] = ns;
        }
    }
    (0..n)
        .map(|i| {
            let mut c = samples[i * passes..(i + 1) * passes].to_vec();
            c.sort_by(|a, b| a.partial_cmp(b).unwrap());
            c[c.len() / 2]
        })
        .collect()
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as i64 - 1).max(0).min(sorted.len() as i64 - 1);
    sorted[rank as usize]
}

fn stats_json(ns: &[f64]) -> String {
    let mut v = ns.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mean = if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 };
    format!(
        "\"medianUs\": {:.3}, \"p99Us\": {:.3}, \"meanUs\": {:.3}",
        quantile(&v, 0.5) / 1e3,
        quantile(&v, 0.99) / 1e3,
        mean / 1e3
    )
}

/// The check figures of a completion variant: results listed and the sum of their frequency
/// bytes (independent of ties), over all queries and over the plain ones.
#[derive(Default)]
struct CompletionCheck {
    results: u64,
    frequency_sum: u64,
    plain_results: u64,
    plain_frequency_sum: u64,
}

impl CompletionCheck {
    fn add<P>(&mut self, plain: bool, top: &TopK<P>) {
        let n = top.items.len() as u64;
        let sum = top.items.iter().map(|x| x.0 as u64).sum::<u64>();
        self.results += n;
        self.frequency_sum += sum;
        if plain {
            self.plain_results += n;
            self.plain_frequency_sum += sum;
        }
    }
}

fn completion_json(letters: &[usize], ns: &[f64], check: &CompletionCheck, extra: &str) -> String {
    let mut by = Vec::new();
    for (b, label) in ["1", "2", "3", "4+"].iter().enumerate() {
        let part: Vec<f64> = letters
            .iter()
            .zip(ns)
            .filter(|(&l, _)| if b < 3 { l == b + 1 } else { l >= 4 })
            .map(|(_, &t)| t)
            .collect();
        by.push(format!("{{\"letters\": \"{}\", \"queries\": {}, {}}}", label, part.len(), stats_json(&part)));
    }
    format!(
        "{{\"queries\": {}, \"limit\": 10, {}, \"byLength\": [{}], \"results\": {}, \"frequencySum\": {}, \"plainResults\": {}, \"plainFrequencySum\": {}{}}}",
        ns.len(),
        stats_json(ns),
        by.join(", "),
        check.results,
        check.frequency_sum,
        check.plain_results,
        check.plain_frequency_sum,
        extra
    )
}

/// The `limit` most frequent candidates, most frequent first (ties: first seen).
struct TopK<P> {
    limit: usize,
    items: Vec<(u8, P)>,
}

impl<P: Default> TopK<P> {
    fn new(limit: usize) -> Self {
        TopK { limit, items: Vec::with_capacity(limit + 1) }
    }
    fn admits(&self, f: u8) -> bool {
        self.items.len() < self.limit || f > self.items[self.items.len() - 1].0
    }
    /// The slot to fill, or None if not admitted.
    fn insert(&mut self, f: u8) -> Option<&mut P> {
        if !self.admits(f) {
            return None;
        }
        if self.items.len() == self.limit {
            self.items.pop();
        }
        let mut i = self.items.len();
        self.items.push((f, P::default()));
        while i > 0 && self.items[i - 1].0 < f {
            self.items.swap(i, i - 1);
            i -= 1;
        }
        Some(&mut self.items[i].1)
    }
}

/// Completion by frequency, two ways, each timed call by call:
///  exact:  `Map::search(Str::new(prefix).starts_with())` on the word map;
///          keep the 10 most frequent (SwipeDict's frequency bytes in an array
///          indexed by the map's value, the bytewise rank), copying the key
///          when it enters the top 10.
///  folded: what SwipeDict answers (case and accents ignored): an in-memory
///          `fst::Map` from each distinct folded form (SwipeDict's folding,
///          from words.tsv) to its index in a list of the ranks that fold to
///          it (offsets + members) with the best frequency of each list;
///          StartsWith(folded prefix), the 10 most frequent ranks, then rank
///          -> word by the raw-transducer walk. Built before timing; its size
///          is reported.
fn keyboard(map: &fst::Map, words_path: &str, completions_path: &str, passes: usize, checksum: &mut u64) -> String {
    use fst::automaton::{Automaton, Str};
    use fst::{IntoStreamer, Streamer};
    let raw = map.as_fst();
    let mut freq = vec![0u8; map.len()];
    let mut ranks = Vec::new();
    let mut folded_of = Vec::new();
    for line in read_lines(words_path) {
        let f = split_tab(&line, 3, words_path);
        let rank = map.get(&f[0]).unwrap_or_else(|| die("keyboard word not in the map"));
        freq[rank as usize] = parse_int(&f[1]) as u8;
        ranks.push(rank as u32);
        folded_of.push(f[2].clone());
    }
    // letters, prefix, folded prefix, plain (1: SwipeDict reads it by its folding classes alone)
    let mut queries: Vec<(usize, String, String, bool)> = Vec::new();
    for line in read_lines(completions_path) {
        let f = split_tab(&line, 4, completions_path);
        let s = |b: &Vec<u8>| String::from_utf8(b.clone()).unwrap_or_else(|_| die("prefix is not UTF-8"));
        queries.push((parse_int(&f[0]) as usize, s(&f[1]), s(&f[2]), f[3] == b"1"));
    }
    // folded map: distinct folded forms (bytewise sorted) -> list index
    let mut order: Vec<usize> = (0..ranks.len()).collect();
    order.sort_by(|&a, &b| folded_of[a].cmp(&folded_of[b]));
    let mut fb = fst::MapBuilder::memory();
    let mut offsets: Vec<u32> = vec![0];
    let mut members: Vec<u32> = Vec::with_capacity(ranks.len());
    let mut best: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let key = &folded_of[order[i]];
        fb.insert(key, best.len() as u64).unwrap_or_else(|e| die(&e.to_string()));
        let mut top = 0u8;
        while i < order.len() && &folded_of[order[i]] == key {
            let r = ranks[order[i]];
            members.push(r);
            top = top.max(freq[r as usize]);
            i += 1;
        }
        best.push(top);
        offsets.push(members.len() as u32);
    }
    let fmap = fst::Map::from_bytes(fb.into_inner().unwrap_or_else(|e| die(&e.to_string())))
        .unwrap_or_else(|e| die(&e.to_string()));
    let folded_bytes = fmap.as_fst().size() + offsets.len() * 4 + members.len() * 4 + best.len();

    let mut top: TopK<Vec<u8>> = TopK::new(10);
    let exact = |i: usize, top: &mut TopK<Vec<u8>>| -> u64 {
        top.items.clear();
        let mut stream = map.search(Str::new(&queries[i].1).starts_with()).into_stream();
        while let Some((k, v)) = stream.next() {
            if let Some(slot) = top.insert(freq[v as usize]) {
                slot.clear();
                slot.extend_from_slice(k);
            }
        }
        top.items.iter().map(|(f, w)| *f as u64 + w.len() as u64).sum::<u64>() + top.items.len() as u64
    };
    let mut ftop: TopK<u32> = TopK::new(10);
    let mut words: Vec<Vec<u8>> = vec![Vec::new(); 10];
    let folded = |i: usize, ftop: &mut TopK<u32>, words: &mut Vec<Vec<u8>>| -> u64 {
        ftop.items.clear();
        let mut stream = fmap.search(Str::new(&queries[i].2).starts_with()).into_stream();
        while let Some((_, g)) = stream.next() {
            let g = g as usize;
            if !ftop.admits(best[g]) {
                continue;
            }
            for m in offsets[g]..offsets[g + 1] {
                let r = members[m as usize];
                if let Some(slot) = ftop.insert(freq[r as usize]) {
                    *slot = r;
                }
            }
        }
        let mut sum = ftop.items.len() as u64;
        for (j, &(f, r)) in ftop.items.iter().enumerate() {
            id_to_word(raw, r as u64, &mut words[j]);
            sum += f as u64 + words[j].len() as u64;
        }
        sum
    };
    let (mut exact_check, mut folded_check) = (CompletionCheck::default(), CompletionCheck::default());
    for i in 0..queries.len() {
        exact(i, &mut top);
        exact_check.add(queries[i].3, &top);
        folded(i, &mut ftop, &mut words);
        folded_check.add(queries[i].3, &ftop);
    }
    let mut overhead: Vec<f64> = (0..100_000)
        .map(|_| {
            let t0 = Instant::now();
            t0.elapsed().as_nanos() as f64
        })
        .collect();
    overhead.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let exact_ns = time_calls(passes, queries.len(), |i| exact(i, &mut top), checksum);
    let folded_ns = time_calls(passes, queries.len(), |i| folded(i, &mut ftop, &mut words), checksum);
    let letters: Vec<usize> = queries.iter().map(|q| q.0).collect();
    format!(
        "{{\"timerOverheadNs\": {:.1}, \"exact\": {}, \"folded\": {}}}",
        overhead[overhead.len() / 2],
        completion_json(&letters, &exact_ns, &exact_check,
            ", \"variant\": \"Map::search(Str::new(prefix).starts_with()), top 10 by a frequency array\""),
        completion_json(&letters, &folded_ns, &folded_check, &format!(
            ", \"variant\": \"folded fst::Map + rank lists, StartsWith(folded prefix), top 10, rank -> word\", \"extraBytes\": {}",
            folded_bytes + freq.len()))
    )
}

fn num(v: f64) -> String {
    format!("{:.1}", v)
}

fn bench(
    file: &str,
    hits: &str,
    misses: &str,
    prefixes: Option<&str>,
    keyboard_files: Option<(&str, &str)>,
    passes: usize,
) {
    let hits = read_lines(hits);
    let misses = read_lines(misses);
    let prefixes: Vec<Vec<u8>> = prefixes.map(read_lines).unwrap_or_default();
    let mut checksum: u64 = 0;

    // open: 16 opens per pass, dropped outside the timed region.
    const OPENS: usize = 16;
    let mut open_means = Vec::new();
    for p in 0..=passes {
        let mut slots = Vec::with_capacity(OPENS);
        let t0 = Instant::now();
        for _ in 0..OPENS {
            let m = unsafe { fst::Map::from_path(file) }
                .unwrap_or_else(|e| die(&format!("{}: {}", file, e)));
            slots.push(m);
        }
        let ns = t0.elapsed().as_nanos() as f64;
        for m in slots.drain(..) {
            checksum = checksum.wrapping_add(m.len() as u64);
        }
        if p > 0 {
            open_means.push(ns / OPENS as f64);
        }
    }
    let open_ns = median(open_means);

    let map = unsafe { fst::Map::from_path(file) }.unwrap_or_else(|e| die(&format!("{}: {}", file, e)));
    let raw = map.as_fst();

    let mut hit_found = 0usize;
    let mut ids = Vec::with_capacity(hits.len());
    for w in &hits {
        match map.get(w) {
            Some(v) => {
                hit_found += 1;
                ids.push(v)
            }
            None => ids.push(0),
        }
    }
    let miss_found = misses.iter().filter(|w| map.contains_key(w)).count();
    let mut key = Vec::new();
    let mut round_trip = 0usize;
    for (id, w) in ids.iter().zip(&hits) {
        if id_to_word(raw, *id, &mut key) && &key == w {
            round_trip += 1;
        }
    }

    let hit_ns = time_passes(passes, || {
        for w in &hits {
            if let Some(v) = map.get(w) {
                checksum = checksum.wrapping_add(v);
            }
        }
        hits.len()
    });
    let miss_ns = time_passes(passes, || {
        for w in &misses {
            if let Some(v) = map.get(w) {
                checksum = checksum.wrapping_add(v + 1);
            }
        }
        misses.len()
    });
    let id_ns = time_passes(passes, || {
        for &id in &ids {
            if id_to_word(raw, id, &mut key) {
                checksum = checksum.wrapping_add(key.len() as u64 + key[0] as u64);
            }
        }
        ids.len()
    });
    let bounds: Vec<Option<Vec<u8>>> = prefixes.iter().map(|p| prefix_successor(p)).collect();
    let mut prefix_results = 0usize;
    let mut dummy = 0u64;
    for (p, b) in prefixes.iter().zip(&bounds) {
        prefix_results += list_prefix(&map, p, b, &mut dummy);
    }
    let prefix_ns = if prefixes.is_empty() {
        "null".to_string()
    } else {
        num(time_passes(passes, || {
            for (p, b) in prefixes.iter().zip(&bounds) {
                list_prefix(&map, p, b, &mut checksum);
            }
            prefixes.len()
        }))
    };

    let completion = match keyboard_files {
        Some((w, c)) => keyboard(&map, w, c, passes, &mut checksum),
        None => "null".to_string(),
    };

    println!(
        "{{\"peer\": \"fst\", \"variant\": \"fst::Map (value = bytewise rank), Map::from_path (mmap)\", \
         \"words\": {}, \"bytes\": {}, \"openNs\": {}, \"lookupHitNs\": {}, \"lookupMissNs\": {}, \
         \"idToWordNs\": {}, \"prefixNs\": {}, \"hits\": {}, \"hitFound\": {}, \"misses\": {}, \
         \"missFound\": {}, \"idRoundTrip\": {}, \"prefixes\": {}, \"prefixResults\": {}, \
         \"passes\": {}, \"completion\": {}, \"checksum\": {}}}",
        map.len(),
        file_size(file),
        num(open_ns),
        num(hit_ns),
        num(miss_ns),
        num(id_ns),
        prefix_ns,
        hits.len(),
        hit_found,
        misses.len(),
        miss_found,
        round_trip,
        prefixes.len(),
        prefix_results,
        passes,
        completion,
        checksum.wrapping_add(dummy)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        usage();
    }
    let mut pos = Vec::new();
    let (mut hits, mut misses, mut prefixes) = (None, None, None);
    let (mut keyboard_words, mut completions) = (None, None);
    let mut passes = 9usize;
    let mut set = false;
    let mut i = 1;
    while i < args.len() {
        let a = args[i].as_str();
        let mut val = || {
            i += 1;
            args.get(i).cloned().unwrap_or_else(|| usage())
        };
        match a {
            "--hits" => hits = Some(val()),
            "--misses" => misses = Some(val()),
            "--prefixes" => prefixes = Some(val()),
            "--keyboard-words" => keyboard_words = Some(val()),
            "--completions" => completions = Some(val()),
            "--passes" => passes = val().parse().unwrap_or_else(|_| usage()),
            "--set" => set = true,
            _ if a.starts_with("--") => usage(),
            _ => pos.push(a.to_string()),
        }
        i += 1;
    }
    let passes = passes.max(7);
    match args[0].as_str() {
        "build" if pos.len() == 2 => build(&pos[0], &pos[1], set),
        "bench" if pos.len() == 1 && hits.is_some() && misses.is_some() && keyboard_words.is_some() == completions.is_some() => bench(
            &pos[0],
            hits.as_deref().unwrap(),
            misses.as_deref().unwrap(),
            prefixes.as_deref(),
            keyboard_words.as_deref().zip(completions.as_deref()),
            passes,
        ),
        _ => usage(),
    }
}
