"""`python -m tournament.cli ...` runs the `meeple` command."""

from tournament.cli import main

main()
