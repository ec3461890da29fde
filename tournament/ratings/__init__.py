"""Ratings from ledgers: load (ledgers -> arrays), fit (Elo, bootstrap, alpha-Rank), report."""
