#!/bin/sh
# Put the firmware on the ship's Pico (MicroPython already on it), over USB with mpremote.
# The protocol module is the companion's own file, copied as it is: one source for both ends.
set -e
here=$(cd "$(dirname "$0")" && pwd)
protocol="$here/../../companion/ship/protocol.py"
mpremote ${PORT:+connect "$PORT"} \
  cp "$protocol" :protocol.py + \
  cp "$here/tilt.py" "$here/motion.py" "$here/balls.py" "$here/calibration.py" "$here/messages.py" \
     "$here/ship.py" "$here/mpu6050.py" "$here/tcs34725.py" "$here/calibrate.py" : + \
  cp "$here/main.py" :main.py + \
  reset
