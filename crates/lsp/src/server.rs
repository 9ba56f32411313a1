//! The message loop: the handshake, documents and their programs, and one handler per
//! method.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::DidChangeWatchedFiles;
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentHighlightRequest, DocumentSymbolRequest,
    FoldingRangeRequest, Formatting, GotoDefinition, HoverRequest, InlayHintRequest,
    PrepareRenameRequest, RangeFormatting, References, Rename, Request as _, SelectionRangeRequest,
    SemanticTokensFullRequest, SignatureHelpRequest, WorkspaceSymbolRequest,
};
use lsp_types::{
    DocumentSymbol, DocumentSymbolResponse, GotoDefinitionResponse, Hover, HoverContents,
    HoverProviderCapability, InitializeParams, Location, MarkupContent, MarkupKind, OneOf,
    PositionEncodingKind, PublishDiagnosticsParams, ServerCapabilities, SymbolKind,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions, Url,
};
use pcl_diagnostics::{TextLines, TextSize};
use pcl_ide::{AnalysisHost, ChangedRange, DeclKind, Leniency, ProgramId};
use serde::Deserialize;
use smol_str::SmolStr;

use crate::convert::{Encoding, LineIndex, diagnostic};
use crate::fetching::{Fetched, SchemaFetcher, failure_message};

/// `initializationOptions` (and the `pcl` configuration section).
#[derive(Deserialize, Default, Clone, PartialEq)]
#[serde(rename_all = "camelCase", default)]
struct Options {
    /// A list of directories, or one written as a string.
    #[serde(deserialize_with = "one_or_many")]
    schema_path: Vec<PathBuf>,
    skip_resource_typecheck: bool,
    skip_invoke_typecheck: bool,
    skip_range_typecheck: bool,
    allow_missing_variables: bool,
    allow_missing_properties: bool,
    lenient: bool,
    /// Fetch missing schemas with the `pulumi` CLI when a file is saved.
    fetch_schemas: bool,
}

/// `"schemaPath": "/dir"` as `["/dir"]`.
fn one_or_many<'de, D: serde::Deserializer<'de>>(from: D) -> Result<Vec<PathBuf>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(PathBuf),
        Many(Vec<PathBuf>),
    }
    let dirs = match OneOrMany::deserialize(from)? {
        OneOrMany::One(dir) => vec![dir],
        OneOrMany::Many(dirs) => dirs,
    };
    let given = dirs.into_iter().filter(|dir| !dir.as_os_str().is_empty());
    Ok(given.map(expand_home).collect())
}

/// `~/schemas` as the home directory's `schemas` (editors pass settings unexpanded).
fn expand_home(dir: PathBuf) -> PathBuf {
    match (dir.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => dir,
    }
}

/// A warning about `schemaPath` entries that are no directories (a missing one is
/// skipped, and schemas are looked for in the usual places), once for each (`warned`).
fn schema_path_warning(dirs: &[PathBuf], warned: &mut Vec<PathBuf>) -> Option<Message> {
    let new: Vec<&PathBuf> = (dirs.iter())
        .filter(|dir| !dir.is_dir() && !warned.contains(dir))
        .collect();
    warned.extend(new.iter().map(|dir| (*dir).clone()));
    let missing: Vec<String> = (new.iter())
        .map(|dir| format!("`{}`", dir.display()))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let params = lsp_types::ShowMessageParams {
        typ: lsp_types::MessageType::WARNING,
        message: format!(
            "pcl: schemaPath {} is no directory; schemas are still looked for in PCL_SCHEMA_PATH, ~/.pulumi/schemas and ~/.cache/pcl/schemas",
            missing.join(", ")
        ),
    };
    Some(Message::Notification(Notification::new(
        "window/showMessage".to_owned(),
        params,
    )))
}

/// Settings that cannot be read (a field of the wrong shape): kept as they were, and the
/// user told why.
fn settings_not_applied(error: &serde_json::Error) -> Message {
    let params = lsp_types::ShowMessageParams {
        typ: lsp_types::MessageType::WARNING,
        message: format!("pcl: the settings were not applied: {error}"),
    };
    Message::Notification(Notification::new("window/showMessage".to_owned(), params))
}

impl Options {
    /// The leniencies the settings turn on: `lenient` turns on all of them, and a `false`
    /// never turns one off.
    fn leniency(&self) -> Leniency {
        let chosen = Leniency {
            skip_resource_typecheck: self.skip_resource_typecheck,
            skip_invoke_typecheck: self.skip_invoke_typecheck,
            skip_range_typecheck: self.skip_range_typecheck,
            allow_missing_variables: self.allow_missing_variables,
            allow_missing_properties: self.allow_missing_properties,
            beyond_go: false,
        };
        if self.lenient {
            chosen.union(Leniency::ALL)
        } else {
            chosen
        }
    }
}

/// An open document.
#[derive(Clone)]
struct Document {
    path: String,
    dir: String,
    text: String,
    /// Where `text`'s lines start, updated with each change.
    lines: TextLines,
    version: i32,
    /// A Pulumi project or stack file (`Pulumi*.yaml`, `.yml`, `.json`), not a program file.
    project_file: bool,
}

impl Document {
    fn index(&self) -> LineIndex<'_> {
        LineIndex::with_lines(&self.text, &self.lines)
    }
}

struct Server {
    host: AnalysisHost,
    encoding: Encoding,
    /// Shared with the snapshots of requests in flight; copied on write.
    documents: Arc<BTreeMap<Url, Document>>,
    client: ClientSupport,
    /// Requests the server sent to the client whose answers matter, by id.
    pending: HashMap<RequestId, Outgoing>,
    next_request: u64,
    /// The workspace folders: every program below them is loaded, so workspace-wide
    /// features (symbols, references into unopened files) see them.
    folders: Vec<PathBuf>,
    /// `fetchSchemas`: on when set.
    fetch_schemas: bool,
    /// The settings in force (`initializationOptions`, then the `pcl` section).
    options: Options,
    fetcher: SchemaFetcher,
    /// Where the fetch threads tell the client about their progress.
    client_sender: crossbeam_channel::Sender<Message>,
    /// Each program file's diagnostics as last published, with the document's version
    /// (none for a file no editor shows): a list that did not change is not sent again
    /// (every change once sent every open document's, 60-80 ms a keystroke with 100 files
    /// open that each had a diagnostic of 130 related places).
    published: HashMap<Url, (Option<i32>, Vec<lsp_types::Diagnostic>)>,
    /// The files of each program directory whose diagnostics are published while no
    /// editor shows them (`Server::publish`), by path, with the URI they were published
    /// under.
    unopened: HashMap<String, BTreeMap<String, Url>>,
    /// The text and diagnostics of each of those files, by path, as last converted and
    /// published (while they do not change, they are not converted again: 100 files, each
    /// with an error of 300 related places, took 28 ms a keystroke).
    unopened_found: HashMap<String, (pcl_ide::FileText, Vec<pcl_diagnostics::Diagnostic>)>,
    /// The programs changed since the diagnostics of their files no editor shows were
    /// published.
    unopened_due: BTreeSet<String>,
    /// Since when the first of them is due (the main loop publishes [`UNOPENED_DELAY`]
    /// after).
    due_since: Option<Instant>,
    /// The URI the client last opened each path with (it may spell a path otherwise than
    /// `Url::from_file_path`: `a%40b` for `a@b`), to publish under when it is closed.
    client_uris: HashMap<String, Url>,
    /// The program files on disk when each program directory was last read
    /// ([`disk_state`]), for a client that does not watch files.
    on_disk: HashMap<String, Vec<(PathBuf, Option<std::time::SystemTime>, u64)>>,
    /// The project of each program directory published, as on disk ([`project_of`]),
    /// read again after a project file changes or a document opens.
    projects: HashMap<String, Option<Arc<ProjectOnDisk>>>,
    /// The `schemaPath` entries already warned about as no directory.
    warned_schema_paths: Vec<PathBuf>,
}

/// What the client said it can do, of what the server uses after the handshake.
#[derive(Clone, Copy, Default)]
struct ClientSupport {
    /// It answers `workspace/configuration`.
    configuration: bool,
    /// It accepts `client/registerCapability` for watched files.
    watch_registration: bool,
}

/// What a request the server sent to the client is for.
enum Outgoing {
    Configuration,
    Registration,
}

/// Which files of a program [`Server::publish`] publishes the diagnostics of. The files
/// no editor shows are published apart (`Scope::Program`), [`UNOPENED_DELAY`] after the
/// first change not yet published (requests do not put it off): a whole program's
/// diagnostics cost more than the open documents' (100 files, each with an error of 300
/// related places: 30 ms a keystroke, and 0.9 s more for the first open), and the delay
/// gathers a burst of keystrokes, opens or closes into one.
#[derive(Clone, Copy)]
enum Scope<'a> {
    /// One open document (opened as it is on disk: nothing else changed).
    Document(&'a Url),
    /// The open documents.
    OpenDocuments,
    /// Every file of the program: the open documents, and the others while one is open.
    Program,
}

/// The program files in `dir` with their times of change and sizes: what changes when a
/// file is made, removed or written.
fn disk_state(dir: &str) -> Vec<(PathBuf, Option<std::time::SystemTime>, u64)> {
    (pcl_ide::program_file_paths(Path::new(dir)).into_iter())
        .map(|path| {
            let metadata = std::fs::metadata(&path).ok();
            let modified = metadata.as_ref().and_then(|m| m.modified().ok());
            let len = metadata.map_or(0, |m| m.len());
            (path, modified, len)
        })
        .collect()
}

/// How long after a change the diagnostics of the files no editor shows are brought up
/// to date.
const UNOPENED_DELAY: std::time::Duration = std::time::Duration::from_millis(300);

/// At most this many program directories are loaded from the workspace folders.
const MAX_FOLDER_PROGRAMS: usize = 2000;

/// The stack of the threads that answer requests: expressions are walked recursively.
const WORKER_STACK: usize = 256 << 20;

/// Serve the protocol on stdin/stdout until `exit`.
pub fn run_stdio() -> anyhow::Result<()> {
    let (connection, reader, writer) = crate::transport::stdio();
    let served = serve(&connection);
    drop(connection);
    let _ = writer.join();
    // The reader ends at `exit` or at the end of input; after a failed handshake it may
    // still wait on stdin, so it is not joined then.
    if served.is_ok() {
        let _ = reader.join();
    }
    served
}

