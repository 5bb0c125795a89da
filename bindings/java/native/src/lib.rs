//! `libwurl_jni`: the native half of the Java binding (`org.wurl`, bindings/java), a JNI library
//! over wurl's Rust API (not its C ABI) through the `jni` crate. Every export is a static native
//! method of `org.wurl.Native`; the Java classes check arguments for null and keep handles alive,
//! this side does the work.
//!
//! Policies, the same as the other bindings':
//! - A Java `String` is read as its UTF-16 code units, a lone surrogate becoming U+FFFD (what the
//!   C ABI does with invalid UTF-8, and Python with a lone surrogate).
//! - An input longer than the C ABI's `WURL_MAX_INPUT_LEN` bytes in UTF-8 throws `WurlException`
//!   with status `WURL_E_TOO_LONG` in the single calls; in the bulk calls its entry is invalid.
//! - An invalid URL is a result (`null`), not an exception.
//! - No panic crosses into the JVM: each export runs inside `boundary`, which turns a panic
//!   into a `WurlException` with status `WURL_E_PANIC`.
//!
//! Handles (`jlong`) are `Box`ed `wurl::Url` and `wurl::Rules` values. The Java side frees each
//! exactly once and never while a call that uses it runs (`org.wurl.NativeHandle`).

use std::borrow::Cow;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use jni::JNIEnv;
use jni::objects::{JByteArray, JByteBuffer, JClass, JIntArray, JObject, JObjectArray, JString};
use jni::sys::{jboolean, jbyteArray, jint, jlong, jobjectArray, jstring};
use wurl::ffi::{
    WURL_E_BAD_ARG, WURL_E_BAD_STATE, WURL_E_PANIC, WURL_E_TOO_LONG, WURL_MAX_INPUT_LEN,
    wurl_status,
};
use wurl::{CanonOptions, Component, KeyOptions, Rules, Url};

// ---------------------------------------------------------------------------
// Flags of the calls (`org.wurl.Native` has the same values).

/// Network-strict mode (`CanonOptions::network_strict`).
const FLAG_STRICT: jint = 1;
/// The URL Standard model instead of the 2012 algorithm.
const FLAG_STANDARD: jint = 2;
/// The SURT form of the (ruled) canonical URL.
const FLAG_SURT: jint = 4;
/// The SURT form keeping the scheme.
const FLAG_SURT_SCHEME: jint = 8;
const ALL_FLAGS: jint = FLAG_STRICT | FLAG_STANDARD | FLAG_SURT | FLAG_SURT_SCHEME;

// ---------------------------------------------------------------------------
// Errors and the panic boundary.

/// Why an export failed; [`boundary`] throws it as a Java exception.
enum Failure {
    /// A Java exception is already pending (a JNI call failed): it is the one thrown.
    Pending,
    /// `org.wurl.WurlException` with a C ABI status and a reason.
    Wurl(wurl_status, String),
    /// `IllegalArgumentException`: a bad rules specification, charset label or flag.
    IllegalArgument(String),
}

impl From<jni::errors::Error> for Failure {
    fn from(e: jni::errors::Error) -> Failure {
        match e {
            jni::errors::Error::JavaException => Failure::Pending,
            other => Failure::Wurl(WURL_E_BAD_ARG, format!("JNI call failed: {other}")),
        }
    }
}

fn too_long(what: &str) -> Failure {
    Failure::Wurl(
        WURL_E_TOO_LONG,
        format!(
            "{what} is longer than {WURL_MAX_INPUT_LEN} bytes (16 MiB) in UTF-8, the limit of wurl's inputs"
        ),
    )
}

type Res<T> = Result<T, Failure>;

/// Throws `f` unless an exception is pending already.
fn throw(env: &mut JNIEnv<'_>, f: Failure) {
    if env.exception_check().unwrap_or(true) {
        return;
    }
    // If throwing itself fails, the JVM has a pending exception of its own (out of memory, a
    // missing class) and that is what Java sees.
    let _ = match f {
        Failure::Pending => Ok(()),
        Failure::IllegalArgument(msg) => env.throw_new("java/lang/IllegalArgumentException", msg),
        Failure::Wurl(status, reason) => (|| {
            let reason = env.new_string(reason)?;
            let ex = env.new_object(
                "org/wurl/WurlException",
                "(ILjava/lang/String;)V",
                &[status.into(), (&reason).into()],
            )?;
            env.throw(jni::objects::JThrowable::from(ex))
        })(),
    };
}

