"""Cloud Companion: bookkeeping for Cloud 9, Cloudship and The Cloud Mine at a real table."""

import warnings

__version__ = "0.1.0"
APP_NAME = "cloud-companion"  # the folders its settings, journal and caches live in

# On 32-bit ARM the app's pygame-ce is built without its SIMD blitters (they stop ARMv7 with a bus
# error: companion/appliance/wheelhouse.py), and pygame says so on stderr at every start; doctor
# names the blits' path instead ("blits plain C").
warnings.filterwarnings("ignore", message="Your system is neon capable", category=RuntimeWarning)
