config "x" "int" {}
