# The `pulumi` block: `requiredVersionRange` in blang/semver's range grammar, once per
# program.
pulumi {
  requiredVersionRange = "^3.0.0"
}

pulumi {
  requiredVersionRange = ">=3.0.0 <4.0.0 || !3.1.2"
}
