# `# pcl-ignore CODE` on the line before a statement silences that code in it.
# pcl-ignore PCL4001
greeting = "hello ${nobody}"

# pcl-ignore PCL4008
fine = "nothing to silence"

loud = "hello ${somebody}"
