config replicas "int" {}
