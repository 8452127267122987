//! Embeds the browser UI into the binary: the page (`web/` at the workspace root), the solved
//! books (`books/`, which the page's worker fetches, listed in `engine/books.json`), and the
//! page's engine, `mnk-wasm` built for WebAssembly (`engine/mnk.wasm`).
//!
//! Every file becomes an entry of a generated table with its bytes (through `include_bytes!`, so
//! the compiler tracks each one) and a content hash used as the HTTP ETag. Cargo re-runs this
//! script when anything inside `web/`, `books/` or the engine's crates changes, so a new page,
//! book or engine is picked up by the next build. The service worker (`web/sw.js`) is a
//! template: its `__MNK_RELEASE__` becomes a hash of every other file and `__MNK_ASSETS__` their
//! list, so a new release installs a new cache and the old one is dropped.
//!
//! The engine is built by a second cargo in `target/wasm` (its own lock, so no deadlock with the
//! cargo running this script), with the first of: rustup's `wasm32-unknown-unknown` target, or
//! Debian's `rustc-web`, `rust-web-src` and `lld` (std built from source). Without either the
//! page is served without it and thinks on the server, and the build says so;
//! `MNK_WASM=off` skips it on purpose (quicker builds while working on the server alone).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

/// The engine's crates: a change in any rebuilds the module.
const ENGINE_CRATES: [&str; 4] = ["mnk-core", "mnk-engine", "mnk-api", "mnk-wasm"];

fn main() {
    let manifest =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..");
    let web = root.join("web");
    let books = root.join("books");
    for watched in [&web, &books, &manifest.join("build.rs")] {
        println!("cargo:rerun-if-changed={}", watched.display());
    }
    println!("cargo:rerun-if-env-changed=MNK_WASM");

    let mut files = Vec::new();
    if web.is_dir() {
        collect(&web, &web, &mut files);
    }
    if books.is_dir() {
        let mut shelf = Vec::new();
        collect(&books, &books, &mut shelf);
        files.extend(
            shelf
                .into_iter()
                .map(|(route, path)| (format!("books/{route}"), path)),
        );
    }
    if let Some(module) = engine_module(&root) {
        files.push(("engine/mnk.wasm".to_string(), module));
    }
    files.sort();

    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    // The books the page's worker fetches and shelves, by their routes.
    let shelf: Vec<&str> = files
        .iter()
        .map(|(route, _)| route.as_str())
        .filter(|route| route.starts_with("books/"))
        .collect();
    let listing = out.join("books.json");
    fs::write(&listing, format!("{shelf:?}")).expect("cannot write the list of books");
    files.push(("engine/books.json".to_string(), listing));
    let mut entries = Vec::new();
    let mut release: u64 = 0xcbf2_9ce4_8422_2325;
    let mut template = None;
    for (route, path) in files {
        let bytes =
            fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        if route == "sw.js" {
            template = Some(String::from_utf8(bytes).expect("web/sw.js is UTF-8"));
            continue;
        }
        let hash = fnv1a(&bytes);
        release = fnv1a_more(release, &hash.to_le_bytes());
        let absolute = path.canonicalize().unwrap_or(path);
        entries.push((route, absolute, hash));
    }
    if let Some(template) = template {
        let routes: Vec<&str> = entries.iter().map(|(route, _, _)| route.as_str()).collect();
        let worker = template
            .replace("__MNK_RELEASE__", &format!("{release:016x}"))
            .replace("__MNK_ASSETS__", &format!("{routes:?}"));
        let generated = out.join("sw.js");
        fs::write(&generated, &worker).expect("cannot write the service worker");
        entries.push(("sw.js".to_string(), generated, fnv1a(worker.as_bytes())));
    }
    entries.sort();
    let mut table = String::from("&[\n");
    for (route, path, hash) in &entries {
        writeln!(
            table,
            "    Asset {{ path: {route:?}, bytes: include_bytes!({:?}), hash: \"{hash:016x}\" }},",
            path.display().to_string(),
        )
        .expect("writing to a String");
    }
    table.push(']');
    fs::write(out.join("assets.rs"), table).expect("cannot write the asset table");
}

