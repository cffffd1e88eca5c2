"""Terminal screens and input parsing for the games."""
