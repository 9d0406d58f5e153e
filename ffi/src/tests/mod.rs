//! Tests of the C ABI that call the exports from Rust (the C, C++ and C# programs of
//! `tests/c` and `tests/csharp` call them from their own languages). They live
//! inside the crate because the library is built only as `cdylib` and `staticlib`.
//! `unit/` holds each module's unit tests, included by that module.

mod abi_fuzz;
mod clients;
mod docs;
mod engine_types;
mod header;
