name = 1
resource "r" "t" {
  ami  = "a"
  tags = { ami = 1, ami = 2 }
  ami  = "b"
  nested {
    ami = "c"
  }
}
name = 2
other { a = 1 }
# More than 16 attributes: names are found through the hash index.
x0 = 0
x1 = 1
x2 = 2
x3 = 3
x4 = 4
x5 = 5
x6 = 6
x7 = 7
x8 = 8
x9 = 9
x10 = 10
x11 = 11
x12 = 12
x13 = 13
x14 = 14
x15 = 15
x16 = 16
x17 = 17
x3 = 3
