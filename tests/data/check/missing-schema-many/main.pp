# A package used nine times without a schema: one error, five uses labelled, the rest counted.
resource "bucket0" "aws:s3/bucket:Bucket" {
  bucket = "b0"
}

resource "bucket1" "aws:s3/bucket:Bucket" {
  bucket = "b1"
}

resource "bucket2" "aws:s3/bucket:Bucket" {
  bucket = "b2"
}

resource "bucket3" "aws:s3/bucket:Bucket" {
  bucket = "b3"
}

resource "bucket4" "aws:s3/bucket:Bucket" {
  bucket = "b4"
}

resource "bucket5" "aws:s3/bucket:Bucket" {
  bucket = "b5"
}

resource "bucket6" "aws:s3/bucket:Bucket" {
  bucket = "b6"
}

resource "bucket7" "aws:s3/bucket:Bucket" {
  bucket = "b7"
}

region = invoke("aws:index/getRegion:getRegion", {})
