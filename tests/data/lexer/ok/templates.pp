a = "plain \n \t \" \\ \u00e9 \U0001F600 $${lit} %%{lit}"
b = "x ${y} %{ if c ~}t%{~ else }f%{ endif } ${ {a = "}"}["}"] }"
