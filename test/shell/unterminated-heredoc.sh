cat <<EOF
body
