"""Speed benchmarks behind benchmarks/RESULTS.md (`make bench`)."""
