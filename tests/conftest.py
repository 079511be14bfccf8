import os
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path

# Qt tests run without a screen; set before anything imports Qt.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _find_reference() -> Path:
    # The copy in tests/data is the same five NIST files (see its README and LICENSE.md), kept
    # in the repository so that the oracle travels with the tests.
    for base in (ROOT / "tests" / "data", ROOT.parent / "shared"):
        candidate = base / "reference" / "trec_eval"
        if (candidate / "qrels.test").exists():
            return candidate.resolve()
    raise FileNotFoundError("trec_eval reference files not found beside the repository")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Every test gets its own data folder, so no test touches a real user's database."""
    monkeypatch.setenv("RECALL_REVIEWER_HOME", str(tmp_path / "home"))


@pytest.fixture
def db_path(tmp_path) -> Path:
    return tmp_path / "review.db"


@contextmanager
def _home(folder: Path):
    """RECALL_REVIEWER_HOME set to folder while a session's template is made (its backups and
    journal stay there), then as it was."""
    saved = os.environ.get("RECALL_REVIEWER_HOME")
    os.environ["RECALL_REVIEWER_HOME"] = str(folder)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("RECALL_REVIEWER_HOME", None)
        else:
            os.environ["RECALL_REVIEWER_HOME"] = saved


@pytest.fixture(scope="session")
def empty_template(tmp_path_factory) -> Path:
    """A database made and migrated once per test process; project starts from a copy (a
    fresh one runs every migration, with its commits' fsyncs, about 35 ms a test)."""
    from desktop.project import Project

    base = tmp_path_factory.mktemp("empty")
    with _home(base / "home"):
        Project(base / "empty.db").close()
    return base / "empty.db"


@pytest.fixture
def project(empty_template, db_path):
    """A new, empty project at db_path: a copy of the migrated template given an id of its
    own, as migration 0002 gives every new database (journals tell databases apart by it)."""
    import sqlite3

    from desktop.project import Project

    shutil.copyfile(empty_template, db_path)
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute(
            "UPDATE store_meta SET value = lower(hex(randomblob(16))) WHERE key = 'database_id'"
        )
    conn.close()
    p = Project(db_path)
    yield p
    p.close()


@pytest.fixture(scope="session")
def trec_reference() -> Path:
    return _find_reference()


@pytest.fixture(scope="session")
def sample_template(tmp_path_factory) -> Path:
    """The bundled sample imported once; tests copy the file."""
    from desktop.app.sample import load_sample
    from desktop.project import Project

    base = tmp_path_factory.mktemp("sample")
    with _home(base / "home"), Project(base / "sample.db") as project:  # backups stay in there
        list(load_sample(project))
    return base / "sample.db"


@pytest.fixture
def sample_db(sample_template, db_path) -> Path:
    shutil.copy(sample_template, db_path)
    return db_path


@pytest.fixture(scope="module")
def sample_study(tmp_path_factory) -> Path:
    """The bundled study (`demo --study`: the Constitution as one document cut three ways, a
    BM25 run on each), built once per test module."""
    from tests.helpers import cli_here

    db = tmp_path_factory.mktemp("study") / "study.db"
    done = cli_here(db, "demo", "--study")
    assert done.returncode == 0, done.stderr
    return db


@pytest.fixture
def prepared_made(monkeypatch) -> list:
    """A list that grows by one each time a metrics.Prepared is made (the real constructor,
    counted): how many times the items of a question were prepared for scoring."""
    from desktop.evaluation import metrics

    made: list[int] = []
    real = metrics.Prepared.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(metrics.Prepared, "__init__", counted)
    return made
