"""The cloud ship: its serial protocol (shared with the firmware), the drop judge, the link,
the simulator, the flight log and the session that puts them between the devices and the game.
Nothing here imports pygame; `protocol.py` imports nothing at all (the Pico runs it too)."""
