# Another file describing the same package differently.
package {
  baseProviderName        = "tok"
  baseProviderVersion     = "1.2.3"
  baseProviderDownloadUrl = "https://example.com/tok"
}