/// Serve the protocol on `connection` until `exit`: the stdio server, tests and the fuzz
/// target drive this.
pub fn serve(connection: &Connection) -> anyhow::Result<()> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let utf8 = (params.capabilities.general.as_ref())
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
    let options: Options = (params.initialization_options.clone())
        .and_then(|o| serde_json::from_value(o).ok())
        .unwrap_or_default();
    let workspace = params.capabilities.workspace.as_ref();
    let work_done_progress =
        (params.capabilities.window.as_ref()).and_then(|w| w.work_done_progress) == Some(true);
    let client = ClientSupport {
        configuration: workspace.and_then(|w| w.configuration) == Some(true),
        watch_registration: workspace
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            == Some(true),
    };
    #[allow(deprecated)]
    let folders: Vec<PathBuf> = match (&params.workspace_folders, &params.root_uri) {
        (Some(folders), _) => (folders.iter())
            .filter_map(|folder| folder.uri.to_file_path().ok())
            .collect(),
        (None, Some(root)) => root.to_file_path().into_iter().collect(),
        (None, None) => Vec::new(),
    };
    let capabilities = ServerCapabilities {
        position_encoding: Some(if utf8 {
            PositionEncodingKind::UTF8
        } else {
            PositionEncodingKind::UTF16
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(lsp_types::TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(lsp_types::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
        })),
        // `.` opens the attributes of what is before it; `"` the schema's tokens where a
        // token goes (a resource's type label, `invoke`'s first argument).
        completion_provider: Some(lsp_types::CompletionOptions {
            trigger_characters: Some(vec![".".to_owned(), "\"".to_owned()]),
            ..lsp_types::CompletionOptions::default()
        }),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(
            lsp_types::SemanticTokensServerCapabilities::SemanticTokensOptions(
                lsp_types::SemanticTokensOptions {
                    legend: lsp_types::SemanticTokensLegend {
                        token_types: pcl_ide::TokenClass::ALL
                            .iter()
                            .map(|c| token_type(*c))
                            .collect(),
                        token_modifiers: Vec::new(),
                    },
                    full: Some(lsp_types::SemanticTokensFullOptions::Bool(true)),
                    ..lsp_types::SemanticTokensOptions::default()
                },
            ),
        ),
        signature_help_provider: Some(lsp_types::SignatureHelpOptions {
            trigger_characters: Some(vec!["(".to_owned(), ",".to_owned()]),
            ..lsp_types::SignatureHelpOptions::default()
        }),
        inlay_hint_provider: Some(OneOf::Left(true)),
        selection_range_provider: Some(lsp_types::SelectionRangeProviderCapability::Simple(true)),
        workspace: Some(lsp_types::WorkspaceServerCapabilities {
            workspace_folders: Some(lsp_types::WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": { "name": "pcl", "version": env!("CARGO_PKG_VERSION") },
    });
    connection.initialize_finish(id, result)?;
    let mut server = Server {
        host: AnalysisHost::new(options.schema_path.clone(), options.leniency()),
        encoding: if utf8 {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        },
        documents: Arc::new(BTreeMap::new()),
        client,
        pending: HashMap::new(),
        next_request: 0,
        folders: Vec::new(),
        fetch_schemas: options.fetch_schemas,
        options: options.clone(),
        fetcher: SchemaFetcher::new(work_done_progress),
        client_sender: connection.sender.clone(),
        published: HashMap::new(),
        unopened: HashMap::new(),
        unopened_found: HashMap::new(),
        unopened_due: BTreeSet::new(),
        due_since: None,
        client_uris: HashMap::new(),
        on_disk: HashMap::new(),
        projects: HashMap::new(),
        warned_schema_paths: Vec::new(),
    };
    server.add_folders(folders);
    // `initialize_finish` has consumed the client's `initialized`: now the server may ask.
    let warning = schema_path_warning(&options.schema_path, &mut server.warned_schema_paths);
    for message in warning.into_iter().chain(server.after_handshake()) {
        connection.sender.send(message)?;
    }
    // Bumped by every change: a request whose revision is gone was answered from stale
    // content (`ContentModified`). Ids named by `$/cancelRequest` get `RequestCancelled`.
    let revision = Arc::new(AtomicU64::new(0));
    let cancelled: Arc<Mutex<HashSet<RequestId>>> = Arc::default();
    // After `shutdown`, requests are refused (InvalidRequest) until `exit`.
    let mut shut_down = false;
    // Requests still being answered: joined before the server returns, so nothing of it
    // outlives `serve`.
    let mut workers: Vec<std::thread::JoinHandle<()>> = Vec::new();
    let join_workers = |workers: &mut Vec<std::thread::JoinHandle<()>>| {
        for worker in workers.drain(..) {
            let _ = worker.join();
        }
    };
    let fetched = server.fetcher.finished.clone();
    loop {
        // With diagnostics of files no editor shows due, the loop wakes when the changes
        // pause to publish them (requests, which change nothing, do not put it off).
        let pause = match server.due_since {
            Some(since) if !shut_down => crossbeam_channel::after(
                (since + UNOPENED_DELAY).saturating_duration_since(Instant::now()),
            ),
            _ => crossbeam_channel::never(),
        };
        let message = crossbeam_channel::select! {
            recv(connection.receiver) -> message => match message {
                Ok(message) => message,
                Err(_) => break,
            },
            recv(pause) -> _ => {
                let publish = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    server.publish_unopened()
                }));
                for message in publish.unwrap_or_default() {
                    connection.sender.send(message)?;
                }
                continue;
            }
            recv(fetched) -> outcome => {
                if let Ok(outcome) = outcome {
                    let publish = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        server.schema_fetched(outcome)
                    }));
                    for message in publish.unwrap_or_default() {
                        connection.sender.send(message)?;
                    }
                }
                continue;
            }
        };
        match message {
            Message::Notification(notification) if notification.method == "exit" => {
                join_workers(&mut workers);
                return if shut_down {
                    Ok(())
                } else {
                    anyhow::bail!("the client sent `exit` without `shutdown`")
                };
            }
            Message::Request(request) if request.method == "shutdown" => {
                shut_down = true;
                connection
                    .sender
                    .send(Response::new_ok(request.id, serde_json::Value::Null).into())?;
            }
            Message::Request(request) if shut_down => {
                let refused = Response::new_err(
                    request.id,
                    ErrorCode::InvalidRequest as i32,
                    format!(
                        "`{}` after `shutdown`: the server only waits for `exit`",
                        request.method
                    ),
                );
                connection.sender.send(refused.into())?;
            }
            Message::Request(request) => {
                let snapshot = server.snapshot();
                let asked_at = revision.load(Ordering::SeqCst);
                let (revision, cancelled, sender) = (
                    Arc::clone(&revision),
                    Arc::clone(&cancelled),
                    connection.sender.clone(),
                );
                let worker =
                    std::thread::Builder::new()
                        .stack_size(WORKER_STACK)
                        .spawn(move || {
                            let id = request.id.clone();
                            let answered = std::panic::catch_unwind(AssertUnwindSafe(|| {
                                snapshot.request(request)
                            }));
                            drop(snapshot);
                            let was_cancelled = cancelled
                                .lock()
                                .unwrap_or_else(PoisonError::into_inner)
                                .remove(&id);
                            let response = match answered {
                                _ if was_cancelled => Response::new_err(
                                    id,
                                    ErrorCode::RequestCanceled as i32,
                                    "cancelled".to_owned(),
                                ),
                                Ok(_) if revision.load(Ordering::SeqCst) != asked_at => {
                                    Response::new_err(
                                        id,
                                        ErrorCode::ContentModified as i32,
                                        "the document changed while answering".to_owned(),
                                    )
                                }
                                Ok(response) => response,
                                Err(_) => Response::new_err(
                                    id,
                                    ErrorCode::InternalError as i32,
                                    "pcl: internal error while answering".to_owned(),
                                ),
                            };
                            let _ = sender.send(Message::Response(response));
                        });
                match worker {
                    Ok(worker) => {
                        workers.retain(|w| !w.is_finished());
                        workers.push(worker);
                    }
                    Err(err) => anyhow::bail!("cannot start a worker thread: {err}"),
                }
            }
            Message::Notification(notification) if notification.method == "$/cancelRequest" => {
                if let Ok(params) =
                    serde_json::from_value::<lsp_types::CancelParams>(notification.params)
                {
                    let id: RequestId = match params.id {
                        lsp_types::NumberOrString::Number(n) => n.into(),
                        lsp_types::NumberOrString::String(s) => s.into(),
                    };
                    cancelled
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .insert(id);
                }
            }
            Message::Notification(notification) => {
                revision.fetch_add(1, Ordering::SeqCst);
                let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    server.notification(notification)
                }));
                if let Ok(publish) = outcome {
                    for message in publish {
                        connection.sender.send(message)?;
                    }
                }
            }
            Message::Response(response) => {
                let outcome =
                    std::panic::catch_unwind(AssertUnwindSafe(|| server.response(response)));
                if let Ok(Some(publish)) = outcome {
                    revision.fetch_add(1, Ordering::SeqCst);
                    for message in publish {
                        connection.sender.send(message)?;
                    }
                }
            }
        }
    }
    join_workers(&mut workers);
    Ok(())
}

fn not_found(id: RequestId, method: &str) -> Response {
    Response::new_err(
        id,
        ErrorCode::MethodNotFound as i32,
        format!("pcl does not handle `{method}`"),
    )
}

fn invalid(id: RequestId, error: &serde_json::Error) -> Response {
    Response::new_err(
        id,
        ErrorCode::InvalidParams as i32,
        format!("invalid parameters: {error}"),
    )
}

