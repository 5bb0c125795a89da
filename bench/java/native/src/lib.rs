//! Bench-only: the C bulk call looped in native code, for the Java
//! benchmark (`bench/java`). `org.wurl.bench.CBulk` calls one of these once
//! per sample; the loop inside is the `wurl-into` row of `wurl-bench`:
//! `wurl_canon_into` through the C ABI for every line, into one reused
//! 64 KiB buffer (grown when a result does not fit), with a base handle
//! parsed once per page run on a links file. So the JNI crossing is paid
//! once per sample, not per URL, and the row costs what a C caller pays.
//!
//! Not part of the Java binding: nothing installs it.

use std::ffi::c_char;
use std::hint::black_box;
use std::ptr;

use jni::JNIEnv;
use jni::objects::{JByteBuffer, JClass};
use jni::sys::{jint, jlong};
use wurl::ffi::{
    WURL_E_BUFFER_TOO_SMALL, WURL_OK, wurl_canon_into, wurl_free, wurl_parse, wurl_url,
};

/// One `wurl_canon_into` call of `u` against `base` (NULL: itself) into
/// `buf`, grown when too small: the result, or `None` when invalid.
#[inline(always)]
fn canon_one<'b>(base: *const wurl_url, u: &[u8], buf: &'b mut Vec<u8>) -> Option<&'b [u8]> {
    loop {
        let mut len = 0usize;
        let st = wurl_canon_into(
            base,
            u.as_ptr().cast::<c_char>(),
            u.len(),
            ptr::null(),
            0,
            0,
            buf.as_mut_ptr().cast::<c_char>(),
            buf.len(),
            &mut len,
        );
        match st {
            WURL_OK => return Some(&buf[..len]),
            WURL_E_BUFFER_TOO_SMALL => buf.resize(len + 1, 0),
            _ => return None,
        }
    }
}

/// The lines of `src` (LF-separated; the last LF optional).
fn lines(src: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = src.strip_suffix(b"\n").unwrap_or(src);
    body.split(|&b| b == b'\n').filter(move |_| !src.is_empty())
}

/// What a sample returns: the valid results in the high 24 bits, the sum
/// of their lengths in the low 40, for the benchmark to check against the
/// Java calls' results.
fn summary(valid: u64, bytes: u64) -> jlong {
    ((valid << 40) | (bytes & ((1 << 40) - 1))) as jlong
}

/// Every line of `src` on its own (the canon operation); `sink` gets each
/// result (`None`: invalid).
#[inline(always)]
fn canon_lines(src: &[u8], mut sink: impl FnMut(Option<&[u8]>)) -> jlong {
    let mut buf = vec![0u8; 64 * 1024];
    let (mut valid, mut bytes) = (0u64, 0u64);
    for u in lines(src) {
        let out = canon_one(ptr::null(), black_box(u), &mut buf);
        if let Some(o) = out {
            valid += 1;
            bytes += o.len() as u64;
        }
        sink(black_box(out));
    }
    summary(valid, bytes)
}

/// Every `page<TAB>link` line of `src` (the links operation): the page
/// parsed once per run of lines with the same page (`wurl_parse`), each
/// link against it.
#[inline(always)]
fn links_lines(src: &[u8], mut sink: impl FnMut(Option<&[u8]>)) -> jlong {
    let mut buf = vec![0u8; 64 * 1024];
    let (mut valid, mut bytes) = (0u64, 0u64);
    let mut page: &[u8] = &[];
    let mut base: *mut wurl_url = ptr::null_mut();
    let mut have_base = false;
    for line in lines(src) {
        let tab = line.iter().position(|&b| b == b'\t').unwrap_or(line.len());
        let (p, link) = (&line[..tab], line.get(tab + 1..).unwrap_or(&[]));
        if !have_base || p != page {
            wurl_free(base);
            base = ptr::null_mut();
            // A page that does not parse (over the input limit) rejects its links.
            if wurl_parse(p.as_ptr().cast::<c_char>(), p.len(), 0, &mut base) != WURL_OK {
                base = ptr::null_mut();
            }
            page = p;
            have_base = true;
        }
        let out = if base.is_null() {
            None
        } else {
            canon_one(base, black_box(link), &mut buf)
        };
        if let Some(o) = out {
            valid += 1;
            bytes += o.len() as u64;
        }
        sink(black_box(out));
    }
    wurl_free(base);
    summary(valid, bytes)
}

