# A comment on its own line
   // Another style, indented wrongly
/* A block comment */
resource "r" "t" { # after an opening brace
  a = 1 # trailing
  bb = 2   // trailing, other style
  ccc = 3 /* trailing block */
  # between
    d = [ # in a list
    1, # element
    2  /* inline */ ,
  ]
  /* multi
     line */
  e = 5
} # after the close
x = 1 # at the end without newline