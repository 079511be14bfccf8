import os
import sys
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


@pytest.fixture
def project(db_path):
    from desktop.project import Project

    p = Project(db_path)
    yield p
    p.close()


@pytest.fixture(scope="session")
def trec_reference() -> Path:
    return _find_reference()
