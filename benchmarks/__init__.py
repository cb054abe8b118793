"""Speed benchmarks behind README's table (`make bench`)."""
