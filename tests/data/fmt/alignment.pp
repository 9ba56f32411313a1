resource "bucket" "aws:s3:Bucket" {
  bucket = "my-bucket"
  acl= "private"
  forceDestroy    =true
  tags = {
    Name = "x"
    Environment_long_name="dev"
  }
  website = { indexDocument = "index.html" }
    versioning = true

  loggingTarget = "after a blank line"
  x = 1
}

a = 1
bbb = 2
cc = [
  1,
]
dddd = 4
