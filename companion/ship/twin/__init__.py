"""A twin of the cloud ship: a physical model of the hull, its balls and its sensors
(`physics`), the real firmware running on them (`board`, `core`), and a real-time runner that
writes the firmware's lines into a pseudo-terminal and strikes the bed detectors (`runner`).
No pygame here."""