/// Runs an export's body: its error becomes a Java exception, and so does a panic (which must
/// not unwind into the JVM); `fallback` is then returned (Java ignores it, an exception pending).
fn boundary<'l, R>(
    env: &mut JNIEnv<'l>,
    fallback: R,
    f: impl FnOnce(&mut JNIEnv<'l>) -> Res<R>,
) -> R {
    match catch_unwind(AssertUnwindSafe(|| f(env))) {
        Ok(Ok(r)) => r,
        Ok(Err(fail)) => {
            throw(env, fail);
            fallback
        }
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            throw(
                env,
                Failure::Wurl(
                    WURL_E_PANIC,
                    format!("internal error (panic caught in wurl): {msg}"),
                ),
            );
            fallback
        }
    }
}

/// An export of `org.wurl.Native`: `fn Java_org_wurl_Native_x<'l>(args) -> ret, else fallback,
/// |env| body` is the `extern "system"` function the JVM calls with its `JNIEnv`, the class and
/// `args`, whose body runs inside [`boundary`] (a failure or a panic thrown as a Java exception,
/// `fallback` returned then), `env` the `&mut JNIEnv` it lends the body.
macro_rules! jni_export {
    (
        $(#[$doc:meta])*
        fn $name:ident<$l:lifetime>($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?,
        else $fallback:expr, |$env:pat_param| $body:block
    ) => {
        $(#[$doc])*
        #[unsafe(no_mangle)]
        pub extern "system" fn $name<$l>(
            mut env: JNIEnv<$l>,
            _class: JClass<$l>,
            $($arg: $ty),*
        ) $(-> $ret)? {
            boundary(&mut env, $fallback, |$env| $body)
        }
    };
}

// ---------------------------------------------------------------------------
// Strings in and out.

/// Per-thread buffers, reused by every call of the thread.
#[derive(Default)]
struct Scratch {
    units: Vec<u16>,
    url: String,
    base: String,
    charset: String,
    out: String,
    modified: Vec<u8>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's buffers (fresh ones if they are in use: no call nests, but a
/// fresh set costs only allocations). Buffers grown past 1 MiB are dropped after the call.
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut guard) => {
            let sc = &mut *guard;
            let r = f(sc);
            for s in [&mut sc.url, &mut sc.base, &mut sc.out] {
                if s.capacity() > 1 << 20 {
                    *s = String::new();
                }
            }
            if sc.units.capacity() > 1 << 20 {
                sc.units = Vec::new();
            }
            if sc.modified.capacity() > 1 << 20 {
                sc.modified = Vec::new();
            }
            r
        }
        Err(_) => f(&mut Scratch::default()),
    })
}

/// Reads the Java string `s` into `out` as UTF-8: its UTF-16 code units decoded, each lone
/// surrogate as U+FFFD. `Err(None)` when longer than `WURL_MAX_INPUT_LEN` bytes in UTF-8.
fn read_str(
    env: &JNIEnv<'_>,
    s: &JString<'_>,
    units: &mut Vec<u16>,
    out: &mut String,
) -> Result<(), Option<Failure>> {
    out.clear();
    let raw = env.get_raw();
    let missing = || Some(Failure::Wurl(WURL_E_PANIC, "JNI function missing".into()));
    // SAFETY: `raw` is the valid JNIEnv of this thread (the JVM passed it to the export); the
    // function table of a JNIEnv is valid for its lifetime.
    let table = unsafe { &**raw };
    let get_len = table.GetStringLength.ok_or_else(missing)?;
    let get_region = table.GetStringRegion.ok_or_else(missing)?;
    // SAFETY: `s` is a live local reference to a java.lang.String (the Java side checked it is
    // not null; the native method's signature makes it a String).
    let len = unsafe { get_len(raw, s.as_raw()) };
    let n = usize::try_from(len).unwrap_or(0);
    // Each code unit is at least one UTF-8 byte.
    if n > WURL_MAX_INPUT_LEN {
        return Err(None);
    }
    units.clear();
    units.reserve(n);
    // SAFETY: `units` has room for `n` code units; GetStringRegion writes exactly `len` of them
    // (0..len is within the string, whose length was just read: strings are immutable).
    unsafe {
        get_region(raw, s.as_raw(), 0, len, units.as_mut_ptr());
        units.set_len(n);
    }
    let ascii = units.iter().position(|&u| u >= 0x80).unwrap_or(n);
    out.reserve(n);
    out.extend(units[..ascii].iter().map(|&u| char::from(u as u8)));
    if ascii < n {
        out.extend(
            char::decode_utf16(units[ascii..].iter().copied())
                .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER)),
        );
    }
    if out.len() > WURL_MAX_INPUT_LEN {
        out.clear();
        return Err(None);
    }
    Ok(())
}

/// [`read_str`] for a single call: too long throws `WurlException` naming `what`.
fn read_arg(
    env: &JNIEnv<'_>,
    s: &JString<'_>,
    units: &mut Vec<u16>,
    out: &mut String,
    what: &str,
) -> Res<()> {
    read_str(env, s, units, out).map_err(|e| e.unwrap_or_else(|| too_long(what)))
}

