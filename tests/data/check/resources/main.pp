# Resource inputs and options are checked against the schema.
resource "site" "web:index:Bucket" {
  name        = "site"
  versioning  = { enabled = true }
  colour      = "blue"
  __logicalName = "site-${name}"
  website = {
    errorDocument = "404.html"
  }
  lifecycle {
    prevent_destroy = true
  }
  options {
    protect     = true
    retainOnDelete = [true]
    ignoreChanges = [tags, tagz, website.indexDocumnt]
    provder     = null
  }
  options {
    protect = false
  }
}

resource "page" "web:index:Page" {
  bucket       = site.name
  key          = "index.html"
  cacheSeconds = site.tags
}

output "etag" {
  value = page.etag
}

output "empty" {
}

# A type token that differs from a resource's only in case: its body is checked as that
# resource's all the same.
resource "cased" "web:index:bucket" {
  name    = "cased"
  colour  = "red"
}

# A misspelling of an input the body sets already: no fix that would set it twice.
resource "twice" "web:index:Bucket" {
  name = "a"
  nmae = "b"
}
