"""The application's plumbing, not its domain: the command line's arguments (parser), where
files live (paths), export targets, locks and whether a process lives (processes), logs, the
terminal's output and errors, Ctrl-C, the launch check before Qt, backups, the report's
temporary file (scratch) and the sample project. Qt-free; these modules import the
standard library, each other, `db` (backups, the journal) and `desktop.readers` (InputError,
the import kinds), never `desktop.ui`."""
