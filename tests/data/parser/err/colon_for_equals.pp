resource a "x:index:Y" {
  name: "nginx"
  ports: [80]
  spec:
    replicas: 2
}

object = { a: 1 }
