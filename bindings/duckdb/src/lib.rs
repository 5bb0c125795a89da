//! wurl as a loadable DuckDB extension: scalar functions over DuckDB's string vectors, on
//! DuckDB's C extension API (the function table DuckDB hands the extension when it loads it).
//!
//! | function | result |
//! | --- | --- |
//! | `wurl_canon(url)`, `wurl_canon(url, base)`, `wurl_canon(url, base, charset)` | the canonical URL |
//! | `wurl_resolve(base, url)` | `url` resolved against `base`, not canonicalized |
//! | `wurl_key(url, rules)` | the canonical URL with the dedup rules applied (docs/keys.md) |
//! | `wurl_surt(url)` | the SURT form of the canonical URL |
//! | `wurl_standard(url)`, `wurl_standard(url, base)` | the URL Standard model's serialization |
//! | `wurl_reason(url)`, `wurl_reason(url, base)` | why the URL is invalid; NULL when it is valid |
//!
//! NULL in any argument gives NULL; an invalid URL gives NULL (`wurl_reason` says why). A rules
//! specification or charset is read once, when the query is bound: it must be a constant, and
//! a bad one is an error of the query before any row runs. No panic crosses into DuckDB: each
//! callback catches it and reports an error instead.

use std::ffi::{CStr, CString, c_char, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use libduckdb_sys as ffi;
use wurl::{CanonOptions, Rules};

pub mod kernel;

use kernel::{Config, Kind};

/// The oldest DuckDB C extension API version this extension asks for: v1.5.6 is the first
/// whose stable API has scalar-function bind callbacks (the bind-time rules and charset
/// errors need them). DuckDB releases of that C API or newer within major version 1 load it.
pub const C_API_VERSION: &str = "v1.5.6";

/// The entry point DuckDB calls on `LOAD` (named `<file name>_init_c_api`).
///
/// # Safety
/// Called by DuckDB only, with the `info` and `access` of the load in progress.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn wurl_init_c_api(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> bool {
    let run = AssertUnwindSafe(|| {
        // SAFETY: `info` and `access` are the live ones of this load (DuckDB's contract).
        unsafe { init(info, access) }
    });
    match catch_unwind(run) {
        Ok(Ok(())) => true,
        Ok(Err(msg)) => {
            // SAFETY: as above; `set_error` copies the message.
            unsafe { set_load_error(info, access, &msg) };
            false
        }
        Err(_) => {
            // SAFETY: as above.
            unsafe { set_load_error(info, access, "wurl: internal error while loading") };
            false
        }
    }
}

/// # Safety
/// `info` and `access` as for [`wurl_init_c_api`].
unsafe fn set_load_error(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
    msg: &str,
) {
    let msg = c_message(msg);
    // SAFETY: `access` points to DuckDB's table for this load; `set_error` copies the string.
    if let Some(set_error) = unsafe { access.as_ref() }.and_then(|a| a.set_error) {
        unsafe { set_error(info, msg.as_ptr()) };
    }
}

/// `msg` as a C string (a NUL inside, which no message of ours has, is cut off there).
fn c_message(msg: &str) -> CString {
    let end = msg.find('\0').unwrap_or(msg.len());
    CString::new(&msg[..end]).unwrap_or_default()
}

