a = {}
b = { x = 1, y: 2 }
c = {
  "quoted" = 1
  (computed) = 2
  0 = "zero"
  true = 3
  a.b = 4
}
