a { b = "foo" }
c "x" { d = [1, 2] }