impl Server {
    /// Apply a notification; the diagnostics to publish because of it.
    fn notification(&mut self, notification: Notification) -> Vec<Message> {
        let Notification { method, params } = notification;
        let changed_dir = match method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let document = params.text_document;
                let (path, dir) = path_and_dir(&document.uri);
                let text = document.text.clone();
                let project_file = is_project_file(&path);
                let uri = document.uri.clone();
                self.client_uris.insert(path.clone(), uri.clone());
                // Opening a file is when a client that does not watch files has the
                // projects on disk looked at again.
                self.projects.clear();
                Arc::make_mut(&mut self.documents).insert(
                    document.uri,
                    Document {
                        path: path.clone(),
                        dir: dir.clone(),
                        lines: TextLines::new(&document.text),
                        text: document.text,
                        version: document.version,
                        project_file,
                    },
                );
                if project_file {
                    return self.after_project_edit();
                }
                // A file of a loaded program opened as it is on disk (as when an editor
                // opens the files of a workspace one by one): the program need not be read
                // again, and no diagnostic changes but the new document's. Each open once
                // re-read the program and published every open document's diagnostics.
                // Only for a client that watches files for the server: for one that does
                // not, opening a file is when changes made on disk elsewhere are read.
                let as_loaded = self.client.watch_registration
                    && self.host.has_program(&dir)
                    && (self.host.analysis().file_text(&path)).is_some_and(|t| *t == *text);
                if !as_loaded {
                    self.load_enclosing_programs(&dir);
                    self.refresh_program(&dir);
                }
                // An open document is edited: kept apart from the files read from disk,
                // so its edits re-check only what depends on it (`set_file_text`).
                self.host.set_file_text(&path, text);
                if as_loaded {
                    return self.publish(&dir, Scope::Document(&uri));
                }
                dir
            }
            DidChangeTextDocument::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let encoding = self.encoding;
                let Some(document) =
                    Arc::make_mut(&mut self.documents).get_mut(&params.text_document.uri)
                else {
                    return Vec::new();
                };
                // Where the text changed, when one change says (the host then does not
                // compare the texts to find it).
                let mut changed = None;
                let single = params.content_changes.len() == 1;
                for change in params.content_changes {
                    match change.range {
                        Some(range) => {
                            let index = document.index();
                            let start = index.offset(range.start, encoding);
                            let end = index.offset(range.end, encoding).max(start);
                            document.text.replace_range(start..end, &change.text);
                            document.lines.replace(start, end, &change.text);
                            let size = |at: usize| u32::try_from(at).ok().map(TextSize::from);
                            changed = single
                                .then(|| {
                                    Some(ChangedRange {
                                        start: size(start)?,
                                        old_end: size(end)?,
                                        new_end: size(start + change.text.len())?,
                                    })
                                })
                                .flatten();
                        }
                        None => {
                            document.lines = TextLines::new(&change.text);
                            document.text = change.text;
                        }
                    }
                }
                document.version = params.text_document.version;
                if document.project_file {
                    return self.after_project_edit();
                }
                let (path, text, dir) = (
                    document.path.clone(),
                    document.text.clone(),
                    document.dir.clone(),
                );
                self.host.edit_file_text(&path, text, changed);
                // A package or a component directory named for the first time loads as it
                // is typed, not at the next save (a name found nowhere is not looked for
                // again until then).
                self.host.load_typed_packages(&dir);
                return self.after_change(&dir);
            }
            DidCloseTextDocument::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let Some(document) =
                    Arc::make_mut(&mut self.documents).remove(&params.text_document.uri)
                else {
                    return Vec::new();
                };
                // Its diagnostics are taken back, unless a file of its program is still
                // open: then they are published again as the file is on disk, below.
                let uri = params.text_document.uri;
                let mut messages = Vec::new();
                if !document.project_file && self.program_open(&document.dir) {
                    if let Some(published) = self.published.get_mut(&uri) {
                        published.0 = None;
                    }
                    (self.unopened.entry(document.dir.clone()).or_default())
                        .insert(document.path.clone(), uri);
                } else {
                    self.published.remove(&uri);
                    let clear = PublishDiagnosticsParams::new(uri, Vec::new(), None);
                    messages.push(Message::Notification(Notification::new(
                        PublishDiagnostics::METHOD.to_owned(),
                        clear,
                    )));
                }
                // A project or stack file closed: the programs see it as it is on disk (an
                // edit not saved is gone), and it is shown again as a file no editor shows.
                if document.project_file {
                    messages.extend(self.after_project_edit());
                    return messages;
                }
                // A document closed as it is on disk leaves the program as it is (when the
                // client watches files for the server, as for an open).
                let on_disk = (self.client.watch_registration)
                    .then(|| pcl_ide::read_source_file(Path::new(&document.path)).ok())
                    .flatten();
                if on_disk.is_none_or(|bytes| bytes != document.text.as_bytes()) {
                    self.refresh_program(&document.dir);
                    // Its programs' users too: a component closed with edits not saved
                    // is read from disk again, and what reads it sees the difference.
                    messages.extend(self.publish_with_users(&document.dir, Scope::OpenDocuments));
                } else {
                    messages.extend(self.publish(&document.dir, Scope::OpenDocuments));
                }
                return messages;
            }
            DidSaveTextDocument::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidSaveTextDocumentParams>(params)
                else {
                    return Vec::new();
                };
                let Some(document) = self.documents.get(&params.text_document.uri) else {
                    return Vec::new();
                };
                if document.project_file {
                    return self.after_project_edit();
                }
                let dir = document.dir.clone();
                self.refresh_program(&dir);
                if self.fetch_schemas {
                    let requests = self.host.fetch_requests();
                    self.fetcher.start(requests, &self.client_sender);
                    return self.publish(&dir, Scope::OpenDocuments);
                }
                dir
            }
            DidChangeWatchedFiles::METHOD => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidChangeWatchedFilesParams>(params)
                else {
                    return Vec::new();
                };
                // A schema file changed: read the loaded schemas again and look again for
                // the missing ones; every open program may see the difference.
                let schemas_changed =
                    (params.changes.iter()).any(|change| change.uri.path().ends_with(".json"));
                if schemas_changed {
                    self.host.refresh_schemas();
                }
                // Files added, changed or removed in a program directory: reload it.
                let mut dirs: Vec<String> = (params.changes.iter())
                    .filter(|change| change.uri.path().ends_with(".pp"))
                    .map(|change| path_and_dir(&change.uri).1)
                    .filter(|dir| {
                        self.documents.values().any(|d| &d.dir == dir)
                            || self
                                .folders
                                .iter()
                                .any(|folder| Path::new(dir).starts_with(folder))
                    })
                    .collect();
                let projects_changed =
                    (params.changes.iter()).any(|change| is_project_file(change.uri.path()));
                // A stack file's change shows in its program's files (a required config it
                // does not set).
                if schemas_changed || projects_changed {
                    dirs.extend(self.documents.values().map(|d| d.dir.clone()));
                }
                if projects_changed {
                    self.projects.clear();
                }
                let mut messages = self.recheck(dirs);
                if projects_changed || schemas_changed {
                    messages.extend(self.publish_project_files());
                }
                return messages;
            }
            "workspace/didChangeConfiguration" => {
                let settings =
                    serde_json::from_value::<lsp_types::DidChangeConfigurationParams>(params)
                        .map(|params| params.settings)
                        .unwrap_or_default();
                return match serde_json::from_value::<Options>(settings["pcl"].clone()) {
                    Ok(options) if settings["pcl"].is_object() => self.apply_options(options),
                    Err(error) if settings["pcl"].is_object() => vec![settings_not_applied(&error)],
                    _ if self.client.configuration => vec![self.configuration_request()],
                    _ => Vec::new(),
                };
            }
            "workspace/didChangeWorkspaceFolders" => {
                let Ok(params) =
                    serde_json::from_value::<lsp_types::DidChangeWorkspaceFoldersParams>(params)
                else {
                    return Vec::new();
                };
                let removed: Vec<PathBuf> = (params.event.removed.iter())
                    .filter_map(|folder| folder.uri.to_file_path().ok())
                    .collect();
                // Programs already loaded stay: they cost memory only, and an open file may
                // still belong to one.
                self.folders.retain(|folder| !removed.contains(folder));
                let added = (params.event.added.iter())
                    .filter_map(|folder| folder.uri.to_file_path().ok())
                    .collect();
                self.add_folders(added);
                return Vec::new();
            }
            _ => return Vec::new(),
        };
        self.after_change(&changed_dir)
    }

    /// The diagnostics after a change to the program in `dir`: its own open documents',
    /// its users', and the open stack files'.
    fn after_change(&mut self, dir: &str) -> Vec<Message> {
        let mut messages = self.publish_with_users(dir, Scope::OpenDocuments);
        // A stack's checks read the program's configs.
        if self.documents.values().any(|d| d.project_file) {
            messages.extend(self.publish_project_files());
        }
        messages
    }

    /// The diagnostics after a project or stack file was opened, edited or saved: the open
    /// project files', and the open programs' (a stack that does not set a required config
    /// has it reported at the config in the program).
    fn after_project_edit(&mut self) -> Vec<Message> {
        self.projects.clear();
        let dirs: BTreeSet<String> = (self.documents.values())
            .filter(|d| !d.project_file)
            .map(|d| d.dir.clone())
            .collect();
        let mut messages = Vec::new();
        for dir in dirs {
            messages.extend(self.publish(&dir, Scope::OpenDocuments));
        }
        // After the programs, whose projects are then read.
        messages.extend(self.publish_project_files());
        messages
    }

    /// The diagnostics of the files no editor shows, of the programs edited since they
    /// were last published (`Scope::OpenDocuments`): called when the typing pauses.
    fn publish_unopened(&mut self) -> Vec<Message> {
        self.due_since = None;
        let due: Vec<String> = std::mem::take(&mut self.unopened_due).into_iter().collect();
        let mut messages = Vec::new();
        for dir in due {
            // A client that does not watch files tells of no change on disk: files made,
            // removed or written since the program and its components were read are
            // looked for here.
            if !self.client.watch_registration {
                // Stack files made, renamed or removed (`pulumi config set`) are read too.
                self.projects.remove(&dir);
                let components = self.host.components_used_by(&dir);
                for read in components.iter().map(SmolStr::as_str).chain([dir.as_str()]) {
                    let now = disk_state(read);
                    match self.on_disk.get(read) {
                        Some(seen) if *seen != now => self.refresh_program(read),
                        Some(_) => {}
                        // A component first read since: what it read is the disk now.
                        None => {
                            self.on_disk.insert(read.to_owned(), now);
                        }
                    }
                }
            }
            messages.extend(self.publish(&dir, Scope::Program));
            // Its components' files, shown or taken back with it.
            for component in self.host.components_used_by(&dir) {
                if !self.program_open(&component) {
                    messages.extend(self.publish(&component, Scope::Program));
                }
            }
        }
        messages
    }

    /// After the handshake: ask to be told of changed `.pp` and schema files, and for the
    /// `pcl` configuration section, when the client can do either.
    fn after_handshake(&mut self) -> Vec<Message> {
        let mut messages = Vec::new();
        if self.client.watch_registration {
            let watchers: Vec<serde_json::Value> =
                ["**/*.pp", "**/*.json", "**/Pulumi*.{yaml,yml,json}"]
                    .iter()
                    .map(|glob| serde_json::json!({ "globPattern": glob }))
                    .collect();
            let params = serde_json::json!({ "registrations": [{
                "id": "pcl-watched-files",
                "method": DidChangeWatchedFiles::METHOD,
                "registerOptions": { "watchers": watchers },
            }]});
            messages.push(self.outgoing(
                Outgoing::Registration,
                "client/registerCapability",
                params,
            ));
        }
        if self.client.configuration {
            messages.push(self.configuration_request());
        }
        messages
    }

    fn configuration_request(&mut self) -> Message {
        let params = serde_json::json!({ "items": [{ "section": "pcl" }] });
        self.outgoing(Outgoing::Configuration, "workspace/configuration", params)
    }

    /// A request to the client, remembered so that its answer can be applied.
    fn outgoing(&mut self, purpose: Outgoing, method: &str, params: serde_json::Value) -> Message {
        self.next_request += 1;
        let id = RequestId::from(format!("pcl-{}", self.next_request));
        self.pending.insert(id.clone(), purpose);
        Message::Request(Request::new(id, method.to_owned(), params))
    }

    /// An answer of the client to one of the server's requests: `None` when it changes
    /// nothing (requests in flight still answer for the current content), else the
    /// messages to send because of it.
    fn response(&mut self, response: Response) -> Option<Vec<Message>> {
        match self.pending.remove(&response.id) {
            Some(Outgoing::Configuration) => {
                let section = (response.result)
                    .and_then(|result| result.get(0).cloned())
                    .unwrap_or_default();
                match serde_json::from_value::<Options>(section.clone()) {
                    // The settings in force already (editors answer at every start).
                    Ok(options) if options == self.options => None,
                    Ok(options) => Some(self.apply_options(options)),
                    // A malformed section: keep what we have, and say why.
                    Err(error) if section.is_object() => Some(vec![settings_not_applied(&error)]),
                    // `null`: no such section.
                    Err(_) => None,
                }
            }
            Some(Outgoing::Registration) | None => None,
        }
    }

    /// New settings: schema folders and strictness; every open program is checked again.
    fn apply_options(&mut self, options: Options) -> Vec<Message> {
        self.options = options.clone();
        let leniency = options.leniency();
        self.fetch_schemas = options.fetch_schemas;
        let warning = schema_path_warning(&options.schema_path, &mut self.warned_schema_paths);
        self.host.set_options(options.schema_path, leniency);
        let dirs = self.documents.values().map(|d| d.dir.clone()).collect();
        let mut messages: Vec<Message> = warning.into_iter().collect();
        messages.extend(self.recheck(dirs));
        messages
    }

    /// A fetch ended: on success the schemas are read again and every open program is
    /// checked again; a failure is shown to the user.
    fn schema_fetched(&mut self, fetched: Fetched) -> Vec<Message> {
        if let Some(message) = failure_message(&fetched) {
            return vec![message];
        }
        self.host.refresh_schemas();
        let dirs = self.documents.values().map(|d| d.dir.clone()).collect();
        self.recheck(dirs)
    }

    /// Read the program of each directory again (each once) and publish its diagnostics.
    fn recheck(&mut self, mut dirs: Vec<String>) -> Vec<Message> {
        dirs.sort();
        dirs.dedup();
        let mut messages = Vec::new();
        for dir in dirs {
            self.refresh_program(&dir);
            messages.extend(self.publish_with_users(&dir, Scope::OpenDocuments));
        }
        messages
    }

    /// Whether a file of the program in `dir` is open.
    fn program_open(&self, dir: &str) -> bool {
        (self.documents.values()).any(|d| d.dir == dir && !d.project_file)
    }

    /// Whether a program with an open file uses the program in `dir` as a component.
    fn used_by_open_program(&self, dir: &str) -> bool {
        let users = self.host.programs_using(dir);
        (self.documents.values()).any(|d| {
            !d.project_file
                && users
                    .iter()
                    .any(|user| user.0 == pcl_ide::normalise_dir(&d.dir))
        })
    }

    /// The URI to publish the diagnostics of the file at `path` under: the client's
    /// spelling when it opened the file, else the file's own.
    fn uri_of(&self, path: &str) -> Option<Url> {
        (self.client_uris.get(path).cloned()).or_else(|| Url::from_file_path(path).ok())
    }

    /// [`Server::publish`] for the program in `dir` and for the open programs that use it
    /// as a component (a component's change changes what they are checked against).
    fn publish_with_users(&mut self, dir: &str, scope: Scope<'_>) -> Vec<Message> {
        let mut messages = self.publish(dir, scope);
        // The programs of other directories with open documents, if any, are looked at.
        let mut open: Vec<String> = (self.documents.values())
            .filter(|d| !d.project_file && d.dir != dir)
            .map(|d| d.dir.clone())
            .collect();
        if open.is_empty() {
            return messages;
        }
        let users = self.host.programs_using(dir);
        open.retain(|d| users.iter().any(|user| user.0 == pcl_ide::normalise_dir(d)));
        open.sort();
        open.dedup();
        for user in open {
            messages.extend(self.publish(&user, scope));
        }
        messages
    }

    /// Load every program directory below `folders` (hidden directories skipped).
    fn add_folders(&mut self, folders: Vec<PathBuf>) {
        let mut loaded = 0;
        for folder in &folders {
            let mut pending = vec![folder.clone()];
            while let Some(dir) = pending.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                let mut has_program = false;
                for entry in entries.flatten() {
                    let path = entry.path();
                    let hidden = entry.file_name().to_string_lossy().starts_with('.');
                    match entry.file_type() {
                        Ok(kind) if kind.is_dir() && !hidden => pending.push(path),
                        Ok(kind) if kind.is_file() => {
                            has_program |= path.extension().is_some_and(|e| e == "pp");
                        }
                        _ => (),
                    }
                }
                if has_program && loaded < MAX_FOLDER_PROGRAMS {
                    self.set_program_from_disk(&dir.to_string_lossy());
                    loaded += 1;
                }
            }
        }
        self.host.load_dependencies();
        self.folders.extend(folders);
    }

    /// A document opened outside every workspace folder (an editor's single-file mode):
    /// the programs of the directories above its own, up to three, that name its directory
    /// in a `component` block (`component "net" "./net"`) are loaded too, so the
    /// component's callers are known to its references and renames. Below a folder, the
    /// folder's programs are all loaded already.
    fn load_enclosing_programs(&mut self, dir: &str) {
        let dir = Path::new(dir);
        if self.folders.iter().any(|folder| dir.starts_with(folder)) {
            return;
        }
        for ancestor in dir.ancestors().skip(1).take(3) {
            let name = ancestor.to_string_lossy();
            let Ok(below) = dir.strip_prefix(ancestor) else {
                continue;
            };
            if !self.host.has_program(&name) && names_component(ancestor, below) {
                self.set_program_from_disk(&name);
            }
        }
    }

    /// Set the program in `dir` from disk, with open documents over their files, and load
    /// what it needs.
    fn refresh_program(&mut self, dir: &str) {
        self.set_program_from_disk(dir);
        self.host.load_dependencies();
        // The components the host read from disk, as it read them.
        for component in self.host.components_used_by(dir) {
            (self.on_disk.entry(component.to_string())).or_insert_with(|| disk_state(&component));
        }
    }

    /// Set the program in `dir` from disk, with open documents over their files.
    fn set_program_from_disk(&mut self, dir: &str) {
        let mut files: BTreeMap<String, pcl_ide::SourceText> = BTreeMap::new();
        self.on_disk.insert(dir.to_owned(), disk_state(dir));
        for path in pcl_ide::program_file_paths(Path::new(dir)) {
            let bytes = pcl_ide::read_source_file(&path).unwrap_or_default();
            files.insert(
                path.display().to_string(),
                pcl_ide::SourceText::decode(bytes),
            );
        }
        for document in (self.documents.values()).filter(|d| d.dir == dir && !d.project_file) {
            files.insert(document.path.clone(), document.text.clone().into());
        }
        let files = files
            .into_iter()
            .map(|(p, t)| (SmolStr::new(p), t))
            .collect();
        self.host.set_program(dir, files);
    }

    /// The diagnostics of the program in `dir` that changed since they were last
    /// published, of the files `scope` says. While a file of the program is open, its other
    /// files' diagnostics are published too (`Scope::Program`), as they are on disk, so that
    /// an edit that breaks a file no editor shows is seen (as `pcl check` would report
    /// it); none of them once no file of it is open.
    fn publish(&mut self, dir: &str, scope: Scope<'_>) -> Vec<Message> {
        let project = (self.projects.entry(dir.to_owned()))
            .or_insert_with(|| project_of(Path::new(dir)).map(Arc::new))
            .clone();
        let analysis = self.host.analysis();
        let id = ProgramId(pcl_ide::normalise_dir(dir));
        let mut messages = Vec::new();
        let program_files = analysis.program_files(&id);
        let mut locations = Locations::new(&analysis, self.encoding);
        // Labels in the program's other files, by their place in its file list.
        let mut elsewhere = |file: pcl_diagnostics::FileId, range: pcl_diagnostics::TextRange| {
            locations.of(program_files.get(file.0 as usize)?, range)
        };
        // A project's diagnostics in its program's files, as `pcl check` reports them: the
        // files the program reads, looked for on disk (`PCL5011`), and the required
        // configs a stack does not set (`PCL5008`; the stack files as open, else on disk).
        // Only the files published are looked through (all, when the program's are).
        let published_paths: Option<Vec<&str>> = match scope {
            Scope::Program => None,
            Scope::Document(uri) => Some(
                self.documents
                    .get(uri)
                    .map(|d| d.path.as_str())
                    .into_iter()
                    .collect(),
            ),
            Scope::OpenDocuments => Some(
                (self.documents.values())
                    .filter(|d| d.dir == dir && !d.project_file)
                    .map(|d| d.path.as_str())
                    .collect(),
            ),
        };
        // And the project and stack files' own, as `pcl check` shows them: published when
        // the program's files are, for those no editor shows (each path, text and
        // diagnostics).
        let mut project_files_found: Vec<(String, String, Vec<pcl_diagnostics::Diagnostic>)> =
            Vec::new();
        let in_program = project.as_ref().map(|project| {
            let local_files: Vec<pcl_ide::LocalFileUse> = match &published_paths {
                None => analysis.program_local_files(&id, None).unwrap_or_default(),
                Some(paths) => (paths.iter())
                    .flat_map(|path| {
                        analysis
                            .program_local_files(&id, Some(path))
                            .unwrap_or_default()
                    })
                    .collect(),
            };
            let mut found =
                pcl_ide::check_local_files(&local_files, Path::new(dir), &project.dir, &|path| {
                    path.exists()
                });
            let documents = &*self.documents;
            let project_file = as_edited(documents, &project.file);
            let stacks: Vec<(&str, &str)> = (project.stacks.iter())
                .map(|file| as_edited(documents, file))
                .collect();
            let files = pcl_ide::ProjectFiles {
                project: project_file,
                stacks: &stacks,
            };
            let project_id = pcl_diagnostics::FileId(program_files.len() as u32);
            let ids = pcl_ide::ProjectFileIds {
                project: project_id,
                first_stack: pcl_diagnostics::FileId(project_id.0 + 1),
            };
            if let Ok(check) = analysis.project_check(&id, files, ids) {
                found.extend(check.in_program);
                let pcl_ide::ProjectCheck {
                    project_file: mut in_project,
                    project_values,
                    unset_declarations,
                    stacks: in_stacks,
                    ..
                } = check;
                in_project.extend(project_values);
                in_project.extend(unset_declarations);
                project_files_found.push((
                    project_file.0.to_owned(),
                    project_file.1.to_owned(),
                    in_project,
                ));
                for ((path, text), found) in stacks.iter().zip(in_stacks) {
                    project_files_found.push((path.to_string(), text.to_string(), found));
                }
            }
            found
        });
        let open_here = |d: &Document| d.dir == dir && !d.project_file;
        // Shown while a file of it is open, or of a program that uses it as a component
        // (`pcl check` of that program reports the component's mistakes too): asked only
        // when the files no editor shows are published, not at each keystroke.
        let shown = |server: &Server| server.program_open(dir) || server.used_by_open_program(dir);
        let only = match scope {
            Scope::Document(uri) => Some(uri),
            Scope::OpenDocuments | Scope::Program => None,
        };
        // The open documents' own (each checks what it reads, no more), or the whole
        // program's in one pass (each file's alone walks the program's diagnostics again:
        // 100 files took 12 ms).
        let mut found: HashMap<SmolStr, Vec<pcl_diagnostics::Diagnostic>> = match scope {
            Scope::Program if shown(self) => (analysis.program_diagnostics(&id))
                .unwrap_or_default()
                .into_iter()
                .map(|found| (found.path, found.diagnostics))
                .collect(),
            Scope::Program => HashMap::new(),
            Scope::Document(_) | Scope::OpenDocuments => (self.documents.iter())
                .filter(|(uri, d)| open_here(d) && only.is_none_or(|only| only == *uri))
                .filter_map(|(_, d)| analysis.file_diagnostics(&id, &d.path).ok().flatten())
                .map(|found| (found.path, found.diagnostics))
                .collect(),
        };
        for (file, path) in program_files.iter().enumerate() {
            let Some(diagnostics) = found.get_mut(path) else {
                continue;
            };
            // Each file's comments judged with the project's diagnostics, also when it has
            // none (a `# pcl-ignore` of a project code that silences nothing is reported).
            let Some(in_program) = &in_program else {
                continue;
            };
            let in_file: Vec<pcl_diagnostics::Diagnostic> = (in_program.iter())
                .filter(|d| d.span().is_some_and(|s| s.file.0 as usize == file))
                .cloned()
                .collect();
            let file = pcl_diagnostics::FileId(file as u32);
            diagnostics.extend(
                (analysis.apply_project_suppressions(&id, file, in_file)).unwrap_or_default(),
            );
        }
        let mut latest = Vec::new();
        for (uri, document) in (self.documents.iter())
            .filter(|(uri, d)| open_here(d) && only.is_none_or(|only| only == *uri))
        {
            let Some(found) = found.remove(document.path.as_str()) else {
                continue;
            };
            // Published as a file no editor shows under another spelling of its URI
            // (`a@b` for the client's `a%40b`): taken back first, so that what the client
            // takes for one file ends with the open document's.
            let shown = self.unopened.get_mut(dir);
            if let Some(other) = shown.and_then(|shown| shown.remove(document.path.as_str()))
                && other != *uri
            {
                latest.push((other, None, Vec::new()));
            }
            self.unopened_found.remove(document.path.as_str());
            let index = document.index();
            let diagnostics = (found.iter())
                .filter_map(|d| diagnostic(d, &index, self.encoding, uri, &mut elsewhere))
                .collect();
            latest.push((uri.clone(), Some(document.version), diagnostics));
        }
        // Due when the program has files no editor shows, or had, or when only a look at
        // the disk would tell of new ones (for a client that does not watch files).
        let open_count = self.documents.values().filter(|d| open_here(d)).count();
        if !matches!(scope, Scope::Program)
            && (program_files.len() > open_count
                || project.is_some()
                || !self.client.watch_registration
                || !self.host.components_used_by(dir).is_empty()
                || self
                    .unopened
                    .get(dir)
                    .is_some_and(|shown| !shown.is_empty()))
        {
            self.due_since.get_or_insert_with(Instant::now);
            self.unopened_due.insert(dir.to_owned());
        }
        if let Scope::Program = scope {
            // What is left is the files no editor shows, the project's too.
            let mut unopened: Vec<_> = (program_files.iter())
                .filter_map(|path| Some((path.to_string(), found.remove(path)?)))
                .filter_map(|(path, found)| {
                    let text = analysis.file_text(&path);
                    Some((self.uri_of(&path)?, path, found, text))
                })
                .collect();
            if shown(self) {
                for (path, text, found) in project_files_found {
                    if self.documents.values().any(|d| d.path == path) {
                        continue;
                    }
                    let text = Some(pcl_ide::FileText::Program(Arc::new(text)));
                    unopened.extend(self.uri_of(&path).map(|uri| (uri, path, found, text)));
                }
            }
            let mut shown = BTreeMap::new();
            for (uri, path, found, text) in unopened {
                shown.insert(path.to_string(), uri.clone());
                // As last converted (no line index built, no label placed again) while
                // the file's text is the same, unless a label is in another file, whose
                // text may have moved it.
                let within_file = (found.iter()).all(|d| {
                    (d.labels.iter()).all(|l| Some(l.span.file) == d.span().map(|s| s.file))
                });
                let cached = self.unopened_found.get(path.as_str());
                let same_text = |cached: &pcl_ide::FileText| text.as_deref() == Some(&**cached);
                if within_file
                    && cached.is_some_and(|(cached_text, cached)| {
                        *cached == found && same_text(cached_text)
                    })
                {
                    continue;
                }
                let diagnostics = match (found.is_empty(), &text) {
                    (true, _) | (false, None) => Vec::new(),
                    (false, Some(text)) => {
                        let lines = TextLines::new(text);
                        let index = LineIndex::with_lines(text, &lines);
                        (found.iter())
                            .filter_map(|d| {
                                diagnostic(d, &index, self.encoding, &uri, &mut elsewhere)
                            })
                            .collect()
                    }
                };
                match (within_file, text) {
                    (true, Some(text)) => {
                        (self.unopened_found).insert(path.to_string(), (text, found));
                    }
                    _ => {
                        self.unopened_found.remove(path.as_str());
                    }
                }
                latest.push((uri, None, diagnostics));
            }
            // Files published as not open that are open now, gone from the program, or
            // of a program no file of which is open: their diagnostics are taken back.
            let before = (self.unopened.insert(dir.to_owned(), shown.clone())).unwrap_or_default();
            for (path, uri) in before {
                if shown.get(&path) == Some(&uri) {
                    continue;
                }
                self.unopened_found.remove(&path);
                if !self.documents.contains_key(&uri) {
                    latest.push((uri, None, Vec::new()));
                }
            }
        }
        for (uri, version, diagnostics) in latest {
            let latest = (version, diagnostics);
            // A file no editor shows has none until some are published.
            let unchanged = match self.published.get(&uri) {
                Some(published) => *published == latest,
                None => latest.0.is_none() && latest.1.is_empty(),
            };
            if unchanged {
                continue;
            }
            let (version, diagnostics) = latest;
            let params = PublishDiagnosticsParams::new(uri, diagnostics, version);
            messages.push(Message::Notification(Notification::new(
                PublishDiagnostics::METHOD.to_owned(),
                &params,
            )));
            // Kept after it was written out, not copied for it.
            match version.is_none() && params.diagnostics.is_empty() {
                true => self.published.remove(&params.uri),
                false => (self.published).insert(params.uri, (version, params.diagnostics)),
            };
        }
        messages
    }

    /// Diagnostics of every open project and stack file: each stack's config checked
    /// against the program at its project's `main` (loaded first when needed).
    fn publish_project_files(&mut self) -> Vec<Message> {
        let open: Vec<(Url, Document)> = (self.documents.iter())
            .filter(|(_, d)| d.project_file)
            .map(|(u, d)| (u.clone(), d.clone()))
            .collect();
        let mut messages = Vec::new();
        for (uri, document) in open {
            let diagnostics = self.project_file_diagnostics(&document);
            let index = document.index();
            let diagnostics = (diagnostics.iter())
                .filter_map(|d| diagnostic(d, &index, self.encoding, &uri, &mut |_, _| None))
                .collect();
            let params = PublishDiagnosticsParams::new(uri, diagnostics, Some(document.version));
            messages.push(Message::Notification(Notification::new(
                PublishDiagnostics::METHOD.to_owned(),
                params,
            )));
        }
        messages
    }

    /// The diagnostics of one open project or stack file: its project file is in its
    /// directory (an open one, else the one on disk).
    fn project_file_diagnostics(
        &mut self,
        document: &Document,
    ) -> Vec<pcl_diagnostics::Diagnostic> {
        let text_of = |path: &Path| match open_text(&self.documents, &path.to_string_lossy()) {
            Some(open) => Some(open.to_owned()),
            None => read_project_file(path),
        };
        // The project file beside it, else one above whose `stackConfigDir` it is in.
        let dir = Path::new(&document.dir);
        let beside = (pcl_ide::PROJECT_FILE_NAMES.iter())
            .map(|name| dir.join(name))
            .find_map(|path| Some((text_of(&path)?, path)));
        let above = || {
            (dir.ancestors().skip(1).take(3))
                .flat_map(|ancestor| {
                    pcl_ide::PROJECT_FILE_NAMES
                        .iter()
                        .map(|name| ancestor.join(name))
                })
                .filter_map(|path| Some((text_of(&path)?, path)))
                .find(|(text, path)| {
                    let stacks = pcl_ide::stack_dir(path, text);
                    pcl_ide::normalise_dir(&stacks.to_string_lossy())
                        == pcl_ide::normalise_dir(&document.dir)
                })
        };
        // Or elsewhere (`stackConfigDir: ../shared`), as a program's project read it.
        let elsewhere = || {
            let project = (self.projects.values().flatten())
                .find(|p| p.stacks.iter().any(|(path, _)| *path == document.path))?;
            let path = PathBuf::from(&project.file.0);
            Some((text_of(&path)?, path))
        };
        let Some((project_text, project_path)) = beside.or_else(above).or_else(elsewhere) else {
            return Vec::new();
        };
        let project_dir = project_path.parent().unwrap_or(dir).to_path_buf();
        let project_path = project_path.display().to_string();
        let main = main_dir(&project_dir, &project_text);
        if !self.host.has_program(&main) {
            self.refresh_program(&main);
        }
        let program = ProgramId(pcl_ide::normalise_dir(&main));
        let on_disk = stack_files(Path::new(&project_path), &project_text);
        let stacks: Vec<(&str, &str)> = (on_disk.iter())
            .map(|file| as_edited(&self.documents, file))
            .collect();
        let files = pcl_ide::ProjectDocument {
            project: (&project_path, &project_text),
            document: (&document.path, &document.text),
            stacks: &stacks,
        };
        let mut diagnostics = (self.host.analysis())
            .project_document_diagnostics(files, &program)
            .unwrap_or_default();
        if document.path == project_path {
            diagnostics.extend(pcl_ide::program_dir_diagnostic(
                Path::new(&project_path),
                &document.text,
                Path::new(&main),
            ));
        }
        diagnostics
    }

    /// A snapshot for answering requests on another thread.
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            analysis: self.host.analysis(),
            documents: Arc::clone(&self.documents),
            encoding: self.encoding,
        }
    }
}

