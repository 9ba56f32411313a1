a = "oops
b = 2
