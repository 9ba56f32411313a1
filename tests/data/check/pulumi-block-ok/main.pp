# A `pulumi` block whose range blang/semver reads: the operator may stand apart.
pulumi {
  requiredVersionRange = ">= 3.100.0 < 4.0.0 || 4.1.x"
}