/// [`read_arg`] of a nullable argument: `Ok(false)` for null.
fn read_opt(
    env: &JNIEnv<'_>,
    s: &JString<'_>,
    units: &mut Vec<u16>,
    out: &mut String,
    what: &str,
) -> Res<bool> {
    if s.as_raw().is_null() {
        return Ok(false);
    }
    read_arg(env, s, units, out, what).map(|()| true)
}

/// A new Java string of `s`, through JNI's modified UTF-8 (NUL as `C0 80`, a supplementary
/// character as two 3-byte surrogates) built in `buf`.
fn new_string(env: &JNIEnv<'_>, s: &str, buf: &mut Vec<u8>) -> Res<jstring> {
    buf.clear();
    // Bytes 0xF0 and above start the 4-byte sequences of supplementary characters.
    if s.bytes().all(|b| b != 0 && b < 0xF0) {
        buf.extend_from_slice(s.as_bytes());
    } else {
        for c in s.chars() {
            if c == '\0' {
                buf.extend_from_slice(&[0xC0, 0x80]);
            } else if (c as u32) < 0x10000 {
                buf.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            } else {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let u = u32::from(*u);
                    buf.extend_from_slice(&[
                        0xE0 | (u >> 12) as u8,
                        0x80 | ((u >> 6) & 0x3F) as u8,
                        0x80 | (u & 0x3F) as u8,
                    ]);
                }
            }
        }
    }
    buf.push(0);
    let raw = env.get_raw();
    // SAFETY: as in `read_str`, a valid JNIEnv and its function table.
    let table = unsafe { &**raw };
    let new_utf = table
        .NewStringUTF
        .ok_or_else(|| Failure::Wurl(WURL_E_PANIC, "JNI function missing".into()))?;
    // SAFETY: `buf` is NUL-terminated modified UTF-8 (built above) and lives across the call.
    let js = unsafe { new_utf(raw, buf.as_ptr().cast()) };
    if js.is_null() {
        // Out of memory: an OutOfMemoryError is pending.
        return Err(Failure::Pending);
    }
    Ok(js)
}

fn new_opt_string(env: &JNIEnv<'_>, s: Option<&str>, buf: &mut Vec<u8>) -> Res<jstring> {
    match s {
        Some(s) => new_string(env, s, buf),
        None => Ok(std::ptr::null_mut()),
    }
}

// ---------------------------------------------------------------------------
// Charset labels.

/// The message for a charset label that names no encoding; `None` when it names one. The
/// library reads an unknown label as UTF-8 (the 2012 algorithm's rule), so a misspelt one
/// (`shiftjis`) would silently mean UTF-8: the binding refuses it, as the others do.
fn charset_error(label: &str) -> Option<String> {
    // The library's one resolution and its one message (every front end shows the same text).
    wurl::charset::resolve_label(label.as_bytes())
        .err()
        .map(|e| e.to_string())
}

// ---------------------------------------------------------------------------
// Handles.

/// The `Url` of a handle.
fn url_ref<'a>(h: jlong) -> Res<&'a Url> {
    if h == 0 {
        return Err(Failure::Wurl(WURL_E_BAD_ARG, "no URL handle".into()));
    }
    // SAFETY: a non-zero URL handle is a `Box<Url>` made by `url_handle` and not yet freed: the
    // Java side (NativeHandle) frees it only once no call that uses it is running, and passes
    // only handles it made. `Url` is immutable and `Sync`: calls on several threads may share it.
    Ok(unsafe { &*(h as *const Url) })
}

fn url_handle(u: Url) -> jlong {
    Box::into_raw(Box::new(u)) as jlong
}

/// The `Rules` of a handle; 0 is none.
fn rules_ref<'a>(h: jlong) -> Option<&'a Rules> {
    if h == 0 {
        return None;
    }
    // SAFETY: as for `url_ref`: a `Box<Rules>` made by `rulesCompile`, alive during the call.
    Some(unsafe { &*(h as *const Rules) })
}

// ---------------------------------------------------------------------------
// The options of a call and the one-URL core.

/// A call's options, from its `charset`, `flags` and `rules` arguments.
struct Opts<'a> {
    charset: Option<&'a str>,
    strict: bool,
    standard: bool,
    key: KeyOptions<'a>,
}

