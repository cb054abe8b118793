"""Streamlit-side helpers shared by the pages (a .py file inside pages/ would become a page)."""
