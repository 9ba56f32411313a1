//! Development automation for pcl: `cargo xtask <command>`.
fn main() {}
