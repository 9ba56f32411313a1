a = 1+2*3-4/5%6
b = -1
c = ! true
d = x == y && z != w || ! v
e = a - -1
f = (-a) * [-1, - 2]
g = cond ? -1 : 1
h = x>=1 && y<=2 && z<3 && w>4
i = foo.bar [0] .baz
j = list[*].id
k = list.*.id
l = f(a...)
m = [for x in [1, 2]: x*2 if x>1]
n = {for k, v in m: k => v...}
o = provider::aws::fn(1)
p = a[0][1]
q = -x[0]
