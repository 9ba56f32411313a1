a = 1
b = 1.5e3
c = true
d = false
e = null
