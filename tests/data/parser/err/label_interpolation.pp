resource "${x}" "t" {
}
