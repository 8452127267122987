//! The server over real sockets: analysis streams, rooms, refusals on the wire, the database
//! failing. One test binary for these files (each a module, its tests named after it), so the
//! test build links the server once for all of them. The tests that time the whole process or
//! read its global log (shutdown, slow clients and readers, log lines) are in `alone`, which runs
//! them one at a time, so no other test's load falls inside their measurements.

mod common;

mod analysis;
mod database_faults;
mod fairness;
mod http_errors;
mod rooms;
mod socket;
