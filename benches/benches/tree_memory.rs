//! Memory held by the syntax tree of a 10 MB program, in bytes per source byte, for ours and
//! for `hcl-edit`'s AST. A counting global allocator measures what stays allocated after
//! parsing (the tree), not the transient peak.
//!
//! `cargo bench -p pcl-benches --bench tree_memory`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use pcl_test_utils::generate::{self, Shape};

struct Counting;

static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);

// SAFETY: delegates to the system allocator and only counts sizes.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes still allocated after `build` runs, while its result is alive.
fn retained<T>(build: impl FnOnce() -> T) -> (isize, T) {
    let before = LIVE_BYTES.load(Ordering::Relaxed);
    let value = build();
    (LIVE_BYTES.load(Ordering::Relaxed) - before, value)
}

#[allow(clippy::print_stdout)]
fn main() {
    println!(
        "{:<16} {:>12} {:>14} {:>14}",
        "input", "bytes", "pcl B/byte", "hcl-edit B/byte"
    );
    for shape in Shape::ALL {
        let text = generate::program(shape, 10_000_000, 42);
        let (ours, parse) = retained(|| pcl_syntax::parse(&text));
        let (theirs, body) = retained(|| hcl_edit::parser::parse_body(&text));
        let len = text.len() as f64;
        println!(
            "{:<16} {:>12} {:>14.1} {:>14.1}",
            format!("{}-10mb", shape.name()),
            text.len(),
            ours as f64 / len,
            theirs as f64 / len
        );
        drop((parse, body));
    }
}
