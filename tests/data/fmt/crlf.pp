a = 1
bb = {
  c   = 2 # comment
}
