terraform {
  required_version = ">= 1.3"
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}

variable "subnets" {
  type = list(object({
    name = string
    cidr = string
  }))
  default = []
}

locals {
  common_tags = merge(var.tags, {
    Environment = var.env # inline comment
    Managed-By  = "terraform"
  })
  names = [for s in var.subnets : upper(s.name) if s.name != ""]
  by_name = {
    for s in var.subnets :
    s.name => s...
  }
}

resource "aws_subnet" "this" {
  for_each   = { for s in var.subnets : s.name => s }
  vpc_id     = aws_vpc.main.id
  cidr_block = each.value.cidr

  dynamic "tag" {
    for_each = local.common_tags
    content {
      key   = tag.key
      value = tag.value
    }
  }

  lifecycle {
    ignore_changes = [tags["LastModified"]]
  }
}

	tabbed = count.index == 0 ? "first" : (
  count.index > 5
  ? "late"
  : "middle"
)

policy = jsonencode({
  Statement = [{
    Action   = ["s3:*"]
    Resource = "${aws_s3_bucket.b.arn}/*"
  }]
})

user_data = <<-EOF
  #!/bin/bash
  echo "%{ for ip in aws_instance.web[*].private_ip ~}${ip} %{ endfor ~}"
  %{~ if var.debug }set -x%{ endif }
  EOF

ids = aws_instance.web[*].id
first = aws_instance.web.*.id[0]
legacy = var.list.0
expand = max(var.numbers...)
