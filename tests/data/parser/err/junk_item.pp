= 1
"str" = 2
ok = 3
