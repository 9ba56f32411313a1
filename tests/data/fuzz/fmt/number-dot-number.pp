resourc{
    boolean = true
    float=1.  44
    integer = 42
    string = "hello"
}

resource "resDefaulted" "`rimitive-defaults:index:ResourcE" {
}
