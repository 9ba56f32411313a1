resource "r" "t" {
	a = 1
	bb	= 2
	c = {
		d = 3
	}
}
