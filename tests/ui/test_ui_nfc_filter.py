"""The question list's filter words in NFC, as the stored questions are: a word pasted from a
macOS file (decomposed Hangul, NFD) looks the same and must find the same questions."""

from __future__ import annotations

import unicodedata

from desktop.ui.models import QuestionFilter, QuestionListModel


def test_a_decomposed_filter_word_finds_the_question(qtbot):
    model = QuestionListModel()
    model.set_questions(
        [
            {"pk": 1, "id": "q1", "text": "대통령의 임기는?", "answerable": 1},
            {"pk": 2, "id": "q2", "text": "국회의 권한은?", "answerable": 1},
        ]
    )
    model.set_filter(QuestionFilter(text=unicodedata.normalize("NFD", "임기")))
    assert model.rowCount() == 1 and model.pk_at(0) == 1
