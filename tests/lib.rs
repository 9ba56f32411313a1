//! End-to-end tests of the `pcl` binary live in `tests/*.rs`; this library is empty on purpose.
