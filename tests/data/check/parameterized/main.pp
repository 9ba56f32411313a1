# pcl-check-args: --schema-dir ../schemas/parameterized
# A `package` block makes package `myext` of base provider `extbase`: the extension's
# resources go by `myext:`, and a base token for one of them says so.
package {
  baseProviderName    = "extbase"
  baseProviderVersion = "45.0.0"
  parameterization {
    name    = "myext"
    version = "2.0.0"
    value   = "SGVsbG8="
  }
}

resource greeting "extbase:index:Greeting" {
  text = "hello"
}

resource base "extbase:index:Base" {
  value = "v"
}

resource fine "myext:index:Greeting" {
  text = "hi"
}
