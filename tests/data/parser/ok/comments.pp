# leading
resource a "t" { // trailing
  /* inside */ x = 1 # after
}
