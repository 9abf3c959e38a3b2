cat > notes.txt <<EOF
torchrun fake.py --tensor-model-parallel-size 99 "unbalanced
EOF
cat <<-'END'
	$(( not arithmetic
	END
torchrun pretrain_gpt.py --tensor-model-parallel-size 2
