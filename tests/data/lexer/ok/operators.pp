a = [1 + 2 - 3 * 4 / 5 % 6, a == b, a != b, a < b, a > b, a <= b, a >= b, a && b, a || b, !a, x ? y : z, f(xs...), {k => v}, ns::f(), t.*.a, ~]
