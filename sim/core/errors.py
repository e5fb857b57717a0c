"""The one exception type the CLI turns into a single clear error line (exit code 2)."""


class PlaytestError(Exception):
    """Bad input from the user: the message names the problem and the fix."""
