//! Checking on several threads (`pcl check --jobs N`): each worker gets its own database
//! handle and the stack the checking thread has, and only fills memos; the driver then
//! reads them in its own order, so results and their order are those of one thread.
//! Workers take the next item when they are free (items differ in size), and
//! [`for_each_after`] starts an item as soon as the items it waits for are done.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

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
    let next = AtomicUsize::new(0);
    on_workers(db, jobs.min(items.len()), |db| {
        while let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
            work(db, item);
        }
    });
}

/// [`for_each`], keeping what `work` returns for each item, in the items' order.
pub(crate) fn map<T: Sync, R: Send>(
    db: &RootDatabase,
    jobs: usize,
    items: &[T],
    work: impl Fn(&RootDatabase, &T) -> R + Sync,
) -> Vec<R> {
    let slots: Vec<(&T, Mutex<Option<R>>)> =
        items.iter().map(|item| (item, Mutex::new(None))).collect();
    for_each(db, jobs, &slots, |db, (item, slot)| {
        let result = work(db, item);
        *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
    });
    // An item is left only when no worker thread could be started.
    (slots.into_iter())
        .map(|(item, slot)| {
            (slot.into_inner().unwrap_or_else(PoisonError::into_inner))
                .unwrap_or_else(|| work(db, item))
        })
        .collect()
}

/// Run `work` on every item, spread over `jobs` threads, each item once the items
/// `waits_for` names for it (by index, earlier in `items`) are done. Items come in an
/// order where that holds one after another, which is how one job runs them.
pub(crate) fn for_each_after<T: Sync>(
    db: &RootDatabase,
    jobs: usize,
    items: &[T],
    waits_for: &[Box<[u32]>],
    work: impl Fn(&RootDatabase, &T) + Sync,
) {
    let count = items.len();
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut waiting = vec![0usize; count];
    for (item, waits) in waits_for.iter().enumerate().take(count) {
        for &other in waits.iter() {
            if let Some(dependents) = dependents.get_mut(other as usize) {
                dependents.push(item);
                waiting[item] += 1;
            }
        }
    }
    let ready: VecDeque<usize> = (0..count).filter(|&i| waiting[i] == 0).collect();
    let state = Mutex::new(Schedule {
        ready,
        waiting,
        done: 0,
        stopped: false,
    });
    let changed = Condvar::new();
    on_workers(db, jobs.min(count), |db| {
        loop {
            let item = {
                let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
                loop {
                    if state.stopped || state.done == count {
                        return;
                    }
                    if let Some(item) = state.ready.pop_front() {
                        break item;
                    }
                    state = changed.wait(state).unwrap_or_else(PoisonError::into_inner);
                }
            };
            // A panicking item (a cancellation) stops the others rather than leaving
            // them waiting for it.
            let stop = StopOnPanic {
                state: &state,
                changed: &changed,
            };
            work(db, &items[item]);
            std::mem::forget(stop);
            let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
            state.done += 1;
            for &dependent in &dependents[item] {
                state.waiting[dependent] -= 1;
                if state.waiting[dependent] == 0 {
                    state.ready.push_back(dependent);
                }
            }
            changed.notify_all();
        }
    });
}

