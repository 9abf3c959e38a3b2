X=${A:-x