impl<'a> Opts<'a> {
    fn new(charset: Option<&'a str>, flags: jint, rules: jlong) -> Res<Opts<'a>> {
        if flags & !ALL_FLAGS != 0 {
            return Err(Failure::IllegalArgument(format!(
                "unknown flags {flags:#x}"
            )));
        }
        let (strict, standard) = (flags & FLAG_STRICT != 0, flags & FLAG_STANDARD != 0);
        if strict && standard {
            return Err(Failure::IllegalArgument(
                "network-strict mode tests the 2012 result; it cannot be used with the URL Standard model".into(),
            ));
        }
        if let Some(msg) = charset.and_then(charset_error) {
            return Err(Failure::IllegalArgument(msg));
        }
        let surt_scheme = flags & FLAG_SURT_SCHEME != 0;
        Ok(Opts {
            charset,
            strict,
            standard,
            key: KeyOptions {
                rules: rules_ref(rules),
                surt: (flags & FLAG_SURT != 0 || surt_scheme).then_some(wurl::surt::SurtOptions {
                    with_scheme: surt_scheme,
                }),
            },
        })
    }

    fn canon(&self) -> CanonOptions<'a> {
        CanonOptions {
            charset: self.charset,
            network_strict: self.strict,
        }
    }
}

/// A call's base, made once for all its URLs.
enum Base<'a> {
    /// Each URL is its own base.
    Own,
    /// The 2012 model's base: a handle's URL or a parsed string.
    Canon(Cow<'a, Url>),
    /// The URL Standard model's base: a string, or `None` when the base handle is invalid (every
    /// URL against it is then invalid).
    Standard(Option<&'a str>),
}

impl<'a> Base<'a> {
    fn new(opts: &Opts<'_>, text: Option<&'a str>, handle: Option<&'a Url>) -> Base<'a> {
        match (opts.standard, text, handle) {
            (_, None, None) => Base::Own,
            (false, Some(t), _) => Base::Canon(Cow::Owned(wurl::parse(t))),
            (false, None, Some(u)) => Base::Canon(Cow::Borrowed(u)),
            (true, Some(t), _) => Base::Standard(Some(t)),
            (true, None, Some(u)) => Base::Standard(u.as_str()),
        }
    }
}

/// The key of `input` against `base` appended to `out`; `false` (nothing appended) when invalid.
fn key_into(base: &Base<'_>, input: &str, o: &Opts<'_>, out: &mut String) -> bool {
    let start = out.len();
    let ok = match base {
        Base::Own if o.standard => {
            wurl::key_standard_into(None, input, o.charset, &o.key, out).is_ok()
        }
        Base::Own => wurl::key_into(None, input, &o.canon(), &o.key, out).is_ok(),
        Base::Canon(b) => wurl::key_into(Some(b), input, &o.canon(), &o.key, out).is_ok(),
        Base::Standard(Some(b)) => {
            wurl::key_standard_into(Some(b), input, o.charset, &o.key, out).is_ok()
        }
        Base::Standard(None) => false,
    };
    if !ok {
        out.truncate(start);
    }
    ok
}

/// Reads the common arguments of the canonicalizing calls (the charset into `sc.charset`, the
/// base string into `sc.base`) and runs `f` with the options and the base.
#[allow(clippy::too_many_arguments)]
fn with_call<'l, R>(
    env: &mut JNIEnv<'l>,
    sc: &mut Scratch,
    base: &JString<'_>,
    base_url: jlong,
    charset: &JString<'_>,
    flags: jint,
    rules: jlong,
    f: impl FnOnce(&mut JNIEnv<'l>, &mut Scratch, &Opts<'_>, &Base<'_>) -> Res<R>,
) -> Res<R> {
    let mut charset_buf = std::mem::take(&mut sc.charset);
    let mut base_buf = std::mem::take(&mut sc.base);
    let r = (|| {
        let env = &mut *env;
        let has_cs = read_opt(env, charset, &mut sc.units, &mut charset_buf, "charset")?;
        let has_base = read_opt(env, base, &mut sc.units, &mut base_buf, "base")?;
        let handle = if base_url != 0 {
            Some(url_ref(base_url)?)
        } else {
            None
        };
        let opts = Opts::new(has_cs.then_some(charset_buf.as_str()), flags, rules)?;
        let b = Base::new(&opts, has_base.then_some(base_buf.as_str()), handle);
        f(env, sc, &opts, &b)
    })();
    sc.charset = charset_buf;
    sc.base = base_buf;
    r
}

// ---------------------------------------------------------------------------
// The exports: one URL.

jni_export! {
    /// `Native.canon(url, base, baseUrl, charset, flags, rules)`: the key of `url` (resolved against
    /// the string `base` or the handle `baseUrl`, or itself), or null when invalid.
    fn Java_org_wurl_Native_canon<'l>(
        url: JString<'l>,
        base: JString<'l>,
        base_url: jlong,
        charset: JString<'l>,
        flags: jint,
        rules: jlong,
    ) -> jstring, else std::ptr::null_mut(), |env| {
        with_scratch(|sc| {
            with_call(
                env,
                sc,
                &base,
                base_url,
                &charset,
                flags,
                rules,
                |env, sc, opts, b| {
                    let mut input = std::mem::take(&mut sc.url);
                    let r = (|| {
                        read_arg(env, &url, &mut sc.units, &mut input, "url")?;
                        sc.out.clear();
                        if key_into(b, &input, opts, &mut sc.out) {
                            new_string(env, &sc.out, &mut sc.modified)
                        } else {
                            Ok(std::ptr::null_mut())
                        }
                    })();
                    sc.url = input;
                    r
                },
            )
        })
    }
}

jni_export! {
    /// `Native.checkCharset(label)`: throws IllegalArgumentException when `label` names no encoding.
    fn Java_org_wurl_Native_checkCharset<'l>(label: JString<'l>), else (), |env| {
        with_scratch(|sc| {
            let mut s = std::mem::take(&mut sc.charset);
            let r = read_arg(env, &label, &mut sc.units, &mut s, "charset");
            let msg = charset_error(&s);
            sc.charset = s;
            r?;
            match msg {
                Some(m) => Err(Failure::IllegalArgument(m)),
                None => Ok(()),
            }
        })
    }
}

