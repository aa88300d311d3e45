"""The physical things at the table, each behind one small class with a simulated twin.

Seat buttons and LEDs (gpiozero):
- `events`   the values that cross threads: SeatPress, LedMode, the button names
- `pins`     which gpiozero pin factory to use (the Pi's own, or MockFactory on a desktop)
- `debounce` one press per burst of contact bounce (pure, time passed in)
- `seats`    SeatInput: the Buttons and LEDs of every seat, a thread-safe queue, stuck buttons,
             LED changes on a worker thread
- `router`   pure: a press + the game's public state + who sits where -> an action or a refusal,
             and what each seat's LED shows
- `table`    SeatTable: the main thread's side; routes presses to the controller, drives LEDs
- `keyboard` the desktop key map that drives the simulated pins
- `seat_test` the settings screen's model: which button was pressed, LEDs lit in turn
- `bench`    latency from a pin edge to the app's frame (`cloud-companion bench`)
Nothing here imports pygame.
"""
