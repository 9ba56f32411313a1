a = "hi endif }"
c = "%{ for k, v in m ~}${k}=${v}%{ ~endfor }"
d = "${~ x ~}"
e = ""