/// The direct buffer's bytes `[0, len)`, or `None` (a Java exception is
/// then pending or the range is bad).
fn bytes<'a>(env: &JNIEnv<'_>, b: &JByteBuffer<'_>, len: jint) -> Option<&'a mut [u8]> {
    let addr = env.get_direct_buffer_address(b).ok()?;
    let cap = env.get_direct_buffer_capacity(b).ok()?;
    let len = usize::try_from(len).ok().filter(|&l| l <= cap)?;
    // SAFETY: a direct buffer's memory stays allocated while the ByteBuffer
    // (a live argument of the native call) is reachable; `len` is within its
    // capacity. The benchmark hands distinct buffers to one call at a time.
    Some(unsafe { std::slice::from_raw_parts_mut(addr, len) })
}

/// Writes each result and an LF (an empty line for an invalid URL) into
/// `dst`, as `Wurl.canonicalizeLines` does; returns the bytes written, or
/// -1 when `dst` is full.
fn write_into(dst: &mut [u8], run: impl FnOnce(&mut dyn FnMut(Option<&[u8]>)) -> jlong) -> jlong {
    let mut at = 0usize;
    let mut full = false;
    run(&mut |out| {
        let o = out.unwrap_or(&[]);
        if full || dst.len() - at < o.len() + 1 {
            full = true;
            return;
        }
        dst[at..at + o.len()].copy_from_slice(o);
        dst[at + o.len()] = b'\n';
        at += o.len() + 1;
    });
    if full { -1 } else { at as jlong }
}

/// `CBulk.canon(in, len)`: one timed sample of the canon operation.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_wurl_bench_CBulk_canon<'l>(
    env: JNIEnv<'l>,
    _class: JClass<'l>,
    input: JByteBuffer<'l>,
    len: jint,
) -> jlong {
    match bytes(&env, &input, len) {
        Some(src) => canon_lines(src, |_| {}),
        None => -1,
    }
}

/// `CBulk.links(in, len)`: one timed sample of the links operation.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_wurl_bench_CBulk_links<'l>(
    env: JNIEnv<'l>,
    _class: JClass<'l>,
    input: JByteBuffer<'l>,
    len: jint,
) -> jlong {
    match bytes(&env, &input, len) {
        Some(src) => links_lines(src, |_| {}),
        None => -1,
    }
}

/// `CBulk.canonOut(in, len, out, cap)`: the canon operation's results, one
/// line each, for the benchmark's check (not timed).
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_wurl_bench_CBulk_canonOut<'l>(
    env: JNIEnv<'l>,
    _class: JClass<'l>,
    input: JByteBuffer<'l>,
    len: jint,
    output: JByteBuffer<'l>,
    cap: jint,
) -> jlong {
    match (bytes(&env, &input, len), bytes(&env, &output, cap)) {
        (Some(src), Some(dst)) => write_into(dst, |sink| canon_lines(src, sink)),
        _ => -1,
    }
}

/// `CBulk.linksOut(in, len, out, cap)`: the links operation's results, one
/// line each, for the benchmark's check (not timed).
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_wurl_bench_CBulk_linksOut<'l>(
    env: JNIEnv<'l>,
    _class: JClass<'l>,
    input: JByteBuffer<'l>,
    len: jint,
    output: JByteBuffer<'l>,
    cap: jint,
) -> jlong {
    match (bytes(&env, &input, len), bytes(&env, &output, cap)) {
        (Some(src), Some(dst)) => write_into(dst, |sink| links_lines(src, sink)),
        _ => -1,
    }
}

/// `CBulk.nop(x)`: `x + 1`, nothing else: the cost of a JNI call on this
/// JVM and machine, which every Java row pays per call.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_wurl_bench_CBulk_nop<'l>(
    _env: JNIEnv<'l>,
    _class: JClass<'l>,
    x: jlong,
) -> jlong {
    x.wrapping_add(1)
}

/// `CBulk.newString()`: a new Java string of wurl's version, made with
/// `NewStringUTF` and nothing else: what a call that returns a string pays
/// on top of the call.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_wurl_bench_CBulk_newString<'l>(
    env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jni::sys::jstring {
    env.new_string(wurl::VERSION)
        .map(|s| s.into_raw())
        .unwrap_or(ptr::null_mut())
}

/// `CBulk.newBytes()`: wurl's version as a new `byte[]` (`NewByteArray` +
/// `SetByteArrayRegion`), for the Java side to make the string: the other
/// way a call can return a string.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_wurl_bench_CBulk_newBytes<'l>(
    env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jni::sys::jbyteArray {
    env.byte_array_from_slice(wurl::VERSION.as_bytes())
        .map(|a| a.into_raw())
        .unwrap_or(ptr::null_mut())
}
