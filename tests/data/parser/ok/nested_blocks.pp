resource r "t" {
  options {
    dependsOn = [x]
  }
}
