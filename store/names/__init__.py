"""Names: every entity of an index by name, alias, qualified and import name, code identifiers split into words,
misspellings, and what a file's path says about its code."""
