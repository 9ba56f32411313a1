output m {
  value {
    "my key" = 1
    "my.key" = 2
  }
}

labels {
  app: "web",
  tier: "front"
}