/// Run `lead` on this thread while `jobs - 1` workers run `follow` on the items in order,
/// each once `lead` has said (through the `ready` it is given: how many items are) that
/// the item is ready, until `lead` returns: work that may start early, started while
/// `lead` does what only one thread may. `follow` is given whether `lead` has returned,
/// to stop part way (what is left is done later). `lead`'s result is returned.
pub(crate) fn lead_and_follow<T: Sync, R>(
    db: &RootDatabase,
    jobs: usize,
    items: &[T],
    lead: impl FnOnce(&RootDatabase, &dyn Fn(usize)) -> R,
    follow: impl Fn(&RootDatabase, &T, &dyn Fn() -> bool) + Sync,
) -> R {
    if jobs <= 1 || items.is_empty() {
        return lead(db, &|_| ());
    }
    // How many items are ready, and whether `lead` has returned (set before the lock
    // is taken to wake the followers, so a follower that saw it unset is woken).
    let ready = Mutex::new(0usize);
    let done = AtomicBool::new(false);
    let changed = Condvar::new();
    let finished = || done.load(Ordering::Acquire);
    let next = AtomicUsize::new(0);
    let follower = |db: &RootDatabase| {
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(index) else {
                return;
            };
            let mut count = ready.lock().unwrap_or_else(PoisonError::into_inner);
            while *count <= index && !finished() {
                count = changed.wait(count).unwrap_or_else(PoisonError::into_inner);
            }
            drop(count);
            if finished() {
                return;
            }
            follow(db, item, &finished);
        }
    };
    let finish = || {
        done.store(true, Ordering::Release);
        drop(ready.lock().unwrap_or_else(PoisonError::into_inner));
        changed.notify_all();
    };
    let (result, panic) = std::thread::scope(|scope| {
        let followers: Vec<_> = (1..jobs.min(items.len() + 1))
            .filter_map(|worker| spawn_worker(scope, db, worker, &follower))
            .collect();
        // The followers stop once `lead` returns or unwinds.
        let stop = FinishOnDrop(&finish);
        let result = lead(db, &|count| {
            *ready.lock().unwrap_or_else(PoisonError::into_inner) = count;
            changed.notify_all();
        });
        drop(stop);
        (result, first_panic(followers))
    });
    if let Some(payload) = panic {
        std::panic::resume_unwind(payload);
    }
    result
}

/// Runs its function when dropped, also while unwinding.
struct FinishOnDrop<'a>(&'a dyn Fn());

impl Drop for FinishOnDrop<'_> {
    fn drop(&mut self) {
        (self.0)();
    }
}

/// What [`for_each_after`]'s workers share.
struct Schedule {
    ready: VecDeque<usize>,
    /// For each item, how many of the items it waits for are not done.
    waiting: Vec<usize>,
    done: usize,
    stopped: bool,
}

/// Dropped only when an item's work unwinds: stops the schedule.
struct StopOnPanic<'a> {
    state: &'a Mutex<Schedule>,
    changed: &'a Condvar,
}

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .stopped = true;
        self.changed.notify_all();
    }
}

/// Run `worker` on `workers` threads (inline for one), each with its own database handle
/// and the checking stack. A panic in a worker (a cancellation included) is raised again
/// here once all have stopped.
fn on_workers(db: &RootDatabase, workers: usize, worker: impl Fn(&RootDatabase) + Sync) {
    if workers <= 1 {
        worker(db);
        return;
    }
    let panic = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .filter_map(|index| spawn_worker(scope, db, index, &worker))
            .collect();
        first_panic(handles)
    });
    if let Some(payload) = panic {
        std::panic::resume_unwind(payload);
    }
}

/// A worker thread running `work` on a clone of `db`, with the checking thread's stack;
/// `None` when the system starts no thread (the others take its share, or the driver
/// computes what is not memoized yet).
fn spawn_worker<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    db: &RootDatabase,
    index: usize,
    work: &'scope (impl Fn(&RootDatabase) + Sync),
) -> Option<std::thread::ScopedJoinHandle<'scope, ()>> {
    let db = db.clone();
    std::thread::Builder::new()
        .name(format!("pcl-check-{index}"))
        .stack_size(CHECK_STACK_SIZE)
        .spawn_scoped(scope, move || work(&db))
        .ok()
}

