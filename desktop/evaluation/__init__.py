"""Evaluation: the one scorer of Recall@K and the other measures (metrics), the paired
statistics (stats), per-question scores in arrays (scored) and the comparisons between
systems (compare). Qt-free and store-free: these modules take prepared items and rankings and
import only the standard library and each other."""
