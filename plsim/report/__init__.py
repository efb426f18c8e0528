"""A run folder's report: the figures (``model``), the CSV tables, plots and page written from
the frames (``build``), the text summary (``summary``) and report.html (``page``).

Every run writes it at the end (``plsim.runner``), ``plsim report DIR`` rebuilds it, and the
kinds of run (``plsim.runs``) put their own sections before the run's in report.html.
"""

from plsim.report.build import rebuild_report, write_report
from plsim.report.model import Report
from plsim.report.page import reproduce_command, write_report_html
from plsim.report.summary import format_summary

__all__ = ["Report", "format_summary", "rebuild_report", "reproduce_command", "write_report", "write_report_html"]