/// What a request is answered from: the analysis and the documents at one revision.
struct Snapshot {
    analysis: pcl_ide::Analysis,
    documents: Arc<BTreeMap<Url, Document>>,
    encoding: Encoding,
}

impl Snapshot {
    fn request(&self, request: Request) -> Response {
        let Request { id, method, params } = request;
        match method.as_str() {
            // A deliberate panic, so that tests can see one caught (debug builds only).
            #[cfg(debug_assertions)]
            "pcl/panic" => panic!("pcl/panic was requested"),
            HoverRequest::METHOD => {
                match serde_json::from_value::<lsp_types::HoverParams>(params) {
                    Ok(params) => {
                        Response::new_ok(id, self.hover(&params.text_document_position_params))
                    }
                    Err(error) => invalid(id, &error),
                }
            }
            GotoDefinition::METHOD => {
                match serde_json::from_value::<lsp_types::GotoDefinitionParams>(params) {
                    Ok(params) => {
                        Response::new_ok(id, self.definition(&params.text_document_position_params))
                    }
                    Err(error) => invalid(id, &error),
                }
            }
            DocumentSymbolRequest::METHOD => {
                match serde_json::from_value::<lsp_types::DocumentSymbolParams>(params) {
                    Ok(params) => Response::new_ok(id, self.symbols(&params.text_document.uri)),
                    Err(error) => invalid(id, &error),
                }
            }
            References::METHOD => {
                match serde_json::from_value::<lsp_types::ReferenceParams>(params) {
                    Ok(params) => {
                        let include = params.context.include_declaration;
                        let found = self.references(&params.text_document_position);
                        let locations: Vec<Location> = (found.into_iter())
                            .filter(|(_, declaration)| include || !declaration)
                            .map(|(location, _)| location)
                            .collect();
                        Response::new_ok(id, locations)
                    }
                    Err(error) => invalid(id, &error),
                }
            }
            DocumentHighlightRequest::METHOD => {
                match serde_json::from_value::<lsp_types::DocumentHighlightParams>(params) {
                    Ok(params) => {
                        let uri = params
                            .text_document_position_params
                            .text_document
                            .uri
                            .clone();
                        let highlights: Vec<lsp_types::DocumentHighlight> = (self
                            .references(&params.text_document_position_params)
                            .into_iter())
                        .filter(|(location, _)| location.uri == uri)
                        .map(|(location, declaration)| lsp_types::DocumentHighlight {
                            range: location.range,
                            kind: Some(if declaration {
                                lsp_types::DocumentHighlightKind::WRITE
                            } else {
                                lsp_types::DocumentHighlightKind::READ
                            }),
                        })
                        .collect();
                        Response::new_ok(id, highlights)
                    }
                    Err(error) => invalid(id, &error),
                }
            }
            PrepareRenameRequest::METHOD => {
                match serde_json::from_value::<lsp_types::TextDocumentPositionParams>(params) {
                    Ok(params) => {
                        // Renameable: a declaration's name or a reference to one, under the cursor.
                        let found = self.references(&params);
                        let here = found.iter().find(|(l, _)| {
                            l.uri == params.text_document.uri
                                && l.range.start <= params.position
                                && params.position <= l.range.end
                        });
                        // The name without the quotes a label has, for the client's input box.
                        let placeholder = |range: lsp_types::Range| {
                            let document = self.documents.get(&params.text_document.uri)?;
                            let index = document.index();
                            let start = index.offset(range.start, self.encoding);
                            let end = index.offset(range.end, self.encoding);
                            Some(document.text.get(start..end)?.trim_matches('"').to_owned())
                        };
                        Response::new_ok(
                            id,
                            here.map(|(l, _)| match placeholder(l.range) {
                                Some(placeholder) => {
                                    lsp_types::PrepareRenameResponse::RangeWithPlaceholder {
                                        range: l.range,
                                        placeholder,
                                    }
                                }
                                None => lsp_types::PrepareRenameResponse::Range(l.range),
                            }),
                        )
                    }
                    Err(error) => invalid(id, &error),
                }
            }
            Rename::METHOD => match serde_json::from_value::<lsp_types::RenameParams>(params) {
                Ok(params) => {
                    let name = params.new_name.clone();
                    if let Err(refused) = self.check_rename(&params.text_document_position, &name) {
                        return Response::new_err(id, ErrorCode::InvalidParams as i32, refused);
                    }
                    let mut changes: std::collections::HashMap<Url, Vec<lsp_types::TextEdit>> =
                        std::collections::HashMap::new();
                    let mut files = Locations::new(&self.analysis, self.encoding);
                    for (location, _) in self.references(&params.text_document_position) {
                        // A label keeps its quotes (`config "prefix"` to `config "pfx"`).
                        let new_text = match self.is_quoted(&location, &mut files) {
                            true => format!("\"{name}\""),
                            false => name.clone(),
                        };
                        changes
                            .entry(location.uri)
                            .or_default()
                            .push(lsp_types::TextEdit::new(location.range, new_text));
                    }
                    for (uri, edit) in self.stack_key_edits(&params.text_document_position, &name) {
                        changes.entry(uri).or_default().push(edit);
                    }
                    Response::new_ok(id, lsp_types::WorkspaceEdit::new(changes))
                }
                Err(error) => invalid(id, &error),
            },
            Completion::METHOD => {
                match serde_json::from_value::<lsp_types::CompletionParams>(params) {
                    Ok(params) => {
                        let trigger = (params.context.as_ref())
                            .and_then(|context| context.trigger_character.clone());
                        Response::new_ok(
                            id,
                            self.completion(&params.text_document_position, trigger.as_deref()),
                        )
                    }
                    Err(error) => invalid(id, &error),
                }
            }
            CodeActionRequest::METHOD => {
                match serde_json::from_value::<lsp_types::CodeActionParams>(params) {
                    Ok(params) => Response::new_ok(id, self.code_actions(&params)),
                    Err(error) => invalid(id, &error),
                }
            }
            Formatting::METHOD => {
                match serde_json::from_value::<lsp_types::DocumentFormattingParams>(params) {
                    Ok(params) => {
                        Response::new_ok(id, self.formatting(&params.text_document.uri, None))
                    }
                    Err(error) => invalid(id, &error),
                }
            }
            RangeFormatting::METHOD => {
                match serde_json::from_value::<lsp_types::DocumentRangeFormattingParams>(params) {
                    Ok(params) => Response::new_ok(
                        id,
                        self.formatting(&params.text_document.uri, Some(params.range)),
                    ),
                    Err(error) => invalid(id, &error),
                }
            }
            FoldingRangeRequest::METHOD => {
                match serde_json::from_value::<lsp_types::FoldingRangeParams>(params) {
                    Ok(params) => Response::new_ok(id, self.folding(&params.text_document.uri)),
                    Err(error) => invalid(id, &error),
                }
            }
            SignatureHelpRequest::METHOD => {
                match serde_json::from_value::<lsp_types::SignatureHelpParams>(params) {
                    Ok(params) => Response::new_ok(
                        id,
                        self.signature_help(&params.text_document_position_params),
                    ),
                    Err(error) => invalid(id, &error),
                }
            }
            SemanticTokensFullRequest::METHOD => match serde_json::from_value::<
                lsp_types::SemanticTokensParams,
            >(params)
            {
                Ok(params) => Response::new_ok(id, self.semantic_tokens(&params.text_document.uri)),
                Err(error) => invalid(id, &error),
            },
            WorkspaceSymbolRequest::METHOD => {
                match serde_json::from_value::<lsp_types::WorkspaceSymbolParams>(params) {
                    Ok(params) => Response::new_ok(id, self.workspace_symbols(&params.query)),
                    Err(error) => invalid(id, &error),
                }
            }
            InlayHintRequest::METHOD => {
                match serde_json::from_value::<lsp_types::InlayHintParams>(params) {
                    Ok(params) => Response::new_ok(id, self.inlay_hints(&params)),
                    Err(error) => invalid(id, &error),
                }
            }
            SelectionRangeRequest::METHOD => {
                match serde_json::from_value::<lsp_types::SelectionRangeParams>(params) {
                    Ok(params) => Response::new_ok(id, self.selection_ranges(&params)),
                    Err(error) => invalid(id, &error),
                }
            }
            _ => not_found(id, &method),
        }
    }

