foo-bar = _x
naïve = héllo
日本 = a1-b2_c3
