"""The edges where results become tables, files and plots (pandas and matplotlib live here)."""