/// # Safety
/// `info` and `access` as for [`wurl_init_c_api`].
unsafe fn init(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> Result<(), String> {
    // SAFETY: DuckDB's load contract; the call fills the crate's function table.
    let have = unsafe { ffi::duckdb_rs_extension_api_init(info, access, C_API_VERSION) }
        .map_err(|e| format!("wurl: {e}"))?;
    if !have {
        // DuckDB has already set the error (a C API older than C_API_VERSION).
        return Err(format!(
            "wurl: this DuckDB does not offer C extension API {C_API_VERSION}"
        ));
    }
    // SAFETY: as above; `get_database` returns the database being loaded into, or null.
    let db = unsafe { (*access).get_database.map(|f| f(info)) }
        .filter(|p| !p.is_null())
        .ok_or("wurl: DuckDB gave no database")?;
    let mut con: ffi::duckdb_connection = std::ptr::null_mut();
    // SAFETY: `db` is valid during the load; `con` is disconnected below.
    if unsafe { ffi::duckdb_connect(*db, &mut con) } != ffi::DuckDBSuccess {
        return Err("wurl: could not connect to the database".into());
    }
    let result = register_all(con);
    // SAFETY: `con` came from duckdb_connect above.
    unsafe { ffi::duckdb_disconnect(&mut con) };
    result
}

/// One overload of a function: its argument count, and which of them are read at bind time.
struct Overload {
    args: usize,
    exec: ffi::duckdb_scalar_function_t,
    bind: ffi::duckdb_scalar_function_bind_t,
}

fn overload<const K: u8>(args: usize) -> Overload {
    Overload {
        args,
        exec: Some(exec::<K>),
        bind: Some(bind::<K>),
    }
}

fn register_all(con: ffi::duckdb_connection) -> Result<(), String> {
    use kernel::kind;
    let sets: [(&str, Vec<Overload>); 6] = [
        (
            "wurl_canon",
            vec![
                overload::<{ kind::CANON }>(1),
                overload::<{ kind::CANON }>(2),
                overload::<{ kind::CANON }>(3),
            ],
        ),
        ("wurl_resolve", vec![overload::<{ kind::RESOLVE }>(2)]),
        ("wurl_key", vec![overload::<{ kind::KEY }>(2)]),
        ("wurl_surt", vec![overload::<{ kind::SURT }>(1)]),
        (
            "wurl_standard",
            vec![
                overload::<{ kind::STANDARD }>(1),
                overload::<{ kind::STANDARD }>(2),
            ],
        ),
        (
            "wurl_reason",
            vec![
                overload::<{ kind::REASON }>(1),
                overload::<{ kind::REASON }>(2),
            ],
        ),
    ];
    for (name, overloads) in sets {
        register_set(con, name, &overloads)?;
    }
    Ok(())
}

fn register_set(
    con: ffi::duckdb_connection,
    name: &str,
    overloads: &[Overload],
) -> Result<(), String> {
    let cname = c_message(name);
    // SAFETY: every handle below is created here and destroyed before returning; DuckDB copies
    // what it registers.
    unsafe {
        let mut set = ffi::duckdb_create_scalar_function_set(cname.as_ptr());
        let mut ok = true;
        for o in overloads {
            let mut f = ffi::duckdb_create_scalar_function();
            ffi::duckdb_scalar_function_set_name(f, cname.as_ptr());
            let mut varchar = ffi::duckdb_create_logical_type(ffi::DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR);
            for _ in 0..o.args {
                ffi::duckdb_scalar_function_add_parameter(f, varchar);
            }
            ffi::duckdb_scalar_function_set_return_type(f, varchar);
            ffi::duckdb_destroy_logical_type(&mut varchar);
            ffi::duckdb_scalar_function_set_function(f, o.exec);
            ffi::duckdb_scalar_function_set_bind(f, o.bind);
            ok &= ffi::duckdb_add_scalar_function_to_set(set, f) == ffi::DuckDBSuccess;
            ffi::duckdb_destroy_scalar_function(&mut f);
        }
        ok &= ok && ffi::duckdb_register_scalar_function_set(con, set) == ffi::DuckDBSuccess;
        ffi::duckdb_destroy_scalar_function_set(&mut set);
        if ok {
            Ok(())
        } else {
            Err(format!("wurl: could not register {name}"))
        }
    }
}

/// The argument of a bind-time parameter (`rules`, `charset`) as text: `Ok(None)` for a NULL
/// constant (every row is then NULL), an error when it is not a constant.
///
/// # Safety
/// `info` is the bind info of the call being bound.
unsafe fn constant_arg(
    info: ffi::duckdb_bind_info,
    index: u64,
    what: &str,
) -> Result<Option<String>, String> {
    // SAFETY: `info` is live during bind; every handle made here is destroyed here.
    unsafe {
        let mut expr = ffi::duckdb_scalar_function_bind_get_argument(info, index);
        if expr.is_null() {
            return Err(format!("wurl: no {what} argument"));
        }
        let result = if !ffi::duckdb_expression_is_foldable(expr) {
            Err(format!(
                "wurl: {what} must be a constant (it is read once, when the query is bound)"
            ))
        } else {
            let mut ctx: ffi::duckdb_client_context = std::ptr::null_mut();
            ffi::duckdb_scalar_function_get_client_context(info, &mut ctx);
            let mut value: ffi::duckdb_value = std::ptr::null_mut();
            let mut err = ffi::duckdb_expression_fold(ctx, expr, &mut value);
            let r = if !err.is_null() && ffi::duckdb_error_data_has_error(err) {
                let msg = ffi::duckdb_error_data_message(err);
                let msg = if msg.is_null() {
                    String::new()
                } else {
                    CStr::from_ptr(msg).to_string_lossy().into_owned()
                };
                Err(format!("wurl: the {what} argument: {msg}"))
            } else if value.is_null() || ffi::duckdb_is_null_value(value) {
                Ok(None)
            } else {
                let s = ffi::duckdb_get_varchar(value);
                if s.is_null() {
                    Ok(None)
                } else {
                    let text = CStr::from_ptr(s).to_string_lossy().into_owned();
                    ffi::duckdb_free(s as *mut c_void);
                    Ok(Some(text))
                }
            };
            if !err.is_null() {
                ffi::duckdb_destroy_error_data(&mut err);
            }
            if !value.is_null() {
                ffi::duckdb_destroy_value(&mut value);
            }
            if !ctx.is_null() {
                ffi::duckdb_destroy_client_context(&mut ctx);
            }
            r
        };
        ffi::duckdb_destroy_expression(&mut expr);
        result
    }
}

/// The configuration of a call, from its constant arguments.
///
/// # Safety
/// `info` is the bind info of the call being bound.
unsafe fn configure(kind: Kind, info: ffi::duckdb_bind_info) -> Result<Config, String> {
    // SAFETY: `info` is live during bind.
    let args = unsafe { ffi::duckdb_scalar_function_bind_get_argument_count(info) };
    let mut cfg = Config::new(kind, args as usize);
    match kind {
        Kind::Canon if args == 3 => {
            // SAFETY: as above.
            match unsafe { constant_arg(info, 2, "charset") }? {
                None => cfg.all_null = true,
                Some(label) => {
                    if !wurl::charset::is_known_label(label.as_bytes()) {
                        let shown: String = label.chars().take(64).collect();
                        return Err(format!(
                            "wurl: unknown charset label {shown:?} (a WHATWG Encoding Standard label, e.g. 'utf-8', 'shift_jis', 'windows-1252')"
                        ));
                    }
                    let opts = CanonOptions {
                        charset: Some(&label),
                        network_strict: false,
                    };
                    cfg.opts = opts.resolve();
                }
            }
        }
        Kind::Key => {
            // SAFETY: as above.
            match unsafe { constant_arg(info, 1, "rules") }? {
                None => cfg.all_null = true,
                Some(spec) => {
                    let rules = Rules::parse(&spec).map_err(|e| format!("wurl: rules: {e}"))?;
                    cfg.rules = Some(rules);
                }
            }
        }
        _ => {}
    }
    Ok(cfg)
}

unsafe extern "C" fn destroy_config(data: *mut c_void) {
    if !data.is_null() {
        // SAFETY: `data` came from Box::into_raw of a Config (bind or copy_config).
        drop(unsafe { Box::from_raw(data as *mut Config) });
    }
}

unsafe extern "C" fn copy_config(data: *mut c_void) -> *mut c_void {
    let copy = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `data` is a live Config made by bind (DuckDB copies bind data it owns).
        let cfg = unsafe { &*(data as *const Config) };
        Box::into_raw(Box::new(cfg.clone())) as *mut c_void
    }));
    copy.unwrap_or(std::ptr::null_mut())
}

