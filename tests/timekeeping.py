"""A clock the tests move by hand: the seat code, the debouncer and the app take a clock
(monotonic seconds) so that no test sleeps through a 10 s stuck-button limit."""


class ManualClock:
    def __init__(self, start: float = 100.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
