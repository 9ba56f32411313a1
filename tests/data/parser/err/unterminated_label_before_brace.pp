resource key "tls:index/privateKey:PrivateKey {
  algorithm = "RSA"
}

resource other "a" "b{
}

output "x" {
  value = "not a label {
}
