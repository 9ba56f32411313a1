a = ""
b = "plain text, é and 😀"
c = "a $ sign, 100% and $name"
d = {"k" = "v", "${k}" = "v"}
e = "${"nested"}"
