//! A record of the queries salsa executes and the memos it verifies, for the tests of
//! every crate that pin what an operation computes and what an edit recomputes or walks.

use std::sync::{Arc, Mutex, PoisonError};

/// The queries a database executed, in order, as `name(key)` strings, and the memos it
/// verified without executing them. Clones share one record: hand
/// [`ExecutionLog::callback`] to `salsa::Storage::new` and keep the log.
#[derive(Clone, Debug, Default)]
pub struct ExecutionLog {
    executed: Arc<Mutex<Vec<String>>>,
    validated: Arc<Mutex<Vec<String>>>,
}

/// What salsa's storage takes as its event callback.
pub type EventCallback = Box<dyn Fn(salsa::Event) + Send + Sync + 'static>;

impl ExecutionLog {
    /// The callback that records every `WillExecute` event (an execution) and every
    /// `DidValidateMemoizedValue` event (a memo verified, in constant time through its
    /// durability or by walking what it read) into this log.
    pub fn callback(&self) -> EventCallback {
        let executed = Arc::clone(&self.executed);
        let validated = Arc::clone(&self.validated);
        Box::new(move |event: salsa::Event| {
            let (record, key) = match event.kind {
                salsa::EventKind::WillExecute { database_key } => (&executed, database_key),
                salsa::EventKind::DidValidateMemoizedValue { database_key } => {
                    (&validated, database_key)
                }
                _ => return,
            };
            lock(record).push(format!("{key:?}"));
        })
    }

    /// Everything executed since the last `take`, and forget it (and the verified memos).
    pub fn take(&self) -> Vec<String> {
        lock(&self.validated).clear();
        std::mem::take(&mut *lock(&self.executed))
    }

    /// How many executions of the query called `query` are recorded.
    pub fn count(&self, query: &str) -> usize {
        count_of(&lock(&self.executed), query)
    }

    /// How many memos of the query called `query` were verified without executing.
    pub fn validated(&self, query: &str) -> usize {
        count_of(&lock(&self.validated), query)
    }
}

fn lock(record: &Mutex<Vec<String>>) -> std::sync::MutexGuard<'_, Vec<String>> {
    record.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many of `keys` are of the query called `query`.
fn count_of(keys: &[String], query: &str) -> usize {
    (keys.iter())
        .filter(|key| {
            key.strip_prefix(query)
                .is_some_and(|rest| rest.starts_with('('))
        })
        .count()
}
