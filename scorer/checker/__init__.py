"""The opening-meld checker (JSON API and plain form) and the rules of play page.

Both modules hang their routes on api.bp; importing the package registers them all.
"""

from scorer.checker import api, form

__all__ = ["api", "form"]
