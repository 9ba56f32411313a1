resource "r" "t" {
  script = <<EOT
    keep   these    spaces
  ${ upper( "x" ) } and %{ if true }yes%{ endif }
EOT
  indented     = <<-EOT
      stripped   indentation
      EOT
  after = 1
}
