a = """several
lines"""
b = """never closed
c = 1