jni_export! {
    /// `Native.version()`: the wurl library version.
    fn Java_org_wurl_Native_version<'l>() -> jstring, else std::ptr::null_mut(), |env| {
        new_string(env, wurl::VERSION, &mut Vec::new())
    }
}

/// `Native.maxInputLen()`: `WURL_MAX_INPUT_LEN`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_wurl_Native_maxInputLen<'l>(
    _env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jlong {
    WURL_MAX_INPUT_LEN as jlong
}

/// `Native.keyVersion()`: `wurl::KEY_VERSION`, the version of the keys the library makes.
#[unsafe(no_mangle)]
pub extern "system" fn Java_org_wurl_Native_keyVersion<'l>(
    _env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jint {
    wurl::KEY_VERSION as jint
}

jni_export! {
    /// `Native.status(name)`: the C ABI's value of the status constant `name` (`WURL_E_TOO_LONG`...),
    /// -1 for an unknown name; for the test of the Java constants.
    fn Java_org_wurl_Native_status<'l>(name: JString<'l>) -> jint, else -1, |env| {
        let mut s = String::new();
        read_arg(env, &name, &mut Vec::new(), &mut s, "name")?;
        use wurl::ffi::*;
        Ok(match s.as_str() {
            "WURL_OK" => WURL_OK,
            "WURL_E_NULL_ARG" => WURL_E_NULL_ARG,
            "WURL_E_BAD_ARG" => WURL_E_BAD_ARG,
            "WURL_E_TOO_LONG" => WURL_E_TOO_LONG,
            "WURL_E_PANIC" => WURL_E_PANIC,
            "WURL_E_BUFFER_TOO_SMALL" => WURL_E_BUFFER_TOO_SMALL,
            "WURL_INVALID_URL" => WURL_INVALID_URL,
            "WURL_E_BAD_STATE" => WURL_E_BAD_STATE,
            _ => -1,
        })
    }
}

jni_export! {
    /// `Native.panicForTest()`: panics, for the test that a panic becomes a WurlException.
    fn Java_org_wurl_Native_panicForTest<'l>(), else (), |_| {
        panic!("a test of the panic boundary")
    }
}

// ---------------------------------------------------------------------------
// The exports: bulk.

jni_export! {
    /// `Native.canonAll(urls, base, baseUrl, charset, flags, rules)`: one key per URL, null for a
    /// null, invalid or too long URL.
    fn Java_org_wurl_Native_canonAll<'l>(
        urls: JObjectArray<'l>,
        base: JString<'l>,
        base_url: jlong,
        charset: JString<'l>,
        flags: jint,
        rules: jlong,
    ) -> jobjectArray, else std::ptr::null_mut(), |env| {
        with_scratch(|sc| {
            with_call(
                env,
                sc,
                &base,
                base_url,
                &charset,
                flags,
                rules,
                |env, sc, opts, b| {
                    let n = env.get_array_length(&urls)?;
                    let result = env.new_object_array(n, "java/lang/String", JObject::null())?;
                    let mut input = std::mem::take(&mut sc.url);
                    let r = (|| {
                        for i in 0..n {
                            let item = JString::from(env.get_object_array_element(&urls, i)?);
                            if item.as_raw().is_null() {
                                continue;
                            }
                            let read = read_str(env, &item, &mut sc.units, &mut input);
                            env.delete_local_ref(item)?;
                            match read {
                                Ok(()) => {}
                                Err(None) => continue,
                                Err(Some(f)) => return Err(f),
                            }
                            sc.out.clear();
                            if key_into(b, &input, opts, &mut sc.out) {
                                let js = new_string(env, &sc.out, &mut sc.modified)?;
                                // SAFETY: `js` is the new local reference NewStringUTF returned.
                                let js = unsafe { JObject::from_raw(js) };
                                env.set_object_array_element(&result, i, &js)?;
                                env.delete_local_ref(js)?;
                            }
                        }
                        Ok(())
                    })();
                    sc.url = input;
                    r.map(|()| result.into_raw())
                },
            )
        })
    }
}

