"""`python -m producers` runs the same command line as the `tsograph` script."""

from producers.cli import main

main()
