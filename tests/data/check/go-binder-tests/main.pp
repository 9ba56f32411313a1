# Programs shaped like Pulumi's own binder unit tests (pkg/codegen/pcl/*_test.go), with
# the verdicts they expect in strict mode: each line below marked "Go: error" is one.
config "inputRange" "string" {}
config "data" "any" {}

# TestBindingInvalidRangeTypeWhenSkippingRangeTypechecking: two errors.
strings = [for x in inputRange : x]
resource pet "web:index:Bucket" {
  name = "pet"
  options {
    range = inputRange
  }
}

# TestBindingElementFunctionWithDynamicInput: Go: error.
first = element(data, 0)

# TestHookConversionSafe: fine.
hook resource "safe" {
  command = [true, 44]
}

# TestHookDryRunScope, TestHookUnknownAttribute: Go: error, error.
hook resource "scoped" {
  command  = ["echo"]
  onDryRun = args.id == "foo"
  what     = true
}

# TestOnErrorHookRejectsLifecycleAttributes, TestErrorHookBinding: Go: three errors.
hook error "failed" {
  command      = ["echo", args.newOutputs.first]
  onDryRun     = true
  ignoreErrors = false
}

# TestHookConversionUnsafe: Go: error.
hook resource "unsafe" {
  command = [[], {}]
}

# functions_test.go: Go: an error each.
root    = rootDirectory("foo")
single  = singleOrNone(1, 2)
notList = singleOrNone("x")
tried   = try()
could   = can(1, 2)
