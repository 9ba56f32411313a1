# One error per cause: an unknown property is not also "cannot traverse".
config site "object({templat = string})" {
  default = null
}
config maybe "object({name = string})" {
  nullable = true
}
a = maybe.nmae
b = site.template.foo
resource b1 "web:index:Bucket" {
  name = "x"
  website = {
    indexDocument = "i"
  }
}
c = b1.website

# A misspelt function is one error: a value that may be its result is not also one that
# cannot be iterated over.
config many "bool" {}
names = splitt(",", "a,b")
buckets = [for name in many ? names : ["c"] : "bucket-${name}"]

# A misspelt name in `range` is one error: the resource is not also a collection to index.
config withBucket "bool" {}
resource maybeBucket "web:index:Bucket" {
  name = "b"
  options {
    range = withBuckt
  }
}
bucketArn = maybeBucket.arn
