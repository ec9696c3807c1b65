"""Analysis of runs: measures of recordings and trajectories (:mod:`contextsteer.metrics`),
figures and animations (:mod:`contextsteer.plotting`) and videos (:mod:`contextsteer.video`).
Matplotlib is imported by the plotting modules alone, when they are imported."""
