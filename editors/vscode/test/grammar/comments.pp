# A hash comment
// A slash comment
/* A block
   comment */ a = 1 /* inline */ + 2
b = 2 # trailing
c = "# not a comment"

# pcl-ignore PCL4001, PCL4008
greeting = "hello ${nobody}"
// pcl-ignore PCL4001
other = nobody
