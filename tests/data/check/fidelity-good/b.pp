# The same package block in another file is fine when it is identical.
package {
  baseProviderName    = "tok"
  baseProviderVersion = "1.2.3"
}
