"""The Lesson page: the story of the app in steps (``steps``), each a chart, a question and a takeaway
(``views``), and the "which data set?" game (``game``)."""

from ui.lesson.views import show

__all__ = ["show"]
