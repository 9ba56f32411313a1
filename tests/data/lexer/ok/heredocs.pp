a = <<EOT
line ${x}
$${not} interp
  EOT
b = <<-EOT
    indented
      more
    EOT
c = 1
