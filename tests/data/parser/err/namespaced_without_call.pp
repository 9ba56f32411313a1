a = ns::f
