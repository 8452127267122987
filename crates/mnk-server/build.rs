//! Embeds the browser UI (`web/` at the workspace root) into the binary.
//!
//! Every file under `web/` becomes an entry of a generated table with its bytes (through
//! `include_bytes!`, so the compiler tracks each one) and a content hash used as the HTTP ETag.
//! Cargo re-runs this script when anything inside `web/` changes, files added or removed
//! included, so a new page or script is picked up by the next build.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    let manifest =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let web = manifest.join("../../web");
    println!("cargo:rerun-if-changed={}", web.display());
    println!("cargo:rerun-if-changed=build.rs");

    let mut files = Vec::new();
    if web.is_dir() {
        collect(&web, &web, &mut files);
    }
    files.sort();

    let mut table = String::from("&[\n");
    for (route, path) in &files {
        let bytes =
            fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let absolute = path.canonicalize().unwrap_or_else(|_| path.clone());
        writeln!(
            table,
            "    Asset {{ path: {route:?}, bytes: include_bytes!({:?}), hash: \"{:016x}\" }},",
            absolute.display().to_string(),
            fnv1a(&bytes)
        )
        .expect("writing to a String");
    }
    table.push(']');

    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("assets.rs");
    fs::write(out, table).expect("cannot write the asset table");
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
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
