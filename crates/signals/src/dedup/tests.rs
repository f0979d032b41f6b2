//! Tests of [`super`] (`dedup.rs`).

use super::*;

/// [`bmp_classes`] holds, for every character of the Basic
/// Multilingual Plane, what its definition says character by character.
#[test]
fn bmp_classes_are_their_definition() {
    let table = bmp_classes();
    let separates = |c: char| words::punctuation().contains(c) || words::is_py_space(c);
    let (mut plain, mut separator) = (0, 0);
    for code in 0x80u32..0x1_0000 {
        let (word, bit) = ((code >> 6) as usize, code & 63);
        let (is_plain, is_separator) = match char::from_u32(code) {
            Some(c) if !words::is_decimal(c) => {
                let separator = c.to_lowercase().all(separates);
                let mut lower = c.to_lowercase();
                let mut nfd = std::iter::once(c).nfd();
                let plain = !separator
                    && lower.next() == Some(c)
                    && lower.next().is_none()
                    && nfd.next() == Some(c)
                    && nfd.next().is_none()
                    && unicode_normalization::char::canonical_combining_class(c) == 0
                    && !words::is_nonspacing_mark(c)
                    && !separates(c);
                (plain, separator)
            }
            _ => (false, false),
        };
        assert_eq!(table.plain[word] >> bit & 1 != 0, is_plain, "{code:04X}");
        assert_eq!(
            table.separator[word] >> bit & 1 != 0,
            is_separator,
            "{code:04X}"
        );
        plain += usize::from(is_plain);
        separator += usize::from(is_separator);
    }
    assert!(plain > 30_000 && separator > 100, "{plain} {separator}");
}

/// The first implementation of [`simplify`], char by char (kept to check it): writes datatrove's `simplify_text(text)` into `out` (`scratch` is a
/// reusable buffer).
fn simplify_reference(text: &str, out: &mut String, scratch: &mut String) {
    // lowercase, then numbers -> "0"
    scratch.clear();
    let lower_buf;
    let lower: &str = if text.bytes().any(|b| b.is_ascii_uppercase()) || !text.is_ascii() {
        lower_buf = text.to_lowercase();
        &lower_buf
    } else {
        text
    };
    let punctuation = words::punctuation();
    let mut chars = lower.char_indices().peekable();
    // Punctuation -> space and whitespace collapsed in the same pass.
    let mut pending_space = false;
    let mut push = |c: char, scratch: &mut String| {
        if punctuation.contains(c) || words::is_py_space(c) {
            pending_space = true;
        } else {
            if pending_space && !scratch.is_empty() {
                scratch.push(' ');
            }
            pending_space = false;
            scratch.push(c);
        }
    };
    while let Some((i, c)) = chars.next() {
        if !words::is_decimal(c) {
            push(c, scratch);
            continue;
        }
        // \p{Nd}+ ([sep] \p{Nd}+)?
        let mut end = i + c.len_utf8();
        while let Some(&(j, d)) = chars.peek() {
            if !words::is_decimal(d) {
                break;
            }
            end = j + d.len_utf8();
            chars.next();
        }
        let rest = &lower[end..];
        let mut tail = rest.chars();
        if let (Some(sep), Some(d)) = (tail.next(), tail.next()) {
            if DECIMAL_SEPARATORS.contains(&sep) && words::is_decimal(d) {
                chars.next();
                while let Some(&(_, d)) = chars.peek() {
                    if !words::is_decimal(d) {
                        break;
                    }
                    chars.next();
                }
            }
        }
        push('0', scratch);
    }
    // NFD, non-spacing marks dropped.
    out.clear();
    if scratch.is_ascii() {
        out.push_str(scratch);
    } else {
        out.extend(scratch.nfd().filter(|&c| !words::is_nonspacing_mark(c)));
        // A mark between spaces may leave a space at an end or two spaces.
        let trimmed = words::py_strip(out);
        if trimmed.len() != out.len() {
            *out = trimmed.to_owned();
        }
    }
}

fn simple(text: &str) -> String {
    let (mut out, mut scratch) = (String::new(), String::new());
    simplify(text, &mut out, &mut scratch);
    out
}

