a = 1 + 2 * 3
b = (1 + 2) * 3
c = a || b && c == d
d = -x.y + !z
e = a - b - c
f = a < b == c >= d
g = x ? y : z ? w : v
h = --1
