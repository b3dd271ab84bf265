"""Re-checking claimed verdicts without trusting the search kernels (``cloversolve audit``)."""
