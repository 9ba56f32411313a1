a = x.b.c
b = x[0]["k"][i + 1]
c = x.0
d = f().a
e = (x).y
