# Another file describing the same package differently.
package {
  baseProviderName    = "tok"
  baseProviderVersion = "1.2.4"
}
