//! The binary's allocator: mimalloc, and the two calls the check makes into it.
//!
//! mimalloc (v2, transparent huge pages off): a cold check of 10 MB takes 0.87x the time
//! of glibc's allocator at the same peak memory (glibc: 12% of instructions in malloc/free).
//! v3 and huge pages were measured too: more memory (THP also made times vary by 30%).
//! Only the binary sets it; libraries, tests and fuzz targets keep the system allocator.
#![allow(unsafe_code)]

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// Linked in with the global allocator above.
unsafe extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    fn mi_collect(force: bool);
}

/// `mi_option_purge_delay` in the `mi_option_e` of the bundled mimalloc v2's `mimalloc.h`.
const PURGE_DELAY: std::ffi::c_int = 15;

/// mimalloc purges memory it has freed (gives it back to the system) 10 ms after the free
/// by default; a check frees large buffers as it goes (a large file's tokens and parser
/// events, per-file tables) and takes fresh pages meanwhile. 1 ms keeps the peak near what
/// is in use at the same speed (10k resources in one file: 83.8 -> 74.7 MB; 0 ms, purging
/// at every free, was 8% slower). Called first thing in `main`.
pub(crate) fn tune() {
    // SAFETY: sets one integer option, before any other thread exists (mimalloc's options
    // are not synchronised).
    unsafe { mi_option_set(PURGE_DELAY, 1) }
}

/// Give back what the allocator holds freed, now: called once the programs are parsed,
/// when the threads that parsed them have left their freed buffers behind (10k resources
/// in 100 files: 78.1 -> 76.2 MB at the peak).
pub(crate) fn release_freed_memory() {
    // SAFETY: `mi_collect` walks and purges the allocator's own free lists; callable at
    // any time from any thread.
    unsafe { mi_collect(true) }
}
