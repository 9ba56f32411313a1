ok1 {
  a = 1
}
broken1 {
  a = = 1
}
ok2 {
  b = 2
}
broken2 {
  c = (1 +
}
ok3 {
  c = 3
}
broken3 {
  d = [1, 2
}
ok4 {
  d = 4
}
