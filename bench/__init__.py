"""The benchmarks behind `make bench`: speed, weight and growth, side by side with baselines."""
