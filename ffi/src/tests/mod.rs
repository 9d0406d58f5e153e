//! Tests of the C ABI that call the exports from Rust (the C, C++ and C# programs of
//! `tests/c` and `tests/csharp` call them from their own languages). They live
//! inside the crate because the library is built only as `cdylib` and `staticlib`.
//! `unit/` holds each module's unit tests, included by that module.

// These call the per-set getters kept for one release over the state tables.
#[allow(deprecated)]
mod abi_fuzz;
#[allow(deprecated)]
mod clients;
#[allow(deprecated)]
mod deprecated_getters;
mod docs;
mod engine_types;
mod header;
