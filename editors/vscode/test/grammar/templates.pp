greeting = "hello ${name}!"
escapes  = "tab\t quote\" backslash\\ \u00e9 \U0001F600 and \q"
literal  = "$${not} %%{not} $ and 100%"
cond     = "%{ if enabled }on%{ else }off%{ endif }"
loop     = "%{ for k, v in tags ~}${k}=${v} %{~ endfor }"
strip    = "${~ value ~}"
nested   = "${ {a = "}"}["}"] } and ${"inner ${x}"}"
empty    = ""
unclosed = "runs to the end of the line
after    = 1
