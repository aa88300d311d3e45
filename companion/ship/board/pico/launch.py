"""Start the firmware on the board host (MicroPython or CPython):

    micropython launch.py FLASH_DIR UART_FD [STATEMENT [STEPS_LOG:COUNT]]

FLASH_DIR holds the files as they are on the Pico's flash (main.py and the modules, .py or
.mpy); the fake `machine` and the host's clock take the place of the real ones; UART_FD is the
Bluetooth module's pipe; STATEMENT, when given, runs instead of main.py (the board's REPL, as
`mpremote exec` would; empty: main.py); STEPS_LOG:COUNT has the time of each of the first COUNT
loop steps written to that file at the end (2 bytes a step, microseconds, little-endian).
Standard input brings the samples, standard output is the USB serial port.
"""

import sys

here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
flash = sys.argv[1]
sys.path.insert(0, here)
sys.path.insert(0, flash)

import boardclock  # noqa: E402

if len(sys.argv) > 2 and int(sys.argv[2]) >= 0:
    boardclock.open_uart(int(sys.argv[2]))
if len(sys.argv) > 4:  # STEPS_LOG:COUNT, each step's time to a file
    log, count = sys.argv[4].rsplit(":", 1)
    boardclock.log_steps(log, int(count))
import fakemachine  # noqa: E402

sys.modules["time"] = boardclock
sys.modules["machine"] = fakemachine

if boardclock.next_sample():  # the clock stands at the first sample when the board starts
    boardclock.mark_step()
    try:
        if len(sys.argv) > 3 and sys.argv[3]:
            exec(sys.argv[3])
        else:
            import main  # noqa: E402, F401  (it runs the loop until the samples end)
    except boardclock.Finished:
        pass
    except Exception as error:  # the firmware failed: say how, on standard error
        if hasattr(sys, "print_exception"):
            sys.print_exception(error, sys.stderr)
        else:
            import traceback

            traceback.print_exc()
        sys.stderr.write(boardclock.report() + "\n")
        sys.exit(1)
boardclock.write_steps()
sys.stderr.write(boardclock.report() + "\n")
