config "count" "int" {
  default = 2
}

resource "bucket" "aws:s3:Bucket" {
  options {
    range = count
  }
  bucket = "bucket-${range.value}"
  tags = {
    Name = "n"
  }
}

output "name" {
  value = bucket[0].id
}