jni_export! {
    /// `Native.canonLines(in, inPos, inLim, out, outPos, outLim, base, baseUrl, charset, flags, rules,
    /// counts)`: the LF-separated URLs of `in[inPos..inLim]` (direct buffers), one key per line
    /// written to `out[outPos..outLim]`, each followed by LF, an empty line for an invalid URL. A
    /// last line without LF counts when non-empty. Stops before the first line whose key does not fit.
    /// `counts` gets the bytes read, the bytes written and the lines done.
    fn Java_org_wurl_Native_canonLines<'l>(
        input: JByteBuffer<'l>,
        in_pos: jint,
        in_lim: jint,
        output: JByteBuffer<'l>,
        out_pos: jint,
        out_lim: jint,
        base: JString<'l>,
        base_url: jlong,
        charset: JString<'l>,
        flags: jint,
        rules: jlong,
        counts: JIntArray<'l>,
    ), else (), |env| {
        let bad = |m: &str| Failure::IllegalArgument(m.to_owned());
        let in_addr = env
            .get_direct_buffer_address(&input)
            .map_err(|_| bad("in must be a direct ByteBuffer"))?;
        let in_cap = env.get_direct_buffer_capacity(&input)?;
        let out_addr = env
            .get_direct_buffer_address(&output)
            .map_err(|_| bad("out must be a direct ByteBuffer"))?;
        let out_cap = env.get_direct_buffer_capacity(&output)?;
        let range = |pos: jint, lim: jint, cap: usize| -> Option<(usize, usize)> {
            let (p, l) = (usize::try_from(pos).ok()?, usize::try_from(lim).ok()?);
            (p <= l && l <= cap).then_some((p, l))
        };
        let (ip, il) = range(in_pos, in_lim, in_cap).ok_or_else(|| bad("bad in range"))?;
        let (op, ol) = range(out_pos, out_lim, out_cap).ok_or_else(|| bad("bad out range"))?;
        let (in_start, out_start) = (in_addr as usize + ip, out_addr as usize + op);
        if in_start < out_start + (ol - op) && out_start < in_start + (il - ip) {
            return Err(bad("in and out must not overlap"));
        }
        // SAFETY: both buffers are direct, so their memory stays put during the call (the
        // ByteBuffer objects are live arguments, which keeps it allocated); the ranges are
        // within their capacities (checked above) and do not overlap (checked above). The Java
        // contract (Wurl.canonicalizeLines) says no other thread may change them meanwhile.
        let (src, dst) = unsafe {
            (
                std::slice::from_raw_parts(in_addr.add(ip).cast_const(), il - ip),
                std::slice::from_raw_parts_mut(out_addr.add(op), ol - op),
            )
        };
        let done = with_scratch(|sc| {
            with_call(
                env,
                sc,
                &base,
                base_url,
                &charset,
                flags,
                rules,
                |_, sc, opts, b| Ok(lines(src, dst, opts, b, &mut sc.out)),
            )
        })?;
        let to_jint = |v: usize| jint::try_from(v).unwrap_or(jint::MAX);
        env.set_int_array_region(
            &counts,
            0,
            &[to_jint(done.0), to_jint(done.1), to_jint(done.2)],
        )?;
        Ok(())
    }
}

/// The work of `canonLines`: (bytes read, bytes written, lines done).
fn lines(
    src: &[u8],
    dst: &mut [u8],
    opts: &Opts<'_>,
    base: &Base<'_>,
    out: &mut String,
) -> (usize, usize, usize) {
    let (mut read, mut written, mut n) = (0, 0, 0);
    while read < src.len() {
        let rest = &src[read..];
        let (line, used) = match memchr_lf(rest) {
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        out.clear();
        if line.len() <= WURL_MAX_INPUT_LEN {
            let text = String::from_utf8_lossy(line);
            key_into(base, &text, opts, out);
        }
        let need = out.len() + 1;
        if dst.len() - written < need {
            break;
        }
        dst[written..written + out.len()].copy_from_slice(out.as_bytes());
        dst[written + out.len()] = b'\n';
        written += need;
        read += used;
        n += 1;
    }
    (read, written, n)
}

fn memchr_lf(s: &[u8]) -> Option<usize> {
    s.iter().position(|&b| b == b'\n')
}

// ---------------------------------------------------------------------------
// The exports: rules.

jni_export! {
    /// `Native.rulesCompile(spec)`: a rules handle; IllegalArgumentException naming the bad part.
    fn Java_org_wurl_Native_rulesCompile<'l>(spec: JString<'l>) -> jlong, else 0, |env| {
        let mut s = String::new();
        read_arg(env, &spec, &mut Vec::new(), &mut s, "rules specification")?;
        let rules = Rules::parse(&s).map_err(|e| Failure::IllegalArgument(e.to_string()))?;
        Ok(Box::into_raw(Box::new(rules)) as jlong)
    }
}

