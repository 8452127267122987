//! The server's routes in process (`oneshot` on the router, or the engine behind it): one test
//! binary for these files, so the test build links the server once for all of them rather than
//! once a file. Each file is a module; its tests are named after it (`api::…`, `tree::…`).

mod common;

mod api;
mod books;
mod corpus;
mod fuzz_corpus;
mod import;
mod limits;
mod opening;
mod perfect_play;
mod renju;
mod review;
mod robustness;
mod static_files;
mod tree;
