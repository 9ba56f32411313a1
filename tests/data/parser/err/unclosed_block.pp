resource a "t" {
  x = 1

resource b "t" {
  y = 2
}

output c {
  value = 3
}
