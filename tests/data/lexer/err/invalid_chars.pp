a = 1 @@ 2
b = 'single'
c = a & b | c
d = `x` ^ ;
e = &Args{}
