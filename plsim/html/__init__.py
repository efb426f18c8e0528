"""Self-contained HTML reports: one file with every table and figure inside it.

A report is a title, the settings, the command that reproduces it, and a list of ``Section``s.
A section holds blocks in order: ``Text`` paragraphs, ``Frame``s (polars frames as tables), ``Image``s
(PNG files, embedded as base64 data URIs) and ``Links`` to files beside the page (a run's
replays). Nothing is fetched from the network and the page has no script, so it opens the same
offline, in a mail attachment or years later. A run, a sweep
and a tune each build their sections and call ``html_report``.
"""

from plsim.html.document import Frame, Image, Links, Section, Text, html_report, page_head, write_html

__all__ = ["Frame", "Image", "Links", "Section", "Text", "html_report", "page_head", "write_html"]
