x = <<EOT
hello ${name
world
EOT
y = 1
