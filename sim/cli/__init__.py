"""The thin command line: parses flags, loads and validates input, calls the library, prints.

Sub-commands are imported lazily so ``bwlab --help`` starts without importing Numba or pandas.
"""