/// Builds the page's engine and answers where the module is; `None` (with a warning) when no
/// WebAssembly toolchain is installed or `MNK_WASM=off`.
fn engine_module(root: &Path) -> Option<PathBuf> {
    if env::var("MNK_WASM").is_ok_and(|v| v == "off") {
        println!("cargo:warning=MNK_WASM=off: the page's engine is not built; the page thinks on the server");
        return None;
    }
    let mut watched: Vec<PathBuf> = ENGINE_CRATES
        .iter()
        .flat_map(|name| {
            let dir = root.join("crates").join(name);
            [dir.join("src"), dir.join("Cargo.toml")]
        })
        .collect();
    watched.extend(["crates/mnk-engine/weights", "Cargo.lock", "Cargo.toml"].map(|p| root.join(p)));
    for path in watched {
        println!("cargo:rerun-if-changed={}", path.display());
    }

    let target_dir = root.join("target/wasm");
    let Some(mut cargo) = wasm_cargo() else {
        println!(
            "cargo:warning=no WebAssembly toolchain: the page's engine is not built and the page thinks on the server. Install one with `rustup target add wasm32-unknown-unknown`, or on Debian `apt-get install rustc-web rust-web-src lld` (README, Set-up)"
        );
        return None;
    };
    // The outer cargo's settings are not the inner one's: its flags, its target, its jobserver.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_MAKEFLAGS",
        "MAKEFLAGS",
        "MFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        cargo.env_remove(var);
    }
    // 128-bit SIMD (every browser since 2023) vectorises the network's sums: the module's bench
    // runs some 1.4 times as fast, a game's review in half the time (docs/benchmarks.md). A
    // browser without it cannot compile the module, and the page thinks on the server
    // (web/engine.js checks first).
    cargo.env("CARGO_ENCODED_RUSTFLAGS", "-Ctarget-feature=+simd128");
    cargo
        .current_dir(root)
        .args(["build", "--quiet", "-p", "mnk-wasm", "--profile", "wasm"])
        .args(["--target", "wasm32-unknown-unknown", "--target-dir"])
        .arg(&target_dir);
    let status = cargo
        .status()
        .unwrap_or_else(|e| panic!("cannot run cargo to build the page's engine: {e}"));
    assert!(
        status.success(),
        "building the page's engine (mnk-wasm for WebAssembly) failed: see above"
    );
    let module = target_dir.join("wasm32-unknown-unknown/wasm/mnk_wasm.wasm");
    assert!(
        module.is_file(),
        "the page's engine was built but {} is missing",
        module.display()
    );
    Some(module)
}

/// The cargo that builds for `wasm32-unknown-unknown`: this toolchain's when it has the target,
/// else Debian's `rustc-web` building std from source; `None` when neither is installed.
fn wasm_cargo() -> Option<Command> {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let has_target = Command::new(&rustc)
        .args([
            "--print",
            "target-libdir",
            "--target",
            "wasm32-unknown-unknown",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|dir| dir.join("libcore.rlib").exists() || has_rlib(&dir, "libcore-"));
    if has_target {
        return Some(Command::new(
            env::var("CARGO").unwrap_or_else(|_| "cargo".into()),
        ));
    }
    let debian_rustc = Path::new("/usr/bin/rustc");
    let std_source = Path::new("/usr/lib/rustlib/src/rust/library/std");
    let linker = ["/usr/bin/wasm-ld", "/usr/bin/wasm-ld-14"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.exists());
    let debian_cargo = Path::new("/usr/bin/cargo");
    match linker {
        Some(linker) if debian_rustc.exists() && std_source.is_dir() && debian_cargo.exists() => {
            let mut cargo = Command::new(debian_cargo);
            cargo
                .env("RUSTC", debian_rustc)
                .env("RUSTC_BOOTSTRAP", "1")
                .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER", linker)
                .arg("-Zbuild-std=std,panic_abort");
            Some(cargo)
        }
        _ => None,
    }
}

/// Whether `dir` holds an rlib whose name starts with `prefix` (rustup names them with a hash).
fn has_rlib(dir: &Path, prefix: &str) -> bool {
    fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with(prefix))
    })
}

/// Every regular file below `dir`, as (path relative to `root` with `/` separators, full path).
/// Hidden files and `node_modules` are left out.
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let entries =
        fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, files);
        } else if path.is_file() {
            let relative = path.strip_prefix(root).expect("below the root");
            let route = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            files.push((route, path));
        }
    }
}

/// 64-bit FNV-1a: a stable content fingerprint for ETags (not a security hash).
fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_more(0xcbf2_9ce4_8422_2325, bytes)
}

/// FNV-1a continued from `hash` over `bytes`.
fn fnv1a_more(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
