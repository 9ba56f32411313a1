config "size" "int" {
  default = 3
}

resource "bucket" "aws:s3:Bucket" {
  options {
    range = size
  }
  name = "bucket-${range.value}"
  tags = { Name = "b${range.key}" }
}

output "names" {
  value = bucket[*].id
}