/// Wait for every worker; the first panic among them, to raise again.
fn first_panic(
    handles: Vec<std::thread::ScopedJoinHandle<'_, ()>>,
) -> Option<Box<dyn std::any::Any + Send>> {
    (handles.into_iter())
        .filter_map(|handle| handle.join().err())
        .next()
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::{for_each, for_each_after, lead_and_follow, map};
    use crate::RootDatabase;

    /// Every item runs once, and only after the items it waits for, on one thread or
    /// several.
    #[test]
    fn items_run_once_after_what_they_wait_for() {
        let items: Vec<usize> = (0..40).collect();
        let waits: Vec<Box<[u32]>> = (0..40u32)
            .map(|i| match i {
                0..=2 => Box::from([]),
                _ => Box::from([i / 3, i - 1, i % 3]),
            })
            .collect();
        for jobs in [1, 2, 4] {
            let finished = Mutex::new(Vec::new());
            for_each_after(
                &RootDatabase::default(),
                jobs,
                &items,
                &waits,
                |_, &item| {
                    let mut finished = finished.lock().expect("no panic");
                    for &before in waits[item].iter() {
                        assert!(
                            finished.contains(&(before as usize)),
                            "{item} after {before}"
                        );
                    }
                    finished.push(item);
                },
            );
            let mut finished = finished.into_inner().expect("no panic");
            finished.sort_unstable();
            assert_eq!(finished, items, "{jobs} jobs");
        }
        let seen = Mutex::new(Vec::new());
        for_each(&RootDatabase::default(), 3, &items, |_, &item| {
            seen.lock().expect("no panic").push(item);
        });
        let mut seen = seen.into_inner().expect("no panic");
        seen.sort_unstable();
        assert_eq!(seen, items);
    }

    /// `map` keeps each item's result in the items' order, on one thread or several.
    #[test]
    fn map_keeps_the_order_of_the_items() {
        let items: Vec<u64> = (0..100).collect();
        for jobs in [1, 2, 5] {
            let squares = map(&RootDatabase::default(), jobs, &items, |_, &item| {
                // Uneven work, so that threads finish out of order.
                std::thread::sleep(std::time::Duration::from_micros((item % 7) * 50));
                item * item
            });
            let expected: Vec<u64> = items.iter().map(|i| i * i).collect();
            assert_eq!(squares, expected, "{jobs} jobs");
        }
    }

    /// Followers take only the items the lead has made ready, each once, and stop when
    /// the lead returns, also those waiting for items it never made ready.
    #[test]
    fn followers_take_only_ready_items_and_stop_with_the_lead() {
        let items: Vec<usize> = (0..50).collect();
        for jobs in [1, 2, 4] {
            let made_ready = Mutex::new(0);
            let followed = Mutex::new(Vec::new());
            let result = lead_and_follow(
                &RootDatabase::default(),
                jobs,
                &items,
                |_, ready| {
                    for count in 1..=25 {
                        *made_ready.lock().expect("no panic") = count;
                        ready(count);
                        std::thread::sleep(std::time::Duration::from_micros(100));
                    }
                    "led"
                },
                |_, &item, _| {
                    assert!(
                        item < *made_ready.lock().expect("no panic"),
                        "{item} too early"
                    );
                    followed.lock().expect("no panic").push(item);
                },
            );
            assert_eq!(result, "led");
            let mut followed = followed.into_inner().expect("no panic");
            followed.sort_unstable();
            followed.dedup();
            assert!(followed.iter().all(|&item| item < 25), "{followed:?}");
            if jobs == 1 {
                assert!(followed.is_empty(), "one job has no followers");
            }
        }
    }

    /// A panicking item stops the schedule, and the panic reaches the caller.
    #[test]
    fn a_panic_stops_the_others_and_reaches_the_caller() {
        let items: Vec<usize> = (0..10).collect();
        let waits: Vec<Box<[u32]>> = (0..10u32)
            .map(|i| {
                if i == 0 {
                    Box::from([])
                } else {
                    Box::from([i - 1])
                }
            })
            .collect();
        let outcome = std::panic::catch_unwind(|| {
            for_each_after(&RootDatabase::default(), 2, &items, &waits, |_, &item| {
                assert_ne!(item, 3, "item 3 fails");
            });
        });
        assert!(outcome.is_err());
        // A lead that panics stops its followers (one waits for an item never ready).
        let outcome = std::panic::catch_unwind(|| {
            lead_and_follow(
                &RootDatabase::default(),
                3,
                &items,
                |_, ready| {
                    ready(1);
                    panic!("the lead fails");
                },
                |_, _, _| (),
            )
        });
        assert!(outcome.is_err());
        // A follower's panic reaches the caller once the lead is done.
        let failing = std::sync::atomic::AtomicBool::new(false);
        let outcome = std::panic::catch_unwind(|| {
            lead_and_follow(
                &RootDatabase::default(),
                2,
                &items,
                |_, ready| {
                    ready(items.len());
                    while !failing.load(std::sync::atomic::Ordering::Acquire) {
                        std::thread::yield_now();
                    }
                },
                |_, &item, _| {
                    if item == 3 {
                        failing.store(true, std::sync::atomic::Ordering::Release);
                        panic!("item 3 fails");
                    }
                },
            )
        });
        assert!(outcome.is_err());
    }
}
