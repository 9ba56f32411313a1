a = 'dev'
b = 'unclosed
c = 'with "quotes"'
d = 'a + "b'c"
