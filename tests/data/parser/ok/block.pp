resource "name" type {
  x = 1
}
empty {}
labels "a" "b" c {
}
