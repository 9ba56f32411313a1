# A program of its own below the test program: its editor shares their server.
size = 1
