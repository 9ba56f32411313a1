//! `--jobs N` (or `PCL_JOBS`) for `pcl check` and `pcl types`: how many threads parse,
//! bind and check. The results, and their order, do not depend on it.

/// How many threads to use.
#[derive(clap::Args, Clone, Debug, Default)]
pub(crate) struct JobsArgs {
    /// Check on N threads (N ≥ 1; default: PCL_JOBS, else the available cores). The
    /// output is the same for every N.
    #[arg(long, value_name = "N", value_parser = parse_jobs)]
    jobs: Option<usize>,
}

fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) | Err(_) => Err(format!(
            "`{text}` is not a number of jobs: give a whole number of at least 1"
        )),
        Ok(jobs) => Ok(jobs),
    }
}

impl JobsArgs {
    /// The number of threads: the flag, else `PCL_JOBS`, else the available cores; an
    /// invalid `PCL_JOBS` is a usage error naming it.
    pub(crate) fn jobs(&self) -> Result<usize, String> {
        if let Some(jobs) = self.jobs {
            return Ok(jobs);
        }
        match std::env::var("PCL_JOBS") {
            Ok(text) => parse_jobs(&text).map_err(|why| format!("PCL_JOBS: {why}")),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err("PCL_JOBS: it is not a number of jobs (not UTF-8)".to_owned())
            }
            Err(std::env::VarError::NotPresent) => {
                Ok(std::thread::available_parallelism().map_or(1, |n| n.get()))
            }
        }
    }
}
