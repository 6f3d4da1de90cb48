//! fst peer (BurntSushi's fst 0.3.5 from Debian's librust-fst-dev).
//!
//!   fst-peer build WORDLIST OUT [--set]
//!   fst-peer bench OUT --hits FILE --misses FILE [--prefixes FILE] [--passes N]
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
        "usage: fst-peer build WORDLIST OUT [--set]\n       fst-peer bench OUT --hits FILE --misses FILE [--prefixes FILE] [--passes N]"
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

fn num(v: f64) -> String {
    format!("{:.1}", v)
}

fn bench(file: &str, hits: &str, misses: &str, prefixes: Option<&str>, passes: usize) {
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

    println!(
        "{{\"peer\": \"fst\", \"variant\": \"fst::Map (value = bytewise rank), Map::from_path (mmap)\", \
         \"words\": {}, \"bytes\": {}, \"openNs\": {}, \"lookupHitNs\": {}, \"lookupMissNs\": {}, \
         \"idToWordNs\": {}, \"prefixNs\": {}, \"hits\": {}, \"hitFound\": {}, \"misses\": {}, \
         \"missFound\": {}, \"idRoundTrip\": {}, \"prefixes\": {}, \"prefixResults\": {}, \
         \"passes\": {}, \"checksum\": {}}}",
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
        "bench" if pos.len() == 1 && hits.is_some() && misses.is_some() => bench(
            &pos[0],
            hits.as_deref().unwrap(),
            misses.as_deref().unwrap(),
            prefixes.as_deref(),
            passes,
        ),
        _ => usage(),
    }
}
