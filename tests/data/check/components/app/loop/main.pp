component "parent" ".." {
}
