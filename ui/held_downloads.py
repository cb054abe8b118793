"""A deferred download's file stays on the server until the browser has fetched it.

Streamlit 1.67 builds a deferred download (``st.download_button(data=callable)``) when it is clicked and
stores the file without tying it to any session, so repeated clicks build it again. Its media file
manager drops unreferenced download files at the second orphan sweep, and a sweep ends every script run
of every session: with a few sessions rerunning, two sweeps can fall between the click's reply and the
browser's fetch of the file, which then answers 404 ("Download Button source error - 404" in the
browser's console; 2 of 214 downloads on the Samplers page under 8 sessions). ``hold_deferred_files``
makes the manager record each built file as one of the clicking session's files, under the button's
place on the page: the session's next run releases it, like the page's other files.
"""

from __future__ import annotations

from streamlit import runtime

#: Appended to a button's coordinates for the file its click built (a place no element takes).
_BUILT = "/built"


def hold_deferred_files() -> None:
    """Make the running server's media file manager keep every file a deferred download builds until
    the next run of the session that clicked; later calls, and calls without a server, do nothing."""
    if not runtime.exists():
        return
    manager = runtime.get_instance().media_file_mgr
    if getattr(manager, "holds_deferred_files", False):
        return
    build = manager.execute_deferred

    def execute_deferred(file_id: str) -> str:
        with manager._lock:
            entry = manager._deferred_callables.get(file_id)
        url = build(file_id)
        if entry is not None:
            built_id = url.rsplit("/", 1)[-1].split(".", 1)[0]
            with manager._lock:
                manager._files_by_session_and_coord[entry["session_id"]][entry["coordinates"] + _BUILT] = built_id
        return url

    manager.execute_deferred = execute_deferred
    manager.holds_deferred_files = True
