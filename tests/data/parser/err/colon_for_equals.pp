resource a "x:index:Y" {
  name: "nginx"
  ports: [80]
}

object = { a: 1 }
