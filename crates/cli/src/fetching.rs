//! `--fetch-schemas`, shared by `pcl check`, `pcl types` and `pcl schema`: schemas no
//! source has are fetched with the `pulumi` CLI into our cache, each fetch said on stderr
//! (with a spinner on a terminal) with how long it took.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use pcl_ide::{FetchError, FetchEvent, FetchRequest, Fetching};

/// How long one `pulumi package get-schema` may run (the big schemas are tens of MB).
const TIME_LIMIT: Duration = Duration::from_secs(300);

#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct FetchArgs {
    /// Fetch schemas that no source has with the `pulumi` CLI (`pulumi package get-schema
    /// NAME[@VERSION]`) into $XDG_CACHE_HOME/pcl/schemas; never without this flag.
    #[arg(long)]
    fetch_schemas: bool,
}

impl FetchArgs {
    /// The host's fetching, when asked for.
    pub(crate) fn fetching(self) -> Option<Fetching> {
        self.fetch_schemas.then(|| Fetching {
            time_limit: TIME_LIMIT,
            observer: Box::new(progress()),
        })
    }

    pub(crate) fn enabled(self) -> bool {
        self.fetch_schemas
    }
}

/// A spinner running on its own thread until stopped.
struct Spinner {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

/// What says on stderr which schema is being fetched, then how it went.
pub(crate) fn progress() -> impl FnMut(FetchEvent<'_>) + Send {
    let mut spinner: Option<Spinner> = None;
    move |event| match event {
        FetchEvent::Started(request) => {
            let line = format!(
                "fetching the schema of {} (`{}`)",
                request.spec(),
                request.command_line()
            );
            spinner = start_spinner(line);
        }
        FetchEvent::Finished {
            request,
            elapsed,
            result,
        } => {
            if let Some(spinner) = spinner.take() {
                spinner.stop.store(true, Ordering::Relaxed);
                let _ = spinner.thread.join();
            }
            say(&finished_line(request, elapsed, result));
        }
    }
}

fn finished_line(
    request: &FetchRequest,
    elapsed: Duration,
    result: Result<&std::path::Path, &FetchError>,
) -> String {
    let seconds = elapsed.as_secs_f64();
    match result {
        Ok(path) => format!(
            "fetched the schema of {} in {seconds:.1} s into {}",
            request.spec(),
            path.display()
        ),
        Err(_) => format!(
            "could not fetch the schema of {} ({seconds:.1} s)",
            request.spec()
        ),
    }
}

#[allow(clippy::print_stderr)]
fn say(line: &str) {
    let mut stderr = std::io::stderr().lock();
    let clear = if std::io::stderr().is_terminal() {
        "\r\x1b[2K"
    } else {
        ""
    };
    let _ = writeln!(stderr, "{clear}{line}");
}

/// On a terminal, a spinner before `line` until stopped; elsewhere `line` once.
fn start_spinner(line: String) -> Option<Spinner> {
    if !std::io::stderr().is_terminal() {
        say(&line);
        return None;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = stop.clone();
    let thread = std::thread::spawn(move || {
        const FRAMES: [char; 4] = ['|', '/', '-', '\\'];
        let start = Instant::now();
        let mut frame = 0;
        while !stopped.load(Ordering::Relaxed) {
            let seconds = start.elapsed().as_secs();
            let mut stderr = std::io::stderr().lock();
            let _ = write!(
                stderr,
                "\r\x1b[2K{} {line} {seconds} s",
                FRAMES[frame % FRAMES.len()]
            );
            let _ = stderr.flush();
            drop(stderr);
            frame += 1;
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    Some(Spinner { stop, thread })
}

/// `pcl schema`'s fetch: the file written, or why none was (as the host reports it).
pub(crate) fn fetch_for_schema_command(
    request: &FetchRequest,
    cache: &std::path::Path,
) -> Result<PathBuf, FetchError> {
    let mut observer = progress();
    observer(FetchEvent::Started(request));
    let start = Instant::now();
    let result = pcl_ide::fetch_schema(request, cache, TIME_LIMIT);
    observer(FetchEvent::Finished {
        request,
        elapsed: start.elapsed(),
        result: result.as_deref(),
    });
    result
}
