"""`python -m bench`: run every section, print the table, write BENCHMARKS.md."""

from bench.run import main

raise SystemExit(main())
