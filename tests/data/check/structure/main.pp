# Top-level blocks PCL does not know are ignored; blocks with the wrong labels declare nothing.
terraform {
  required_version = ">= 1.0"
}

resource "justAName" {
}

hook "later" "notify" {
  command = ["echo"]
}

package "web" {
  baseProviderName = "web"
}

package "labelled" {
  baseProviderVersion = "1.0.0"
}

# A misspelt keyword declares nothing, and says so once: the name it meant is not also
# undefined where it is read.
resouce bucket "web:index:Bucket" {
  name = "assets"
}

output bucketName {
  value = bucket.name
}

# A value missing its `=` reads as a block that declares nothing: that is its one error,
# and the output of the same name does not read itself.
digest sha1("text")

output digest {
  value = digest
}
