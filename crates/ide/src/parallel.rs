//! Checking on several threads (`pcl check --jobs N`): each worker gets its own database
//! handle and the stack the checking thread has, and only fills memos; the driver then
//! reads them in its own order, so results and their order are those of one thread.

use crate::RootDatabase;

/// The stack reserved for every thread that checks (the CLI's main checking thread and
/// the workers alike): deep expressions are walked recursively, and reserving address
/// space costs nothing until it is used.
pub const CHECK_STACK_SIZE: usize = 1 << 30;

/// Run `work` on every item, spread over `jobs` threads (inline with one job). A panic in
/// a worker (a cancellation included) is raised again here once all have stopped.
pub(crate) fn for_each<T: Sync>(
    db: &RootDatabase,
    jobs: usize,
    items: &[T],
    work: impl Fn(&RootDatabase, &T) + Sync,
) {
    let workers = jobs.min(items.len());
    if workers <= 1 {
        items.iter().for_each(|item| work(db, item));
        return;
    }
    let work = &work;
    let panic = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(workers);
        for worker in 0..workers {
            let db = db.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("pcl-check-{worker}"))
                .stack_size(CHECK_STACK_SIZE)
                .spawn_scoped(scope, move || {
                    for item in items.iter().skip(worker).step_by(workers) {
                        work(&db, item);
                    }
                });
            // Without a thread, its share is simply left to the driver, which computes
            // whatever is not memoized yet.
            if let Ok(handle) = spawned {
                handles.push(handle);
            }
        }
        (handles.into_iter())
            .filter_map(|handle| handle.join().err())
            .next()
    });
    if let Some(payload) = panic {
        std::panic::resume_unwind(payload);
    }
}
