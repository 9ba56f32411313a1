r "a" {
  s = <<EOT
hello