jni_export! {
    /// `Native.rulesSpec(rules)`: the specification, as given.
    fn Java_org_wurl_Native_rulesSpec<'l>(
        rules: jlong,
    ) -> jstring, else std::ptr::null_mut(), |env| {
        let r = rules_ref(rules).ok_or_else(|| Failure::Wurl(WURL_E_BAD_ARG, "no rules".into()))?;
        new_string(env, r.as_str(), &mut Vec::new())
    }
}

jni_export! {
    /// `Native.rulesFree(rules)`.
    fn Java_org_wurl_Native_rulesFree<'l>(rules: jlong), else (), |_| {
        if rules != 0 {
            // SAFETY: the handle came from `rulesCompile` and Java frees it once, when no call
            // uses it (NativeHandle).
            drop(unsafe { Box::from_raw(rules as *mut Rules) });
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// The exports: URL handles.

jni_export! {
    /// `Native.urlParse(url)`.
    fn Java_org_wurl_Native_urlParse<'l>(url: JString<'l>) -> jlong, else 0, |env| {
        with_scratch(|sc| {
            let mut s = std::mem::take(&mut sc.url);
            let r = read_arg(env, &url, &mut sc.units, &mut s, "url").map(|()| wurl::parse(&s));
            sc.url = s;
            r.map(url_handle)
        })
    }
}

jni_export! {
    /// `Native.urlResolve(base, ref)`: `ref` resolved against the handle `base`, not canonicalized.
    fn Java_org_wurl_Native_urlResolve<'l>(
        base: jlong,
        reference: JString<'l>,
    ) -> jlong, else 0, |env| {
        let b = url_ref(base)?;
        with_scratch(|sc| {
            let mut s = std::mem::take(&mut sc.url);
            let r = read_arg(env, &reference, &mut sc.units, &mut s, "ref")
                .map(|()| wurl::resolve(b, &s));
            sc.url = s;
            r.map(url_handle)
        })
    }
}

jni_export! {
    /// `Native.urlCanonicalize(url, charset, flags)`: the canonicalization of the handle's URL
    /// (flags: only FLAG_STRICT).
    fn Java_org_wurl_Native_urlCanonicalize<'l>(
        url: jlong,
        charset: JString<'l>,
        flags: jint,
    ) -> jlong, else 0, |env| {
        let u = url_ref(url)?;
        if flags & !FLAG_STRICT != 0 {
            return Err(Failure::IllegalArgument(
                "a URL record is canonicalized by the 2012 algorithm only".into(),
            ));
        }
        with_scratch(|sc| {
            let mut cs = std::mem::take(&mut sc.charset);
            let r = (|| {
                let has = read_opt(env, &charset, &mut sc.units, &mut cs, "charset")?;
                let opts = Opts::new(has.then_some(cs.as_str()), flags, 0)?;
                Ok(url_handle(wurl::canonicalize_with(u, &opts.canon())))
            })();
            sc.charset = cs;
            r
        })
    }
}

jni_export! {
    /// `Native.urlCanonical(url, base, baseUrl, charset, flags)`: the canonical URL record of `url`
    /// against the string `base`, the handle `baseUrl` or itself. Without a base, an input that does
    /// not parse gives its parse, with the parse's reason (`wurl::own_base`).
    fn Java_org_wurl_Native_urlCanonical<'l>(
        url: JString<'l>,
        base: JString<'l>,
        base_url: jlong,
        charset: JString<'l>,
        flags: jint,
    ) -> jlong, else 0, |env| {
        if flags & !FLAG_STRICT != 0 {
            return Err(Failure::IllegalArgument(
                "a URL record is canonicalized by the 2012 algorithm only".into(),
            ));
        }
        with_scratch(|sc| {
            with_call(
                env,
                sc,
                &base,
                base_url,
                &charset,
                flags,
                0,
                |env, sc, opts, b| {
                    let mut input = std::mem::take(&mut sc.url);
                    let r = read_arg(env, &url, &mut sc.units, &mut input, "url").map(|()| {
                        let resolved = match b {
                            Base::Canon(b) => wurl::resolve(b, &input),
                            _ => match wurl::own_base(&input) {
                                Ok(parsed) => wurl::resolve(&parsed, &input),
                                Err(parsed) => return parsed,
                            },
                        };
                        wurl::canonicalize_with(&resolved, &opts.canon())
                    });
                    sc.url = input;
                    r.map(url_handle)
                },
            )
        })
    }
}

