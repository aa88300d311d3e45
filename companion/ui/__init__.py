"""The touchscreen app (pygame): app loop, layout, theme, widgets and screens.

Nothing below this package imports pygame; see screens/base.py for how a game screen is written.
"""
