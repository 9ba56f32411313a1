x = {
  a = b
  (k) = 4
  c = f
  (d) = 5
}
y = [
  f
  (1),
  ns::g
  (2)
]
