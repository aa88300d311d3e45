"""The Raspberry Pi appliance around the app: systemd notifications, logging and crash reports,
`doctor`, backups, and the install script's plan."""
