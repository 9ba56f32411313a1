a { b = "foo", c = "bar" }
a { b = "foo"
}
a { d {} }
