"""Running many deals: worker pools, checkpoints, atomic output files and locks, Ctrl-C
handling, studies, calibration and benchmarks."""