unsafe extern "C" fn bind<const K: u8>(info: ffi::duckdb_bind_info) {
    let kind = Kind::from_u8(K);
    // SAFETY: `info` is the live bind info DuckDB passes.
    let result = catch_unwind(AssertUnwindSafe(|| unsafe { configure(kind, info) }))
        .unwrap_or_else(|_| Err("wurl: internal error while binding".into()));
    // SAFETY: as above; DuckDB copies the error; the bind data is handed over with its
    // destructor and copier.
    unsafe {
        match result {
            Ok(cfg) => {
                let data = Box::into_raw(Box::new(cfg)) as *mut c_void;
                ffi::duckdb_scalar_function_set_bind_data(info, data, Some(destroy_config));
                ffi::duckdb_scalar_function_set_bind_data_copy(info, Some(copy_config));
            }
            Err(msg) => {
                let msg = c_message(&msg);
                ffi::duckdb_scalar_function_bind_set_error(info, msg.as_ptr());
            }
        }
    }
}

/// One input column of a chunk: DuckDB's flat string vector and its validity mask.
struct Column {
    data: *const ffi::duckdb_string_t,
    validity: *const u64,
}

impl Column {
    /// Row `i` as bytes, or `None` when it is NULL.
    ///
    /// # Safety
    /// `i` is below the chunk's size, and the chunk outlives the returned slice.
    unsafe fn get<'a>(&self, i: usize) -> Option<&'a [u8]> {
        // SAFETY: the validity mask, when present, has a bit per row of the chunk.
        if !self.validity.is_null() && unsafe { *self.validity.add(i / 64) } >> (i % 64) & 1 == 0 {
            return None;
        }
        // SAFETY: a flat VARCHAR vector has a duckdb_string_t per row: its length (u32), then
        // up to 12 bytes inline, or a 4-byte prefix and a pointer to the bytes.
        unsafe {
            let s = self.data.add(i) as *const u8;
            let len = (s as *const u32).read_unaligned() as usize;
            let ptr = if len <= 12 {
                s.add(4)
            } else {
                (s.add(8) as *const *const u8).read_unaligned()
            };
            Some(std::slice::from_raw_parts(ptr, len))
        }
    }
}

