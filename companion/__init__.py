"""Cloud Companion: bookkeeping for Cloud 9, Cloudship and The Cloud Mine at a real table."""

__version__ = "0.1.0"
APP_NAME = "cloud-companion"  # the folders its settings, journal and caches live in
