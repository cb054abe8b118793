"""Lesson: the story of the app in steps a teacher can walk through (issue 33)."""

import streamlit as st

from ui import address_keys, first_paint, glossary, lesson, navigation, presenter
from ui.classroom import views as classroom
from ui.lesson import pack_download

navigation.page_config("Lesson")
if classroom.joining():  # a student's phone in a class session (/Lesson?join=CODE): the teacher's step alone
    classroom.student()
    st.stop()
first_paint.pending()
navigation.sidebar()
if not presenter.active():  # in presenter mode the step's title is the page's
    first_paint.intro(
        "Lesson: privacy on curved spaces, step by step",
        "Nine steps, one idea each. Look at the chart, predict the answer, then reveal it: every answer is "
        "computed from the chart's own run. Each step links to the full page with the same settings.",
    )
lesson.show()
classroom.teacher()
pack_download.show()
glossary.show("epsilon", "sigma", "sensitivity", "frechet-mean", "geodesic", "theorem-2", "riemannian-laplace",
              "euclidean-laplace", "dp-rgd")
address_keys.report()
