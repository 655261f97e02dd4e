"""`python -m tsograph` runs the same command line as the `tsograph` script."""

from tsograph.producers.cli import main

main()
