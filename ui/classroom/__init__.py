"""A live class session on the Lesson (issue 46): the store (``store``), its codes (``codes``), who teaches and the
lesson's moves sent to the class (``control``), the teacher's panel and the student's view (``views``), the game step
played on every phone (``game``) and the tally's chart (``figures``)."""
