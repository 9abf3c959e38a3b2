echo hello
X=1