    fn signature_help(
        &self,
        at: &lsp_types::TextDocumentPositionParams,
    ) -> Option<lsp_types::SignatureHelp> {
        let document = self.documents.get(&at.text_document.uri)?;
        let offset = document.index().offset(at.position, self.encoding);
        let help = self
            .analysis
            .signature_help(&document.path, (offset as u32).into())
            .ok()??;
        let parameters = (help.parameters.into_iter())
            .map(|p| lsp_types::ParameterInformation {
                label: lsp_types::ParameterLabel::Simple(p),
                documentation: None,
            })
            .collect();
        Some(lsp_types::SignatureHelp {
            signatures: vec![lsp_types::SignatureInformation {
                label: help.label,
                documentation: None,
                parameters: Some(parameters),
                active_parameter: Some(help.active_parameter as u32),
            }],
            active_signature: Some(0),
            active_parameter: Some(help.active_parameter as u32),
        })
    }

    /// Tokens as the protocol encodes them: deltas of line and start, length, class. A
    /// token that spans lines (a heredoc chunk) is sent line by line.
    fn semantic_tokens(&self, uri: &Url) -> Option<lsp_types::SemanticTokens> {
        let document = self.documents.get(uri)?;
        let index = document.index();
        let tokens = self.analysis.highlight(&document.path).ok()?;
        let mut data = Vec::new();
        let (mut last_line, mut last_start) = (0u32, 0u32);
        for (range, class) in tokens {
            let class_index = pcl_ide::TokenClass::ALL
                .iter()
                .position(|c| *c == class)
                .unwrap_or(0) as u32;
            let mut start = usize::from(range.start());
            let end = usize::from(range.end());
            while start < end {
                let line_end = document.text[start..end]
                    .find('\n')
                    .map_or(end, |i| start + i);
                if line_end > start {
                    let from = index.position(start, self.encoding);
                    let to = index.position(line_end, self.encoding);
                    let delta_line = from.line - last_line;
                    let delta_start = if delta_line == 0 {
                        from.character - last_start
                    } else {
                        from.character
                    };
                    data.push(lsp_types::SemanticToken {
                        delta_line,
                        delta_start,
                        length: to.character - from.character,
                        token_type: class_index,
                        token_modifiers_bitset: 0,
                    });
                    last_line = from.line;
                    last_start = from.character;
                }
                start = line_end + 1;
            }
        }
        Some(lsp_types::SemanticTokens {
            result_id: None,
            data,
        })
    }

