# What recovery leaves: missing values and operands lower to `missing`.
resource "r" "pkg:index:Site" {
  name =
  tags = { a = , b = 1 }
  sum  = 1 +
  cond = true ? : "x"
}

half = [1, 2