/// The first implementation of [`minhash`], shingle by shingle (kept to
/// check it): the MinHash signature (14 × 8 values, bucket by bucket) of a normalised
/// text, or `None` when it has fewer than 5 words. `shingle` is a reusable
/// buffer.
fn minhash_reference(simplified: &str, shingle: &mut String) -> Option<Vec<u64>> {
    let (a, b) = parameters();
    let mut signature = [u64::MAX; HASHES];
    let mut any = false;
    // Byte offsets of the words' starts and ends.
    let mut window: std::collections::VecDeque<&str> =
        std::collections::VecDeque::with_capacity(SHINGLE_WORDS);
    for word in shingle_units(simplified) {
        if window.len() == SHINGLE_WORDS {
            window.pop_front();
        }
        window.push_back(word);
        if window.len() < SHINGLE_WORDS {
            continue;
        }
        shingle.clear();
        for (i, w) in window.iter().enumerate() {
            if i > 0 {
                shingle.push(' ');
            }
            shingle.push_str(w);
        }
        let h = xxh64(shingle.as_bytes(), 0);
        any = true;
        for ((slot, &a), &b) in signature.iter_mut().zip(a).zip(b) {
            let value = mod_mersenne(h.wrapping_mul(a).wrapping_add(b));
            if value < *slot {
                *slot = value;
            }
        }
    }
    any.then(|| signature.to_vec())
}

/// `minhash` equals the reference, in every instruction set's copy of
/// the min loop.
fn assert_minhash_as_reference(simplified: &str, buffers: &mut MinhashBuffers) {
    let expected = minhash_reference(simplified, &mut String::new());
    assert_eq!(minhash(simplified, buffers), expected, "{simplified:?}");
    buffers.hashes.clear();
    let mut shingle = String::new();
    let words: Vec<&str> = simplified.split(' ').collect();
    for w in words.windows(SHINGLE_WORDS) {
        shingle.clear();
        shingle.push_str(&w.join(" "));
        buffers.hashes.push(xxh64(shingle.as_bytes(), 0));
    }
    crawlsift_simd::for_each_isa!(|isa| {
        let mut signature = [i64::MAX as u64; HASHES];
        use crawlsift_simd::Task;
        MinTask {
            hashes: &buffers.hashes,
            signature: &mut signature,
        }
        .run(isa);
        let mut scalar = [u64::MAX; HASHES];
        let (a, b) = parameters();
        for &h in &buffers.hashes {
            for j in 0..HASHES {
                scalar[j] = scalar[j].min(h.wrapping_mul(a[j]).wrapping_add(b[j]) % MERSENNE_PRIME);
            }
        }
        if !buffers.hashes.is_empty() {
            assert_eq!(signature, scalar, "{isa:?}");
        }
    });
}

#[test]
fn minhash_equals_the_reference_on_dataset_texts() {
    let mut buffers = MinhashBuffers::default();
    let (mut simplified, mut scratch) = (String::new(), String::new());
    let mut texts = 0;
    for text in crate::gold_texts(&["daniel_dev"]) {
        simplify(&text, &mut simplified, &mut scratch);
        assert_minhash_as_reference(&simplified, &mut buffers);
        texts += 1;
    }
    assert!(texts > 500, "{texts}");
    for short in ["", "a", "a b c d", "a b c d e", "0km 0 km 1 2 3"] {
        assert_minhash_as_reference(short, &mut buffers);
    }
}

fn assert_simplify_as_reference(text: &str) {
    let (mut out, mut scratch) = (String::new(), String::new());
    let (mut expected, mut scratch2) = (String::new(), String::new());
    simplify(text, &mut out, &mut scratch);
    simplify_reference(text, &mut expected, &mut scratch2);
    assert_eq!(out, expected, "{text:?}");
}

proptest::proptest! {
    #[test]
    fn simplify_equals_the_char_by_char_reference(
        text in "[aZ9 .,;:'\"_\r\n\t\x01\x1c-]{0,6}([\u{e9}\u{c9}\u{301}\u{3a3}\u{3c3}\u{130}\u{663}\u{66b}\u{2396}\u{ff11}\u{2019}\u{a0}\u{3000}\u{4e2d}\u{ac00}\u{1e9e}\u{2160}\u{bd}\u{430}\u{416}\u{5d0}\u{5b0}\u{304c}\u{30ac}\u{3b1}\u{3c2}\u{e01}\u{e48}\u{f39}\u{1f600}][aZ9 .,;:'\"_\r\n-]{0,5}){0,10}"
    ) {
        assert_simplify_as_reference(&text);
    }

    #[test]
    fn ascii_simplify_equals_the_char_by_char_reference(
        text in "[a-zA-Z0-9 .,;:'\"_\r\n\t\x01\x1c\x7f!#/$()-]{0,60}"
    ) {
        assert_simplify_as_reference(&text);
    }

    /// Texts over several of `ascii_run`'s 64-byte blocks: runs of
    /// separators across a block's end, at the text's ends, before a
    /// digit or a character outside ASCII.
    #[test]
    fn long_ascii_simplify_equals_the_char_by_char_reference(
        text in "([a-zA-Z\x01]{0,9}[ .,;:'\"_\r\n\t\x1c!#/$()-]{0,3}){0,40}(9|\u{e9}|\u{4e2d}|\u{2019})?([a-zA-Z]{0,9}[ .,\n-]{0,70}){0,8}"
    ) {
        assert_simplify_as_reference(&text);
    }

    /// Long runs of words and single or double spaces, as prose has
    /// them, with `é` and `’` among them.
    #[test]
    fn prose_simplify_equals_the_char_by_char_reference(
        text in "([a-zA-Z\u{e9}]{1,14}( |  |, |[.] |\n|9| \x01|\u{2019})){0,30}[a-zA-Z]{0,20}"
    ) {
        assert_simplify_as_reference(&text);
    }
}

