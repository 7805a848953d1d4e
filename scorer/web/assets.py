"""How the app's own files (static/, the service worker) are sent.

A file is read whole, so it is compressed like a page and closed with the response. Its
stylesheets and scripts are written to be read, comments and all, with no build step; they
are sent minified (rcssmin, rjsmin: comments and spacing only, nothing renamed), once per
file version and worker, which keeps the pages a phone loads within their weight.
"""

from __future__ import annotations

import mimetypes
from functools import lru_cache

import rcssmin
import rjsmin
from flask import Flask, Response, request

# JavaScript by either name: the type comes from the host's /etc/mime.types when it has one.
MINIFIERS = {
    "text/css": rcssmin.cssmin,
    "text/javascript": rjsmin.jsmin,
    "application/javascript": rjsmin.jsmin,
}


@lru_cache(maxsize=64)  # the app has about twenty such files
def minified(mimetype: str, source: str) -> str:
    return MINIFIERS[mimetype](source)


def read_whole(response: Response) -> Response:
    """A file sent from disk (a few KB each) read whole, a stylesheet or script minified."""
    if not response.direct_passthrough:
        return response
    response.direct_passthrough = False
    source = response.response
    response.make_sequence()
    # Closed now, not when the server closes the response: a response it never sends whole
    # (a 304, a dropped connection) would leave the file open until collected.
    close = getattr(source, "close", None)
    if close is not None:
        close()
    if response.status_code == 200 and response.mimetype in MINIFIERS:
        response.set_data(minified(response.mimetype, response.get_data(as_text=True)))
    return response


def whole_files_only() -> None:
    """A range of a stylesheet or script would count bytes of the file on disk, not of what
    is sent: such a request is answered whole (as HTTP allows), minified."""
    if mimetypes.guess_type(request.path)[0] in MINIFIERS:
        request.environ.pop("HTTP_RANGE", None)


def init_app(app: Flask) -> None:
    app.before_request(whole_files_only)
    app.after_request(read_whole)
