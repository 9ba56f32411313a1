a = <<EOT
hello ${name}
EOT
b = <<-EOT
    %{ if x }yes%{ endif }
    EOT
