//! The binary's allocator: mimalloc, and the call the check makes into it.
//!
//! mimalloc (v2, transparent huge pages off): a cold check of 10 MB takes 0.87x the time
//! of glibc's allocator at the same peak memory (glibc: 12% of instructions in malloc/free).
//! v3 and huge pages were measured too: more memory (THP also made times vary by 30%).
//! Only the binary sets it; libraries, tests and fuzz targets keep the system allocator.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

#[global_allocator]
static GLOBAL: Mimalloc = Mimalloc;

// mimalloc's C interface, linked in through the `mimalloc` crate.
unsafe extern "C" {
    fn mi_malloc(size: usize) -> *mut c_void;
    fn mi_zalloc(size: usize) -> *mut c_void;
    fn mi_realloc(p: *mut c_void, newsize: usize) -> *mut c_void;
    fn mi_free(p: *mut c_void);
    fn mi_collect(force: bool);
}

/// Every block mimalloc hands out is aligned to 16 bytes, and one smaller than 16 bytes to
/// 8 (its word): a layout whose alignment is at most this and at most its size needs no more.
const MALLOC_ALIGN: usize = 16;

/// mimalloc, with its plain entry points where the alignment asks for nothing more than
/// every block has: `mimalloc::MiMalloc` calls the aligned ones for every allocation,
/// whose checks cost 1.1% of a cold check's instructions (callgrind, 10k resources).
struct Mimalloc;

/// Whether a plain allocation of `size` bytes is aligned enough for `layout`.
fn plainly_aligned(align: usize, size: usize) -> bool {
    align <= MALLOC_ALIGN && align <= size
}

// SAFETY: each method passes its request to mimalloc, whose blocks are valid for the size
// asked and aligned as `plainly_aligned` says, else aligned as asked by the aligned calls of
// `mimalloc::MiMalloc`; `dealloc` and `realloc` receive blocks that mimalloc handed out.
unsafe impl GlobalAlloc for Mimalloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plainly_aligned(layout.align(), layout.size()) {
            // SAFETY: see the impl.
            unsafe { mi_malloc(layout.size()).cast() }
        } else {
            // SAFETY: see the impl.
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plainly_aligned(layout.align(), layout.size()) {
            // SAFETY: see the impl.
            unsafe { mi_zalloc(layout.size()).cast() }
        } else {
            // SAFETY: see the impl.
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: see the impl.
        unsafe { mi_free(ptr.cast()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if plainly_aligned(layout.align(), new_size) {
            // SAFETY: see the impl.
            unsafe { mi_realloc(ptr.cast(), new_size).cast() }
        } else {
            // SAFETY: see the impl.
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
        }
    }
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
