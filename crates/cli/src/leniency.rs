//! The binding leniencies `pcl check` and `pcl types` share, one flag per option of
//! Pulumi's Go binder (`pkg/codegen/pcl/binder.go`).

use pcl_ide::Leniency;

/// Leniencies: none is how `pulumi up` binds a PCL program; the five Go options
/// together are `pulumi convert` without `--strict`.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct LeniencyArgs {
    /// Mirrors Go's `SkipResourceTypechecking`: resources and components whose schema is
    /// missing are `dynamic` with one warning, and type errors and unknown inputs of
    /// resources are warnings.
    #[arg(long, help_heading = "Leniency (Pulumi's binder options)")]
    skip_resource_typecheck: bool,
    /// Mirrors Go's `SkipInvokeTypechecking`: invokes whose function schema is missing are
    /// `dynamic`, and problems with invoke arguments are warnings.
    #[arg(long, help_heading = "Leniency (Pulumi's binder options)")]
    skip_invoke_typecheck: bool,
    /// Mirrors Go's `SkipRangeTypechecking`: a `range` option of the wrong type is a
    /// warning.
    #[arg(long, help_heading = "Leniency (Pulumi's binder options)")]
    skip_range_typecheck: bool,
    /// Mirrors Go's `AllowMissingVariables`: an undefined name is a warning.
    #[arg(long, help_heading = "Leniency (Pulumi's binder options)")]
    allow_missing_variables: bool,
    /// Mirrors Go's `AllowMissingProperties`: an unknown property of an object is a
    /// warning.
    #[arg(long, help_heading = "Leniency (Pulumi's binder options)")]
    allow_missing_properties: bool,
    /// All five options above (`pulumi convert` without `--strict`), and every check
    /// Pulumi's binder does not make is a warning too.
    #[arg(long, help_heading = "Leniency (Pulumi's binder options)")]
    lenient: bool,
}

impl LeniencyArgs {
    pub(crate) fn leniency(self) -> Leniency {
        if self.lenient {
            return Leniency::ALL;
        }
        Leniency {
            skip_resource_typecheck: self.skip_resource_typecheck,
            skip_invoke_typecheck: self.skip_invoke_typecheck,
            skip_range_typecheck: self.skip_range_typecheck,
            allow_missing_variables: self.allow_missing_variables,
            allow_missing_properties: self.allow_missing_properties,
            beyond_go: false,
        }
    }
}
