# A package without a schema is one error per file, at its first use; the other uses are
# labels. A suppression before a use removes that use.
# pcl-ignore PCL4009
resource "first" "aws:s3/bucket:Bucket" {
  bucket = "a"
}

resource "second" "aws:s3/bucket:Bucket" {
  bucket = "b"
}

resource "third" "aws:s3/bucketObject:BucketObject" {
  bucket = second.id
}

region = invoke("aws:index/getRegion:getRegion", {})

resource "pet" "random:index/randomPet:RandomPet" {
}

# A package name close to one found: the fix writes that one.
resource "site" "wbe:index:Bucket" {
  name = "site"
}

# A package named for another (`webx` for `web`) is no misspelling of it.
resource "short" "webx:index:Bucket" {}
