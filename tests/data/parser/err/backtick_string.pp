a = `logs-${x}`
b = `unclosed
c = `with "quotes"`
