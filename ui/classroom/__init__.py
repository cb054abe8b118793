"""A live class session on the Lesson (issue 46): the store (``store``), its codes (``codes``), the teacher's
panel and the student's view (``views``)."""
