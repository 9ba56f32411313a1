# References a deploy would reject, though Pulumi's binder accepts them.
resource site "web:index:Bucket" {
  name = "site"
}

resource pages "web:index:Page" {
  options {
    range = 2
  }
  bucket  = site.name
  key     = "page-${range.value}"
  content = "<p>served from ${site}</p>"
}

resource late "web:index:Bucket" {
  name = pages.etag
  options {
    dependsOn = ["site", 42]
  }
}

config names "list(string)" {}

first  = names["first"]
second = element(names, "second")
outside = range.value

# Options that take resources, given other values.
resource child "web:index:Bucket" {
  name = "child"
  options {
    parent      = "site"
    deletedWith = pages
    provider    = site.name
    dependsOn   = [site.websiteEndpoint]
  }
}

# A collection of resources as one element of a list: Python's SDK and Go's types take
# each element as one resource.
resource afterPages "web:index:Bucket" {
  name = "after-pages"
  options {
    dependsOn   = [pages]
    replaceWith = [site, pages]
  }
}

# A `range` that is a condition defines no `range` variable.
config enabled "bool" {
  default = true
}

resource maybe "web:index:Bucket" {
  name = "maybe-${range.value}"
  options {
    range = enabled
  }
}

# A resource whose `range` is a condition is one resource or none, not a list.
maybeName = maybe[0].websiteEndpoint

# `range` is not in scope in `options`.
resource follower "web:index:Bucket" {
  name = "follower-${range.value}"
  options {
    range     = 2
    dependsOn = [pages[range.value]]
  }
}

# An output is exported without a name in Python and Go: another declaration cannot read it.
output "siteName" {
  value = site.name
}

output "greeting" {
  value = "served by ${siteName}"
}

# `${HOME}` as shell text is written `$${HOME}`.
script = "cd ${HOME}/site"

# A resource's name quoted in place of the list (fixed to `[site]`), and a string that
# names none (no fix: a list of it would not hold a resource either).
resource "quotedDependency" "web:index:Bucket" {
  name = "q"
  options {
    dependsOn = "site"
  }
}

resource "stringDependency" "web:index:Bucket" {
  name = "s"
  options {
    dependsOn = "nothing"
  }
}
