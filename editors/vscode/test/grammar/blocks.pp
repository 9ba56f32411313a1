# Blocks, labels and resource tokens.
config "size" "int" {
  default = 3
}

config tags "map(string)" {
  description = "Tags for every bucket"
}

resource "bucket" "aws:s3/bucket:Bucket" {
  options {
    range     = size
    dependsOn = [network]
    protect   = true
  }
  bucket = "bucket-${range.value}"
  tags   = tags
}

resource provider "pulumi:providers:aws" {
  region = "us-west-2"
}

read "existing" "aws:s3/bucket:Bucket" {
  id = "my-bucket"
}

component "network" "./network" {
  cidr = "10.0.0.0/16"
}

package "aws" {
  baseProviderName = "aws"
}

pulumi {
  requiredVersionRange = ">=3.0"
}

hook "resource" "logBefore" {
  command = ["echo", "before"]
}

output "bucketNames" {
  value = bucket[*].bucket
}

settings { retries = 2 }