    fn workspace_symbols(&self, query: &str) -> Vec<lsp_types::SymbolInformation> {
        let found = self.analysis.workspace_symbols(query).unwrap_or_default();
        let mut locations = Locations::new(&self.analysis, self.encoding);
        #[allow(deprecated)]
        let symbols = found
            .into_iter()
            .filter_map(|(symbol, path)| {
                Some(lsp_types::SymbolInformation {
                    name: symbol.name.to_string(),
                    kind: symbol_kind(symbol.kind),
                    tags: None,
                    deprecated: None,
                    location: locations.of(&path, symbol.focus_range)?,
                    container_name: None,
                })
            })
            .collect();
        symbols
    }

    fn inlay_hints(&self, params: &lsp_types::InlayHintParams) -> Vec<lsp_types::InlayHint> {
        let Some(document) = self.documents.get(&params.text_document.uri) else {
            return Vec::new();
        };
        let index = document.index();
        let hints = self
            .analysis
            .inlay_hints(&document.path)
            .unwrap_or_default();
        hints
            .into_iter()
            .map(|hint| (index.position(hint.offset.into(), self.encoding), hint))
            .filter(|(position, _)| {
                params.range.start <= *position && *position <= params.range.end
            })
            .map(|(position, hint)| lsp_types::InlayHint {
                position,
                label: lsp_types::InlayHintLabel::String(hint.label),
                kind: Some(lsp_types::InlayHintKind::TYPE),
                text_edits: None,
                tooltip: None,
                padding_left: None,
                padding_right: None,
                data: None,
            })
            .collect()
    }

