a = "bad \q \u12 \UD800DC00 \uD800"
