# Packages without a schema, types a package does not have, and package blocks.
resource "db" "postgres:index:Database" {
  name = "app"
}

resource "bucket" "web:index:Buckets" {
  name = "site"
}

resource "bad" "not-a-token" {
}

package {
  baseProviderVersion = "1.0.0"
}

package {
  baseProviderName        = "other"
  baseProviderVersion     = "v4.11"
  baseProviderDownloadUrl = "github.com/acme/pulumi-other/releases"
}
