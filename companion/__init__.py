"""Cloud Companion: bookkeeping for Cloud 9, Cloudship and The Cloud Mine at a real table."""

__version__ = "0.1.0"
