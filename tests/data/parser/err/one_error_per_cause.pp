a = << EOT
b = 1 @ 2
