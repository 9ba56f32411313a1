//! `fetchSchemas` in the server: packages no source has are fetched with the `pulumi` CLI
//! on threads of their own (never on the thread that owns the host), only when a file is
//! saved and at most once per `NAME@VERSION` while the server runs, with `$/progress`
//! when the client shows it. When a fetch ends, the main loop reads the schemas again.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Message, Notification, Request, RequestId};
use pcl_ide::{FetchError, FetchRequest};

/// How long one `pulumi package get-schema` may run.
const TIME_LIMIT: Duration = Duration::from_secs(300);

/// A finished fetch.
pub(crate) struct Fetched {
    pub(crate) request: FetchRequest,
    pub(crate) result: Result<PathBuf, FetchError>,
}

pub(crate) struct SchemaFetcher {
    /// `NAME@VERSION`s fetched (or being fetched) since the server started.
    tried: HashSet<String>,
    done: Sender<Fetched>,
    /// Where the main loop hears of finished fetches.
    pub(crate) finished: Receiver<Fetched>,
    /// Whether the client shows `$/progress` (`window.workDoneProgress`).
    progress: bool,
    next_token: u64,
}

impl SchemaFetcher {
    pub(crate) fn new(progress: bool) -> SchemaFetcher {
        let (done, finished) = crossbeam_channel::unbounded();
        SchemaFetcher {
            tried: HashSet::new(),
            done,
            finished,
            progress,
            next_token: 0,
        }
    }

    /// Start fetching each request not tried yet, each on a thread of its own that tells
    /// the client through `client`. A progress token's `window/workDoneProgress/create` is
    /// sent here, before the thread starts, so it always reaches the client before the
    /// thread's first `$/progress`.
    pub(crate) fn start(
        &mut self,
        requests: Vec<(FetchRequest, PathBuf)>,
        client: &Sender<Message>,
    ) {
        for (request, cache) in requests {
            let spec = request.spec();
            if !self.tried.insert(spec.clone()) {
                continue;
            }
            let token = self.progress.then(|| {
                self.next_token += 1;
                format!("pcl-fetch-{}", self.next_token)
            });
            if let Some(token) = &token {
                let id = RequestId::from(token.clone());
                let params = serde_json::json!({ "token": token });
                let create = Request::new(id, "window/workDoneProgress/create".to_owned(), params);
                // A closed channel means the server is stopping: nothing to tell.
                let _ = client.send(Message::Request(create));
            }
            let (client, done) = (client.clone(), self.done.clone());
            let spawned = std::thread::Builder::new()
                .name("pcl-fetch".to_owned())
                .spawn(move || {
                    let progress = |value: serde_json::Value| {
                        if let Some(token) = &token {
                            let params = serde_json::json!({ "token": token, "value": value });
                            let _ = client.send(Message::Notification(Notification::new(
                                "$/progress".to_owned(),
                                params,
                            )));
                        }
                    };
                    progress(serde_json::json!({
                        "kind": "begin",
                        "title": format!("Fetching the schema of {}", request.spec()),
                        "message": request.command_line(),
                    }));
                    let result = pcl_ide::fetch_schema(&request, &cache, TIME_LIMIT);
                    let message = match &result {
                        Ok(path) => format!("written to {}", path.display()),
                        Err(error) => error.message(&request),
                    };
                    progress(serde_json::json!({ "kind": "end", "message": message }));
                    let _ = done.send(Fetched { request, result });
                });
            // Without a thread it is left to a later save.
            if spawned.is_err() {
                self.tried.remove(&spec);
            }
        }
    }
}

/// What to show the user about a fetch that failed (`window/showMessage`).
pub(crate) fn failure_message(fetched: &Fetched) -> Option<Message> {
    let error = fetched.result.as_ref().err()?;
    let kind = match error {
        FetchError::NoCli => lsp_types::MessageType::WARNING,
        _ => lsp_types::MessageType::ERROR,
    };
    let params = lsp_types::ShowMessageParams {
        typ: kind,
        message: error.message(&fetched.request),
    };
    Some(Message::Notification(Notification::new(
        "window/showMessage".to_owned(),
        params,
    )))
}
