//! `pcl parse [--tree] PATH...`: parse files and report syntax errors.

use std::process::ExitCode;

pub(crate) fn run(_args: &[String]) -> ExitCode {
    crate::usage_error("parse is not implemented yet")
}