unsafe extern "C" fn exec<const K: u8>(
    info: ffi::duckdb_function_info,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
) {
    // SAFETY: DuckDB passes the live function info, input chunk and output vector of this call.
    let run = AssertUnwindSafe(|| unsafe { exec_chunk(info, input, output) });
    let err = match catch_unwind(run) {
        Ok(Ok(())) => return,
        Ok(Err(msg)) => msg,
        Err(_) => "wurl: internal error".to_string(),
    };
    let msg = c_message(&err);
    // SAFETY: as above; DuckDB copies the message and fails the query.
    unsafe { ffi::duckdb_scalar_function_set_error(info, msg.as_ptr()) };
}

/// # Safety
/// As for [`exec`].
unsafe fn exec_chunk(
    info: ffi::duckdb_function_info,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
) -> Result<(), String> {
    // SAFETY: the bind data is the Config set by `bind` (or its copy), alive during the call.
    let cfg = unsafe { ffi::duckdb_scalar_function_get_bind_data(info) } as *const Config;
    // SAFETY: as above.
    let cfg = unsafe { cfg.as_ref() }.ok_or("wurl: the function was not bound")?;
    // SAFETY: `input` is the call's flattened chunk (DuckDB flattens C API inputs).
    let (rows, ncols) = unsafe {
        (
            ffi::duckdb_data_chunk_get_size(input) as usize,
            ffi::duckdb_data_chunk_get_column_count(input) as usize,
        )
    };
    let mut cols = Vec::with_capacity(ncols);
    for c in 0..ncols {
        // SAFETY: `c` is a column of the chunk.
        unsafe {
            let v = ffi::duckdb_data_chunk_get_vector(input, c as u64);
            cols.push(Column {
                data: ffi::duckdb_vector_get_data(v) as *const ffi::duckdb_string_t,
                validity: ffi::duckdb_vector_get_validity(v),
            });
        }
    }
    // SAFETY: `output` is the call's result vector, of `rows` rows.
    let out_validity = unsafe {
        ffi::duckdb_vector_ensure_validity_writable(output);
        ffi::duckdb_vector_get_validity(output)
    };
    let set_null = |i: usize| {
        // SAFETY: made writable above; `i` < rows.
        unsafe { ffi::duckdb_validity_set_row_invalid(out_validity, i as u64) }
    };
    if cfg.all_null {
        (0..rows).for_each(set_null);
        return Ok(());
    }
    let mut state = kernel::State::default();
    let mut args: [&[u8]; 3] = [b""; 3];
    'rows: for i in 0..rows {
        for (c, col) in cols.iter().enumerate().take(3) {
            // SAFETY: `i` < rows; the chunk lives through this call.
            match unsafe { col.get(i) } {
                Some(b) => args[c] = b,
                None => {
                    set_null(i);
                    continue 'rows;
                }
            }
        }
        match state.row(cfg, &args[..ncols.min(3)]) {
            Some(s) => {
                // SAFETY: DuckDB copies the bytes into the result vector's string heap.
                unsafe {
                    ffi::duckdb_vector_assign_string_element_len(
                        output,
                        i as u64,
                        s.as_ptr() as *const c_char,
                        s.len() as u64,
                    )
                }
            }
            None => set_null(i),
        }
    }
    Ok(())
}
