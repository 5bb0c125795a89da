//! Build script: only gives the shared library (the cdylib) its SONAME,
//! `libwurl.so.<major>`, so that programs linked against `libwurl.so` record
//! a versioned dependency (`cmake --install` ships `libwurl.so` →
//! `libwurl.so.0` → `libwurl.so.0.1.0`).
//!
//! No version script is needed here: rustc already exports only the
//! `#[no_mangle] extern "C"` functions (`wurl_*`) from a cdylib. The linker
//! version script in `abi/wurl.map` is for people who link the static
//! library into their own shared object; `abi/wurl.symbols` is the checked
//! list of exported symbols.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let target_env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    // ELF platforms with a GNU-compatible linker only (not macOS, Windows).
    let elf = matches!(
        target_os.as_str(),
        "linux"
            | "android"
            | "freebsd"
            | "netbsd"
            | "openbsd"
            | "dragonfly"
            | "illumos"
            | "solaris"
    );
    if elf && target_env != "msvc" {
        let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".into());
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libwurl.so.{major}");
    }
}
