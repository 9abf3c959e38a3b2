X='open
