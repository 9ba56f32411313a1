a = 'dev'
b = 'unclosed
c = 'with "quotes"'