jni_export! {
    /// `Native.urlGet(url, component)`: the component (index into `Component::ALL`: scheme, user,
    /// password, host, port, path, query, fragment), null when absent.
    fn Java_org_wurl_Native_urlGet<'l>(
        url: jlong,
        component: jint,
    ) -> jstring, else std::ptr::null_mut(), |env| {
        let u = url_ref(url)?;
        let c = u32::try_from(component)
            .ok()
            .and_then(Component::from_index)
            .ok_or_else(|| Failure::IllegalArgument(format!("no component {component}")))?;
        with_scratch(|sc| new_opt_string(env, u.get(c), &mut sc.modified))
    }
}

jni_export! {
    /// `Native.urlSerialize(url)`: the serialization, null when invalid.
    fn Java_org_wurl_Native_urlSerialize<'l>(
        url: jlong,
    ) -> jstring, else std::ptr::null_mut(), |env| {
        let u = url_ref(url)?;
        with_scratch(|sc| new_opt_string(env, u.as_str(), &mut sc.modified))
    }
}

jni_export! {
    /// `Native.urlReason(url)`: why the URL is invalid, null when valid.
    fn Java_org_wurl_Native_urlReason<'l>(url: jlong) -> jstring, else std::ptr::null_mut(), |env| {
        let u = url_ref(url)?;
        with_scratch(|sc| {
            new_opt_string(
                env,
                u.invalid_reason().map(|r| r.as_str()),
                &mut sc.modified,
            )
        })
    }
}

jni_export! {
    /// `Native.urlInfo(url)`: bit 0 invalid, bit 1 hierarchical, bits 4..7 the host kind
    /// (0 none, 1 empty, 2 domain, 3 IPv4, 4 IPv6: the C ABI's `WURL_HOST_*` values).
    fn Java_org_wurl_Native_urlInfo<'l>(url: jlong) -> jint, else 0, |_| {
        use wurl::host::HostKind;
        let u = url_ref(url)?;
        let kind = match wurl::host::host_kind(u) {
            HostKind::None => wurl::ffi::WURL_HOST_NONE,
            HostKind::Empty => wurl::ffi::WURL_HOST_EMPTY,
            HostKind::Domain => wurl::ffi::WURL_HOST_DOMAIN,
            HostKind::Ipv4 => wurl::ffi::WURL_HOST_IPV4,
            HostKind::Ipv6 => wurl::ffi::WURL_HOST_IPV6,
        };
        Ok(jint::from(u.is_invalid())
            | (jint::from(u.is_hierarchical()) << 1)
            | ((kind as jint) << 4))
    }
}

jni_export! {
    /// `Native.urlEquals(a, b)`: whether every component (absent or empty), the flags and the
    /// invalid reason are equal.
    fn Java_org_wurl_Native_urlEquals<'l>(a: jlong, b: jlong) -> jboolean, else 0, |_| {
        Ok(jboolean::from(url_ref(a)? == url_ref(b)?))
    }
}

jni_export! {
    /// `Native.urlFree(url)`.
    fn Java_org_wurl_Native_urlFree<'l>(url: jlong), else (), |_| {
        if url != 0 {
            // SAFETY: the handle came from `url_handle` and Java frees it once, when no call
            // uses it (NativeHandle).
            drop(unsafe { Box::from_raw(url as *mut Url) });
        }
        Ok(())
    }
}

jni_export! {
    /// `Native.urlExportState(url)`: the record's whole value as the library's state bytes
    /// (java.io.Serializable writes them).
    fn Java_org_wurl_Native_urlExportState<'l>(
        url: jlong,
    ) -> jbyteArray, else std::ptr::null_mut(), |env| {
        let state = url_ref(url)?.export_state();
        Ok(env.byte_array_from_slice(&state)?.into_raw())
    }
}

jni_export! {
    /// `Native.urlImportState(bytes)`: a new handle of the value `bytes` hold, or `WurlException`
    /// with `BAD_STATE` for bytes that are no state the library wrote (checked, never trusted).
    fn Java_org_wurl_Native_urlImportState<'l>(state: JByteArray<'l>) -> jlong, else 0, |env| {
        let bytes = env.convert_byte_array(&state)?;
        match Url::import_state(&bytes) {
            Ok(u) => Ok(url_handle(u)),
            Err(e) => Err(Failure::Wurl(WURL_E_BAD_STATE, e.to_string())),
        }
    }
}
