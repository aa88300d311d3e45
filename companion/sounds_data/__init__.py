"""The sound effects as WAV files (package data, written by sounds/synthesize.py)."""
