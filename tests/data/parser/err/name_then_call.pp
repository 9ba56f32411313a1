hash sha1("text")
