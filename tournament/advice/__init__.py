"""Move advice and terminal play: positions (histories, game records), advise, serve
(the JSON-lines engine behind `meeple advise --serve`), play (`meeple play`)."""