    fn selection_ranges(
        &self,
        params: &lsp_types::SelectionRangeParams,
    ) -> Vec<lsp_types::SelectionRange> {
        let Some(document) = self.documents.get(&params.text_document.uri) else {
            return Vec::new();
        };
        let index = document.index();
        let analysis = &self.analysis;
        params
            .positions
            .iter()
            .map(|&position| {
                let offset = index.offset(position, self.encoding);
                let ranges = analysis
                    .selection_ranges(&document.path, (offset as u32).into())
                    .unwrap_or_default();
                let mut selection: Option<lsp_types::SelectionRange> = None;
                for range in ranges.into_iter().rev() {
                    selection = Some(lsp_types::SelectionRange {
                        range: index.range(range, self.encoding),
                        parent: selection.map(Box::new),
                    });
                }
                selection.unwrap_or(lsp_types::SelectionRange {
                    range: lsp_types::Range::new(position, position),
                    parent: None,
                })
            })
            .collect()
    }

    /// Whether the text at `location` is in quotes (a label); `files` reads the files not
    /// open once a request.
    fn is_quoted(&self, location: &Location, files: &mut Locations<'_>) -> bool {
        let quoted = |index: &LineIndex<'_>, text: &str| {
            let start = index.offset(location.range.start, self.encoding);
            let end = index.offset(location.range.end, self.encoding);
            (text.get(start..end)).is_some_and(|found| found.len() >= 2 && found.starts_with('"'))
        };
        if let Some(document) = self.documents.get(&location.uri) {
            return quoted(&document.index(), &document.text);
        }
        let path = location.uri.to_file_path().ok();
        (path.and_then(|path| files.file(&path.to_string_lossy())))
            .is_some_and(|(_, text, lines)| quoted(&LineIndex::with_lines(text, lines), text))
    }

    /// Why what is at a position may not be renamed to `name`, if it may not.
    fn check_rename(
        &self,
        at: &lsp_types::TextDocumentPositionParams,
        name: &str,
    ) -> Result<(), String> {
        let Some(document) = self.documents.get(&at.text_document.uri) else {
            return Ok(());
        };
        let offset = document.index().offset(at.position, self.encoding);
        self.analysis
            .check_rename(&document.path, (offset as u32).into(), name)
            .unwrap_or(Ok(()))
    }

    /// The references to what is at a position, as locations, each marked whether it is
    /// the declaration.
    fn references(&self, at: &lsp_types::TextDocumentPositionParams) -> Vec<(Location, bool)> {
        let Some(document) = self.documents.get(&at.text_document.uri) else {
            return Vec::new();
        };
        let index = document.index();
        let offset = index.offset(at.position, self.encoding);
        let Ok(found) = (self.analysis).references(&document.path, (offset as u32).into()) else {
            return Vec::new();
        };
        let mut locations = Locations::new(&self.analysis, self.encoding);
        (found.into_iter())
            .filter_map(|r| Some((locations.of(&r.path, r.range)?, r.is_declaration)))
            .collect()
    }

    /// Renaming a config that stack files set by its name: the keys that set it in the
    /// stack files of the project whose program the document is in (open ones as edited).
    fn stack_key_edits(
        &self,
        at: &lsp_types::TextDocumentPositionParams,
        new_name: &str,
    ) -> Vec<(Url, lsp_types::TextEdit)> {
        let Some(document) = self.documents.get(&at.text_document.uri) else {
            return Vec::new();
        };
        let offset = document.index().offset(at.position, self.encoding);
        let Ok(Some(old)) =
            (self.analysis).renamed_config_key(&document.path, (offset as u32).into())
        else {
            return Vec::new();
        };
        let Some(project) = project_of(Path::new(&document.dir)) else {
            return Vec::new();
        };
        let project_text = open_text(&self.documents, &project.file.0).unwrap_or(&project.file.1);
        let Some(project_name) = pcl_ide::project_name(&project.file.0, project_text) else {
            return Vec::new();
        };
        let mut edits = Vec::new();
        for (path, text) in &project.stacks {
            let Ok(uri) = Url::from_file_path(path) else {
                continue;
            };
            let text = open_text(&self.documents, path).unwrap_or(text);
            let lines = TextLines::new(text);
            let index = LineIndex::with_lines(text, &lines);
            for range in pcl_ide::config_key_ranges(&project_name, path, text, &old) {
                let range = index.range(range, self.encoding);
                edits.push((
                    uri.clone(),
                    lsp_types::TextEdit::new(range, new_name.to_owned()),
                ));
            }
        }
        edits
    }

    /// Completions at a position. Typed `.` and `"` open completion everywhere, so after
    /// them only what they are for is answered: attributes after a `.`, schema tokens
    /// after a `"`; elsewhere nothing.
    fn completion(
        &self,
        at: &lsp_types::TextDocumentPositionParams,
        trigger: Option<&str>,
    ) -> Vec<lsp_types::CompletionItem> {
        let Some(document) = self.documents.get(&at.text_document.uri) else {
            return Vec::new();
        };
        let offset = document.index().offset(at.position, self.encoding);
        let found = self
            .analysis
            .completions(&document.path, (offset as u32).into())
            .unwrap_or_default();
        let wanted = |kind: pcl_ide::CompletionKind| match trigger {
            Some(".") => kind == pcl_ide::CompletionKind::Field,
            Some("\"") => matches!(
                kind,
                pcl_ide::CompletionKind::ResourceType
                    | pcl_ide::CompletionKind::FunctionToken
                    | pcl_ide::CompletionKind::ConfigType
                    | pcl_ide::CompletionKind::EnumValue
            ),
            _ => true,
        };
        let index = document.index();
        found
            .into_iter()
            .filter(|item| wanted(item.kind))
            .map(|item| lsp_types::CompletionItem {
                text_edit: item.replace.map(|range| {
                    lsp_types::CompletionTextEdit::Edit(lsp_types::TextEdit {
                        range: index.range(range, self.encoding),
                        new_text: item.label.clone(),
                    })
                }),
                kind: Some(match item.kind {
                    pcl_ide::CompletionKind::Declaration => lsp_types::CompletionItemKind::VARIABLE,
                    pcl_ide::CompletionKind::Builtin => lsp_types::CompletionItemKind::FUNCTION,
                    pcl_ide::CompletionKind::Keyword => lsp_types::CompletionItemKind::KEYWORD,
                    pcl_ide::CompletionKind::ConfigType => {
                        lsp_types::CompletionItemKind::TYPE_PARAMETER
                    }
                    pcl_ide::CompletionKind::Field => lsp_types::CompletionItemKind::PROPERTY,
                    pcl_ide::CompletionKind::EnumValue => {
                        lsp_types::CompletionItemKind::ENUM_MEMBER
                    }
                    pcl_ide::CompletionKind::ResourceType => lsp_types::CompletionItemKind::CLASS,
                    pcl_ide::CompletionKind::FunctionToken => {
                        lsp_types::CompletionItemKind::FUNCTION
                    }
                }),
                // Required inputs first, then the rest, each alphabetically.
                sort_text: Some(format!("{}{}", u8::from(!item.required), item.label)),
                label: item.label,
                detail: Some(item.detail),
                documentation: item.documentation.map(|markdown| {
                    lsp_types::Documentation::MarkupContent(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: markdown,
                    })
                }),
                ..lsp_types::CompletionItem::default()
            })
            .collect()
    }

    /// Quick fixes: the fixes of the diagnostics in the requested range.
    fn code_actions(
        &self,
        params: &lsp_types::CodeActionParams,
    ) -> Vec<lsp_types::CodeActionOrCommand> {
        let uri = &params.text_document.uri;
        let Some(document) = self.documents.get(uri) else {
            return Vec::new();
        };
        let index = document.index();
        let id = ProgramId(pcl_ide::normalise_dir(&document.dir));
        let Ok(Some(found)) = self.analysis.file_diagnostics(&id, &document.path) else {
            return Vec::new();
        };
        let files = self.analysis.program_files(&id);
        // Edits in the program's other files.
        let mut others = Locations::new(&self.analysis, self.encoding);
        let mut actions = Vec::new();
        for d in &found.diagnostics {
            let Some(span) = d.span() else { continue };
            let range = index.range(span.range, self.encoding);
            if range.end < params.range.start || params.range.end < range.start {
                continue;
            }
            for fix in &d.fixes {
                // Edits may be in other files of the program (a span's file is an index
                // into the program's files).
                let mut changes: HashMap<Url, Vec<lsp_types::TextEdit>> = HashMap::new();
                for edit in &fix.edits {
                    let location = if edit.span.file == span.file {
                        Location::new(uri.clone(), index.range(edit.span.range, self.encoding))
                    } else {
                        let Some(path) = files.get(edit.span.file.0 as usize) else {
                            continue;
                        };
                        let Some(location) = others.of(path, edit.span.range) else {
                            continue;
                        };
                        location
                    };
                    (changes.entry(location.uri).or_default()).push(lsp_types::TextEdit::new(
                        location.range,
                        edit.replacement.clone(),
                    ));
                }
                actions.push(lsp_types::CodeActionOrCommand::CodeAction(
                    lsp_types::CodeAction {
                        title: fix.message.clone(),
                        kind: Some(lsp_types::CodeActionKind::QUICKFIX),
                        edit: Some(lsp_types::WorkspaceEdit::new(changes)),
                        // Of two or more (seconds or minutes), none is preferred.
                        is_preferred: Some(d.fixes.len() == 1),
                        ..lsp_types::CodeAction::default()
                    },
                ));
            }
        }
        actions
    }

    /// The formatter's edits for the document (within `range` when given); `null` for a
    /// document with syntax errors, which is left as it is.
    fn formatting(
        &self,
        uri: &Url,
        range: Option<lsp_types::Range>,
    ) -> Option<Vec<lsp_types::TextEdit>> {
        let document = self.documents.get(uri)?;
        let index = document.index();
        let range = range.map(|range| {
            let start = index.offset(range.start, self.encoding);
            let end = index.offset(range.end, self.encoding).max(start);
            pcl_diagnostics::TextRange::new((start as u32).into(), (end as u32).into())
        });
        let edits = self
            .analysis
            .formatting_edits(&document.path, range)
            .ok()??;
        let edits = edits
            .into_iter()
            .map(|edit| {
                lsp_types::TextEdit::new(index.range(edit.range, self.encoding), edit.replacement)
            })
            .collect();
        Some(edits)
    }

    fn folding(&self, uri: &Url) -> Vec<lsp_types::FoldingRange> {
        let Some(document) = self.documents.get(uri) else {
            return Vec::new();
        };
        let index = document.index();
        let ranges = self
            .analysis
            .folding_ranges(&document.path)
            .unwrap_or_default();
        // By lines, as editors fold: two nodes on the same lines (an object as a block's
        // only content, `{` and `}` on the block's lines) are one range.
        let mut lines: Vec<(u32, u32)> = (ranges.into_iter())
            .map(|r| {
                let range = index.range(r, self.encoding);
                (range.start.line, range.end.line)
            })
            .filter(|(start, end)| start < end)
            .collect();
        lines.sort_unstable();
        lines.dedup();
        lines
            .into_iter()
            .map(|(start_line, end_line)| lsp_types::FoldingRange {
                start_line,
                end_line,
                ..lsp_types::FoldingRange::default()
            })
            .collect()
    }

    fn hover(&self, at: &lsp_types::TextDocumentPositionParams) -> Option<Hover> {
        let document = self.documents.get(&at.text_document.uri)?;
        let index = document.index();
        let offset = index.offset(at.position, self.encoding);
        let analysis = &self.analysis;
        let found = analysis
            .hover(&document.path, (offset as u32).into())
            .ok()??;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: found.markdown,
            }),
            range: Some(index.range(found.range, self.encoding)),
        })
    }

    fn definition(
        &self,
        at: &lsp_types::TextDocumentPositionParams,
    ) -> Option<GotoDefinitionResponse> {
        let document = self.documents.get(&at.text_document.uri)?;
        let index = document.index();
        let offset = index.offset(at.position, self.encoding);
        let analysis = &self.analysis;
        let targets = analysis
            .goto_definition(&document.path, (offset as u32).into())
            .ok()?;
        let mut locations = Locations::new(analysis, self.encoding);
        let locations: Vec<Location> = (targets.into_iter())
            .filter_map(|target| locations.of(&target.path, target.focus_range))
            .collect();
        Some(GotoDefinitionResponse::Array(locations))
    }

    fn symbols(&self, uri: &Url) -> Option<DocumentSymbolResponse> {
        let document = self.documents.get(uri)?;
        let index = document.index();
        let symbols = self.analysis.document_symbols(&document.path).ok()?;
        #[allow(deprecated)]
        let symbols = symbols
            .into_iter()
            .map(|s| DocumentSymbol {
                name: s.name.to_string(),
                detail: Some(format!("{} {}", s.kind.keyword(), s.detail)),
                kind: symbol_kind(s.kind),
                tags: None,
                deprecated: None,
                range: index.range(s.full_range, self.encoding),
                selection_range: index.range(s.focus_range, self.encoding),
                children: None,
            })
            .collect();
        Some(DocumentSymbolResponse::Nested(symbols))
    }
}

