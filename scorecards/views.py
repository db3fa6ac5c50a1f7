"""Scorecard pages. Each view parses input, calls one service or selector, renders."""
