"""Qt models over the review data, one table model a module: column constants, custom roles,
data() dispatching each role to a small helper, resets for reloads, dataChanged for partial
updates, and lazy fetching where a table can be long."""

from desktop.ui.models.agreement import AgreementModel
from desktop.ui.models.comparison import PairsModel, SystemsModel, TiesModel
from desktop.ui.models.disputes import DisputeModel
from desktop.ui.models.evidence import EvidenceModel
from desktop.ui.models.metrics import MetricsModel
from desktop.ui.models.question_list import QuestionFilter, QuestionListModel
from desktop.ui.models.ranking import RankingModel
from desktop.ui.models.search import SearchResultsModel

__all__ = [
    "AgreementModel",
    "DisputeModel",
    "EvidenceModel",
    "MetricsModel",
    "PairsModel",
    "QuestionFilter",
    "QuestionListModel",
    "RankingModel",
    "SearchResultsModel",
    "SystemsModel",
    "TiesModel",
]
