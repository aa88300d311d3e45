"""What the companion adds to the cardboard: exact odds, bots and simulation, the storm
forecast, the table's records and the BG Stats export. Pure Python (no pygame) except the
drawing in companion/ui."""
