# Reference cycles are reported once, naming every member.
a = b + 1
b = c + 1
c = a + 1

selfish = selfish
