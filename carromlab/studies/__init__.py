"""Rule-balance studies as files: ``spec.py`` (the study file: arms, questions, size, strengths
and physics priors; checked before anything is played), ``questions.py`` (what is estimated
from an arm's game rows, and how two arms compare), ``run.py`` (the arms' games on an
executor, resumable, the same rows whatever the executor). The report is
:class:`carromlab.reports.StudyReport`; the command line ``carromlab study run|report``
(docs/studies-guide.md)."""

from carromlab.studies.spec import Arm, Study, load_study, parse_study

__all__ = ["Arm", "Study", "load_study", "parse_study"]
