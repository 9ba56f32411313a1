a = (
  1 +
  2
)
b = f(
  a,
  b,
)
c = x[
  0
]
