//! A record of the queries salsa executes, for the tests of every crate that pin what an
//! operation computes and what an edit recomputes.

use std::sync::{Arc, Mutex, PoisonError};

/// The queries a database executed, in order, as `name(key)` strings. Clones share one
/// record: hand [`ExecutionLog::callback`] to `salsa::Storage::new` and keep the log.
#[derive(Clone, Debug, Default)]
pub struct ExecutionLog {
    executed: Arc<Mutex<Vec<String>>>,
}

/// What salsa's storage takes as its event callback.
pub type EventCallback = Box<dyn Fn(salsa::Event) + Send + Sync + 'static>;

impl ExecutionLog {
    /// The callback that records every `WillExecute` event into this log.
    pub fn callback(&self) -> EventCallback {
        let executed = Arc::clone(&self.executed);
        Box::new(move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                executed
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(format!("{database_key:?}"));
            }
        })
    }

    /// Everything executed since the last `take`, and forget it.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.executed.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// How many executions of the query called `query` are recorded.
    pub fn count(&self, query: &str) -> usize {
        self.executed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|key| {
                key.strip_prefix(query)
                    .is_some_and(|rest| rest.starts_with('('))
            })
            .count()
    }
}
