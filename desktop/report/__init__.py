"""The Excel Recall@K report (issue 4): the workbook reviewers send to their team.

``write_report(project, path, ks)`` writes, in this order (the sheets named in English as here
with ``lang="en"``, else in Korean: 요약, 질문별, 누락, 비교, 검수자, 설정, 차트, 정답 근거 변경):

- **Summary** — one row per system: questions evaluated and without evidence, every measure at
  every K under the design's labels (``Recall@5``, ``CoreRecall@5``, ``Hit@5``, ``MRR@5``,
  ``nDCG@5``, …) at full precision shown with three decimals, a 95% percentile-bootstrap
  interval for each Recall@K, the systems each one beats on Recall@K in a paired randomization
  test with Holm–Bonferroni adjusted p-values (letters, as ranx's comparison table marks them),
  and its core / supporting / unassigned misses at every K; below, every pair of systems with
  its p-value, adjusted p-value and ★.
- **Chunkings** (only with documents) — per chunking, system and measure (Recall, SpanRecall,
  SpanPrecision) a figure at each K and budget, θ in the heading, and SpanRecall against the
  budget charted a line per (chunking, system). With documents every run is scored as
  ``metrics --budget --coverage`` scores it (desktop.report.span_pass): a run on another
  chunking by the span rule, '—' for what ids alone define; Misses name each item's span and
  the coverage reached; an unranked run's rank measures and short cut-offs are greyed.
- **Per question** — one row per system and question: every measure at every K (blank for a
  question without evidence, which is never averaged in), the answerable flag in force, the
  number of evidence items and the question's review status.
- **Misses** — one row per system, question and evidence item missed at the smallest K,
  with a yes/no column per K (``missed@5``, ``missed@10``: still missed at that K):
  the primary passage, its role in English and Korean, who set that role, the rank where the
  system found the item beyond K in its full stored ranking (blank: not retrieved at all), the
  passage that found it, an excerpt of the passage and the reviewers' notes.
- **Candidates** (only with ``candidates=True``, ``export --candidates``) — per system, the
  misses a candidate alternative in its top K, not judged yet, could turn into hits
  (desktop.report.candidates); the Summary counts them per system.
- **Comparison** — desktop.evaluation.compare: union Recall@K of all systems and of each pair, the
  evidence items only one system finds and those A finds and B misses, the range of every
  measure over tie orders at the cutoff (TREC runs), abstention AUROC and threshold, and
  win/tie/loss with p and Holm-adjusted p for every ordered pair, measure and K.
- **Reviewers** — lines per reviewer and kind, agreement per pair and kind (percent, Cohen's
  κ), open disagreements, single-reviewed changes, changes waiting for a second review,
  questions whose answerability is disputed, and every decision with its status.
- **Settings** — what is needed to reproduce the numbers: corpus and chunking, K list, gold
  policy, database, app version, time, and the resampling counts and seed.
- **Charts** — a bar chart of Recall@K per system for each K and the Recall@1..N curve per
  system, with the numbers they draw.
- **Gold changes** — every judgement that changes the evidence, with each reviewer's value,
  its status and the notes on that passage.

Review status of a question (Per question sheet), from the judgement log and effective gold:

- ``untouched`` — no reviewer has written any judgement line about the question;
- ``done`` — some reviewer has, its answerability is settled, every evidence item has a role in
  force (core or supporting), and nothing about it is disputed or waiting for a second
  reviewer (the window's rule, desktop.review.review_status, over all reviewers);
- ``in progress`` — anything in between.

The package, one module per part (none imports Qt):

- ``workbook`` — ``write_report``: the workbook, its sheets in order, the statistics, the file
  moved into place;
- ``sheet`` — the write-only sheet (styles, row heights, continuation sheets, the page) and
  the sheets' names in each language;
- ``cells`` — cleaning values, excerpts, sheet titles, lines of wrapped text;
- ``gold_pass`` — the pass over the questions' gold (records, decision tables) and the
  report's words for roles, statuses and changes;
- ``runs`` — the pass over the runs: Per question and Misses;
- ``span_pass`` — with documents, the runs' figures by the span rule from Project.evaluate;
- ``summary``, ``chunkings``, ``comparison``, ``reviewers`` (and Gold changes), ``settings``,
  ``charts`` — one module per sheet.

Every sheet is written in openpyxl's write-only mode, so memory does not grow with the number
of rows. Every value is cleaned before it is handed to openpyxl (a write-only sheet is dead
after an exception): characters XML cannot hold are removed, text longer than Excel's 32,767
characters is cut with a visible marker, and text that openpyxl would take for a formula or an
error code (``=…``, ``#N/A``) is stored as plain text. The file is written beside the target
under a temporary name and moved into place at the end, so a cancelled or failed export leaves
nothing behind.

A sheet whose rows grow with the data goes on in "Misses 2", "Misses 3", … past Excel's
1,048,576 rows (``MAX_ROWS``), its header repeated, and the Summary (written last) names them.
Printed or turned into a PDF, every sheet is landscape and one page wide (or as few pages
across as keep it readable, its first column repeated: ``sheet.pages_across``), its header
row repeated on each page and at most two lines tall.
"""

from desktop.report.sheet import LANGUAGES, default_language, sheet_names
from desktop.report.workbook import write_report

__all__ = ["LANGUAGES", "default_language", "sheet_names", "write_report"]
