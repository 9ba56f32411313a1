//! The `pcl` binary: one entry point for users, dispatching to subcommands.

fn main() {}
