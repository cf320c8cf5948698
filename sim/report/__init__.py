"""The edges where results become tables, files and plots (pandas and matplotlib live here)."""

# float_format of the CSVs the report, rarity and demo write: 10 significant digits, more than
# any estimate here carries, and none of the binary noise of a full repr (a median of 96.8 and
# 96.8 was written 96.80000000000001)
CSV_FLOAT = "%.10g"
