"""Offer the whole book as a PDF from every page's download menu.

sphinx-book-theme's download menu holds the page's source and a ".pdf" item
that only runs ``window.print()`` on the current page. This extension keeps
that item, renamed "Print this page", and adds "Whole book (PDF)", a link to
``BOOK_PDF`` at the root of the HTML build. ``make book`` builds the HTML, then
the PDF (``make pdf``, tools/build_pdf.py), and copies it there; the browser
test follows the link, so a build without the PDF fails the test.
"""

from __future__ import annotations

from sphinx.application import Sphinx

#: Name of the PDF at the root of the HTML build (also read by the Makefile
#: and tools/build_pdf.py through ``make pdf``'s PDF_NAME).
BOOK_PDF = "kpca-book.pdf"


def add_book_pdf(app: Sphinx, pagename, templatename, context, doctree):
    for group in context.get("header_buttons", []):
        if group.get("label") != "download-buttons":
            continue
        group["tooltip"] = "Download"
        for button in group["buttons"]:
            if button.get("label") == "download-pdf-button":
                button["text"] = "Print this page"
                button["tooltip"] = "Print this page, solutions unfolded"
                button["icon"] = "fas fa-print"
                button["label"] = "print-page-button"
        group["buttons"].append(
            {
                "type": "link",
                "url": context["pathto"](BOOK_PDF, 1),
                "text": "Whole book (PDF)",
                "tooltip": "Download the whole book as one PDF",
                "icon": "fas fa-file-pdf",
                "label": "download-book-pdf-button",
            }
        )


def setup(app: Sphinx) -> dict:
    # After sphinx-book-theme fills the header buttons (priority 501).
    app.connect("html-page-context", add_book_pdf, priority=600)
    return {
        "version": "1.0",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
