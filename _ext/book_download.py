"""Offer the print edition from every page's download menu.

sphinx-book-theme's download menu holds the page's source and a ".pdf" item
that only runs ``window.print()`` on the current page. This extension keeps
that item, renamed "Print this page", and adds "Whole book (PDF)", a link to
``BOOK_PDF`` at the root of the HTML build, and on each chapter "This chapter
(PDF)", a link to ``CHAPTER_PDF_DIR/<name>.pdf``, the chapter's pages cut
from the whole book. ``make book`` builds the HTML, then the PDFs (``make
pdf``, tools/build_pdf.py), and copies them there; the browser tests follow
the links, so a build without the PDFs fails them.
"""

from __future__ import annotations

from sphinx.application import Sphinx

#: Name of the PDF at the root of the HTML build (also read by the Makefile
#: and tools/build_pdf.py through ``make pdf``'s PDF_NAME).
BOOK_PDF = "kpca-book.pdf"
#: Folder of the chapters' PDFs at the root of the HTML build (tools/build_pdf.py
#: CHAPTER_PDF_DIR); a chapter's PDF is named after its page.
CHAPTER_PDF_DIR = "pdf"


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
        if pagename.startswith("chapters/") and pagename.count("/") == 1:
            name = pagename.split("/", 1)[1]
            group["buttons"].append(
                {
                    "type": "link",
                    "url": context["pathto"](
                        f"{CHAPTER_PDF_DIR}/{name}.pdf", 1
                    ),
                    "text": "This chapter (PDF)",
                    "tooltip": "Download this chapter as printed in the book",
                    "icon": "fas fa-file-pdf",
                    "label": "download-chapter-pdf-button",
                }
            )
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
