# A type token written without its quotes: one error, and the label reads as the token.
resource pet random:index/randomPet:RandomPet {
  length = 2
}

resource other aws:s3/bucket:Bucket {}
