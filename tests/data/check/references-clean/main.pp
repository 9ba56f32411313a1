# The same references written right.
resource site "web:index:Bucket" {
  name = "site"
}

resource pages "web:index:Page" {
  options {
    range = 2
  }
  bucket  = site.name
  key     = "page-${range.value}"
  content = "<p>served from ${site.websiteEndpoint}</p>"
}

resource late "web:index:Bucket" {
  name = pages[0].etag
  tags = { all = join(",", pages[*].etag) }
  options {
    dependsOn = [site, pages[0], pages[1]]
  }
}

resource afterAll "web:index:Bucket" {
  name = "after-all"
  options {
    dependsOn   = pages
    replaceWith = [for page in pages : page]
  }
}

config names "list(string)" {}

first  = names[0]
second = element(names, 1)

resource child "web:index:Bucket" {
  name = "child"
  options {
    parent      = site
    deletedWith = pages[0]
    dependsOn   = [site]
  }
}

# A stack reference in another spelling of its token reads the same way.
resource network "pulumi:index:StackReference" {
  name = "acme/network/prod"
}

vpcId = getOutput(network, "vpcId")