/// Every byte value at every position of a block is classified as
/// `ascii_classes` says, the vector way as the scalar way.
#[test]
fn ascii_block_classes_every_byte_as_the_table() {
    let classes = ascii_classes();
    for b in 0..=255u8 {
        for at in 0..64 {
            let mut block = [b'a'; 64];
            block[at] = b;
            let got = ascii_block(&block);
            assert_eq!(got, ascii_block_scalar(&block), "byte {b:#x} at {at}");
            let bit = 1u64 << at;
            let (separator, stop, lowered) = match classes.get(usize::from(b)) {
                Some(Ascii::Separator) => (true, false, b' '),
                Some(Ascii::Kept) => (false, false, b.to_ascii_lowercase()),
                Some(Ascii::Digit) | None => (false, true, b' '),
            };
            assert_eq!(got.separator & bit != 0, separator, "byte {b:#x}");
            assert_eq!(got.stop & bit != 0, stop, "byte {b:#x}");
            assert_eq!(got.lowered[at], lowered, "byte {b:#x}");
            assert_eq!(got.separator & !bit, 0);
            assert_eq!(got.stop & !bit, 0);
        }
    }
}

/// The gold texts of two shared datasets (many languages; English with
/// some non-ASCII) simplify as the reference simplifies them.
#[test]
fn dataset_texts_simplify_as_the_reference() {
    let texts = crate::gold_texts(&["daniel_dev", "scrapinghub"]);
    for text in &texts {
        assert_simplify_as_reference(text);
    }
    assert!(texts.len() > 900, "{}", texts.len());
}

#[test]
fn mod_mersenne_is_the_remainder() {
    let edges = [0, 1, MERSENNE_PRIME - 1, MERSENNE_PRIME, MERSENNE_PRIME + 1];
    let more = [
        2 * MERSENNE_PRIME,
        2 * MERSENNE_PRIME + 1,
        u64::MAX,
        u64::MAX - 1,
    ];
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..100_000 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        assert_eq!(mod_mersenne(x), x % MERSENNE_PRIME, "{x}");
    }
    for x in edges.into_iter().chain(more) {
        assert_eq!(mod_mersenne(x), x % MERSENNE_PRIME, "{x}");
    }
}

#[test]
fn simplify_folds_case_digits_punctuation_space_and_accents() {
    assert_eq!(
        simple("  Héllo, WORLD!\n\n3.14 and 2024 — ok  "),
        "hello world 0 and 0 ok"
    );
    assert_eq!(simple("a1,2,3b"), "a0,0b".replace(',', " "));
    assert_eq!(simple(""), "");
    assert_eq!(simple("..."), "");
}

#[test]
fn shingle_words_split_symbols_but_not_han_runs() {
    let words: Vec<&str> = shingle_words("北京市 ★★ £0 0km ok").collect();
    assert_eq!(words, ["北京市", "★", "★", "£", "0", "0km", "ok"]);
}

#[test]
fn exact_key_ignores_what_normalisation_removes() {
    let a = exact_key(&simple("The cat sat.\nOn the mat!"));
    let b = exact_key(&simple("the  CAT sat   on the mat"));
    let c = exact_key(&simple("the dog sat on the mat"));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn minhash_needs_five_words_and_is_similar_for_similar_texts() {
    let mut buf = MinhashBuffers::default();
    assert!(minhash("one two three four", &mut buf).is_none());
    let words: Vec<String> = (0..200).map(|i| format!("w{}", i * 7919 % 1000)).collect();
    let base = words.join(" ");
    let mut edited = words.clone();
    edited[100] = "changed".into();
    let x = minhash(&base, &mut buf).unwrap();
    let y = minhash(&edited.join(" "), &mut buf).unwrap();
    let z = minhash(
        &words[..100]
            .iter()
            .rev()
            .cloned()
            .collect::<Vec<_>>()
            .join(" "),
        &mut buf,
    )
    .unwrap();
    assert_eq!(x.len(), BUCKETS * HASHES_PER_BUCKET);
    let same = |p: &[u64], q: &[u64]| p.iter().zip(q).filter(|(a, b)| a == b).count();
    assert!(
        same(&x, &y) > 80,
        "one word of 200 changed: {}",
        same(&x, &y)
    );
    assert!(same(&x, &z) < 20, "different shingles: {}", same(&x, &z));
    assert!(x.iter().all(|&v| v < MERSENNE_PRIME));
}