fn token_type(class: pcl_ide::TokenClass) -> lsp_types::SemanticTokenType {
    use pcl_ide::TokenClass::*;
    match class {
        Keyword => lsp_types::SemanticTokenType::KEYWORD,
        String => lsp_types::SemanticTokenType::STRING,
        Number => lsp_types::SemanticTokenType::NUMBER,
        Comment => lsp_types::SemanticTokenType::COMMENT,
        Operator => lsp_types::SemanticTokenType::OPERATOR,
        Variable => lsp_types::SemanticTokenType::VARIABLE,
        Property => lsp_types::SemanticTokenType::PROPERTY,
        Function => lsp_types::SemanticTokenType::FUNCTION,
        Type => lsp_types::SemanticTokenType::TYPE,
    }
}

fn symbol_kind(kind: DeclKind) -> SymbolKind {
    match kind {
        DeclKind::Resource | DeclKind::Read => SymbolKind::OBJECT,
        DeclKind::Config => SymbolKind::CONSTANT,
        DeclKind::Local => SymbolKind::VARIABLE,
        DeclKind::Output => SymbolKind::PROPERTY,
        DeclKind::Component => SymbolKind::MODULE,
        DeclKind::Hook => SymbolKind::FUNCTION,
        DeclKind::Pulumi | DeclKind::Package => SymbolKind::NAMESPACE,
    }
}

/// Whether a `.pp` file of `dir` has a `component` block and the path `below` (as
/// `"./net"` or `"net"` end it) in its text: a cheap look for a caller of the component.
fn names_component(dir: &Path, below: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let below: Vec<String> = (below.components())
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    let below = below.join("/");
    let (after_dir, alone) = (format!("/{below}\""), format!("\"{below}\""));
    (entries.flatten()).any(|entry| {
        let file = entry.path();
        file.extension().is_some_and(|e| e == "pp")
            && entry.file_type().is_ok_and(|kind| kind.is_file())
            && pcl_ide::read_source_file(&file).is_ok_and(|bytes| {
                let text = String::from_utf8_lossy(&bytes);
                text.contains("component") && (text.contains(&after_dir) || text.contains(&alone))
            })
    })
}

/// A Pulumi project as read from disk: its directory, and its project file and stack files,
/// each a path and text.
struct ProjectOnDisk {
    dir: PathBuf,
    file: (String, String),
    stacks: Vec<(String, String)>,
}

/// The project whose program is in `dir`, as `pcl check` finds it: the nearest project
/// file at or above `dir`, when its `main` is `dir`.
fn project_of(dir: &Path) -> Option<ProjectOnDisk> {
    let program = pcl_ide::normalise_dir(&dir.to_string_lossy());
    let (ancestor, path, text) = dir.ancestors().find_map(|ancestor| {
        (pcl_ide::PROJECT_FILE_NAMES.iter()).find_map(|name| {
            let path = ancestor.join(name);
            let text = read_project_file(&path)?;
            Some((ancestor, path, text))
        })
    })?;
    let main = main_dir(ancestor, &text);
    (pcl_ide::normalise_dir(&main) == program).then(|| ProjectOnDisk {
        dir: ancestor.to_path_buf(),
        stacks: stack_files(&path, &text),
        file: (path.display().to_string(), text),
    })
}

/// The text of the document open at `path`, as the editor has it.
fn open_text<'a>(documents: &'a BTreeMap<Url, Document>, path: &str) -> Option<&'a str> {
    (documents.values())
        .find(|d| Path::new(&d.path) == Path::new(path))
        .map(|d| d.text.as_str())
}

/// A file read from disk (a path and its text), with the editor's text when it is open.
fn as_edited<'a>(
    documents: &'a BTreeMap<Url, Document>,
    (path, text): &'a (String, String),
) -> (&'a str, &'a str) {
    (path.as_str(), open_text(documents, path).unwrap_or(text))
}

/// A project or stack file's text, as Pulumi reads it (UTF-8, or UTF-16 with a byte order
/// mark); `None` when it cannot be read.
fn read_project_file(path: &Path) -> Option<String> {
    let bytes = pcl_ide::read_source_file(path).ok()?;
    pcl_ide::decode_project_file(bytes).ok()
}

/// The stack files of the project file at `project_path` with `text` (in its
/// `stackConfigDir`, its path made plain: `/p/config`, not `/p/./config`, so it is an open
/// document's), in name order, each a path and text as on disk.
fn stack_files(project_path: &Path, text: &str) -> Vec<(String, String)> {
    let project_file = (project_path.file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = pcl_ide::stack_dir(project_path, text);
    let dir = PathBuf::from(pcl_ide::normalise_dir(&dir.to_string_lossy()).as_str());
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut stacks: Vec<PathBuf> = (entries.flatten())
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|name| pcl_ide::stack_name(&project_file, &name).is_some())
        })
        .collect();
    stacks.sort();
    (stacks.into_iter())
        .filter_map(|path| {
            let text = read_project_file(&path)?;
            Some((path.display().to_string(), text))
        })
        .collect()
}

/// Whether `path` names a Pulumi project or stack file.
fn is_project_file(path: &str) -> bool {
    let name = Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.starts_with("Pulumi")
        && [".yaml", ".yml", ".json"]
            .iter()
            .any(|ext| name.ends_with(ext))
}

/// The program directory of the project file in `dir` with `text`: its `main` (a file's
/// directory), else `dir`.
fn main_dir(dir: &Path, text: &str) -> String {
    let main = pcl_ide::parse_project_main(text);
    (pcl_ide::project_program_dir(dir, main.as_deref()).display()).to_string()
}

/// The file path a document is known by and its program directory: the file's path for
/// `file:` URIs, else the URI itself in the current directory.
fn path_and_dir(uri: &Url) -> (String, String) {
    match uri.to_file_path() {
        Ok(path) => {
            let dir = path
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            (path.display().to_string(), dir.display().to_string())
        }
        // A document with no file (`untitled:Untitled-1`) is a program of its own: its
        // directory is no directory, so no file on disk joins it.
        Err(()) => (uri.to_string(), format!("{uri}.program")),
    }
}

/// The protocol's locations of ranges in the analysis' files (program files and schemas):
/// each file's text is fetched, its URL made and its lines indexed once, however many
/// ranges are in it (the references to a config used 20,000 times in one 3 MB file indexed
/// its lines once per reference: a minute for the references, the highlights or a rename).
struct Locations<'a> {
    analysis: &'a pcl_ide::Analysis,
    encoding: Encoding,
    files: HashMap<String, Option<(Url, pcl_ide::FileText, TextLines)>>,
}

impl<'a> Locations<'a> {
    fn new(analysis: &'a pcl_ide::Analysis, encoding: Encoding) -> Locations<'a> {
        Locations {
            analysis,
            encoding,
            files: HashMap::new(),
        }
    }

    /// Where `range` is in the file `path`; `None` for a file the analysis does not have
    /// or a path that makes no URL.
    fn of(&mut self, path: &str, range: pcl_diagnostics::TextRange) -> Option<Location> {
        let encoding = self.encoding;
        let (url, text, lines) = self.file(path)?;
        let index = LineIndex::with_lines(text, lines);
        Some(Location::new(url.clone(), index.range(range, encoding)))
    }

    /// The file at `path`: its URL, text and lines, read once.
    fn file(&mut self, path: &str) -> Option<&(Url, pcl_ide::FileText, TextLines)> {
        let analysis = self.analysis;
        let file = self.files.entry(path.to_owned()).or_insert_with(|| {
            let text = analysis.file_text(path)?;
            // A schema file found through a relative search path has a relative name.
            let url = Url::from_file_path(path)
                .or_else(|()| Url::from_file_path(std::fs::canonicalize(path).map_err(|_| ())?))
                .ok()?;
            let lines = TextLines::new(&text);
            Some((url, text, lines))
        });
        file.as_ref()
    }
}
