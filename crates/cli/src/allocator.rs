//! The binary's allocator: mimalloc, and the call the check makes into it.
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
    fn mi_collect(force: bool);
}

// mimalloc purges memory it has freed (gives it back to the system) 10 ms after the free
// by default, and that default stands. 1 ms, set here before, kept the peak lower while a
// check freed large buffers as it went (10k resources in one file: 83.8 -> 74.7 MB then);
// since the tree is built item by item it saves 1% of the peak and costs 2.5% of the time
// (31k resources in one file, one core: 0.549 -> 0.536 s with 10 ms, 198.5 -> 200.5 MB).
// Transparent huge pages stay off: on these machines touching 256 MB of fresh memory took
// 0.64 s in 2 MB pages and 0.10 s in 4 KB pages.

/// Give back what the allocator holds freed, now: called once the programs are parsed,
/// when the threads that parsed them have left their freed buffers behind (10k resources
/// in 100 files: 78.1 -> 76.2 MB at the peak).
pub(crate) fn release_freed_memory() {
    // SAFETY: `mi_collect` walks and purges the allocator's own free lists; callable at
    // any time from any thread.
    unsafe { mi_collect(true) }
}
