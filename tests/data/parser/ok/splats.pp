a = x.*.b.0
b = x[*].b[0].c
c = x.*.b[0]
nested = a[*].b[*].c
