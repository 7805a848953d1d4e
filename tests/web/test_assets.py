"""The stylesheets and scripts are sent minified, with the same rules (issue 21's readable
sources, kept within the bench's page weight)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
import tinycss2

from scorer.web.folders import STATIC_FOLDER

STYLESHEETS = sorted(path.name for path in Path(STATIC_FOLDER).glob("*.css"))
SCRIPTS = sorted(path.name for path in Path(STATIC_FOLDER).glob("*.js"))
# Tokens a space beside them never changes: in a rule, and in a function's arguments
# (calc(1rem + 2px) needs its spaces; a selector's child or sibling combinator in :has() or
# :not() does not, and no value of a function holds > or ~).
SPACES = {
    " ": {",", ":", ";", ">", "+", "~", "!", "{", "}", "(", ")", "[", "]"},
    "␣": {",", "(", ")", "/", ">", "~"},
}


def shape(token: str) -> str:
    """A function's opening counts as a bracket."""
    return "(" if token.endswith("(") else token


def meaning(css: str) -> list[str]:
    """A stylesheet's tokens, comments out, a space kept only where it can matter."""
    tokens: list[str] = []

    def walk(nodes: list, in_function: bool = False) -> None:
        for node in nodes:
            if node.type == "comment":
                continue
            if node.type == "whitespace":
                # In a function (calc) a space beside + or - is part of the value: kept.
                tokens.append("␣" if in_function else " ")
                continue
            content = getattr(node, "content", None)
            if content is None and node.type != "function":
                tokens.append(node.serialize())
                continue
            if node.type == "function":
                tokens.append(f"{node.name}(")
                walk(node.arguments, in_function=True)
                tokens.append(")")
            else:  # a block: {}, [] or ()
                tokens.append(node.type[0])
                walk(content)
                tokens.append(node.type[1])

    walk(tinycss2.parse_component_value_list(css))
    kept: list[str] = []
    for index, token in enumerate(tokens):
        if token in SPACES:
            before = kept[-1] if kept else None
            after = next((t for t in tokens[index + 1 :] if t not in SPACES), None)
            if before is None or after is None or before in SPACES:
                continue
            if {shape(before), shape(after)} & SPACES[token]:
                continue
        if token == ";" and next((t for t in tokens[index + 1 :] if t not in SPACES), "}") == "}":
            continue  # the last declaration's semicolon
        kept.append(token)
    return kept


@pytest.mark.parametrize("name", STYLESHEETS)
def test_a_stylesheet_is_sent_minified_with_the_same_rules(client, name):
    source = (Path(STATIC_FOLDER) / name).read_text()
    sent = client.get(f"/static/{name}")
    assert sent.status_code == 200 and sent.mimetype == "text/css"
    assert "/*" not in sent.text and len(sent.data) < len(source.encode())
    assert meaning(sent.text) == meaning(source)


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_script_is_sent_minified(client, name):
    source = (Path(STATIC_FOLDER) / name).read_bytes()
    sent = client.get("/sw.js" if name == "sw.js" else f"/static/{name}")
    assert sent.status_code == 200 and sent.mimetype in (
        "text/javascript",
        "application/javascript",
    )
    assert len(gzip.compress(sent.data)) < len(gzip.compress(source))
    assert b"/*" not in sent.data and b"\n//" not in sent.data
    # Names and strings are kept as written: only comments and spacing go.
    assert sent.data.count(b'"') == source.count(b'"') - comment_quotes(source)


def comment_quotes(source: bytes) -> int:
    """Double quotes inside the script's comments."""
    text, count = source.decode(), 0
    for part in text.split("/*")[1:]:
        count += part.split("*/")[0].count('"')
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("//"):
            count += stripped.count('"')
    return count


def test_a_range_of_a_minified_file_is_answered_whole(client):
    whole = client.get("/static/app.css")
    asked = client.get("/static/app.css", headers={"Range": "bytes=0-99"})
    assert (asked.status_code, asked.data) == (200, whole.data)
    # Other files keep their ranges.
    assert (
        client.get("/static/icons/icon-192.png", headers={"Range": "bytes=0-9"}).status_code == 206
    )


def test_a_minified_file_keeps_its_tag_and_revalidates(client):
    sent = client.get("/static/hand.js")
    again = client.get("/static/hand.js", headers={"If-None-Match": sent.headers["ETag"]})
    assert again.status_code == 304
    zipped = client.get("/static/hand.js", headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.data) == sent.data
