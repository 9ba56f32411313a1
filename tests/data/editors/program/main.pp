# The program `cargo xtask editor-test` opens in a real editor (positions are pinned by
# tests/data/editors/neovim.lua: keep lines as they are).
config "siteName" "string" {
  default = "editor test"
}

resource "site" "web:index:Bucket" {
  name = siteName
}

endpoint = site.websiteEndpoint
broken   = sitename
