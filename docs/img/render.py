#!/usr/bin/python3
"""docs/img/render.py - re-render the walkthrough's pictures from the current workbooks.

Run from the project root after a build:  /usr/bin/python3 docs/img/render.py
It writes cluster32 and compare-team70b to a scratch folder with ./build/tco, prints each
workbook to PDF with LibreOffice (soffice --headless --convert-to pdf, a throw-away profile),
turns the chosen pages into PNG with pdftoppm -png -r 80 and crops them to their content
(Pillow).  A page is chosen by the sheet name in its footer and a text it holds, so a new
row does not shift the pictures.  Needs: libreoffice-calc-nogui, fonts-crosextra-carlito
(Calibri's metrics), poppler-utils, python3-pil.

The Summary prints at about a third of full size (LibreOffice fits the sheet to one page
wide, and the "Capex lines (their prices: status)" text runs far to the right), so its page
is rendered at 240 dpi, 3 x 80, and cropped to the columns A to G: the same size on screen
as the other pages at 80 dpi.
"""
import os, shutil, subprocess, sys, tempfile
from PIL import Image

ROOT = os.getcwd()
OUT = os.path.join(ROOT, "docs", "img")
TCO = os.path.join(ROOT, "build", "tco")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("render.py: %s exited %d: %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    return r.stdout


def page_texts(pdf):
    """The text of each page of PDF, in order (pdftotext -layout, one page at a time)."""
    n = int(next(l.split()[1] for l in run(["pdfinfo", pdf]).splitlines() if l.startswith("Pages:")))
    return [run(["pdftotext", "-layout", "-f", str(i), "-l", str(i), pdf, "-"]) for i in range(1, n + 1)]


def find_page(texts, sheet, marker):
    """1-based number of the first page whose footer names SHEET and whose text holds MARKER."""
    for i, t in enumerate(texts):
        lines = [l for l in t.splitlines() if l.strip()]
        if lines and lines[-1].strip().split("  ")[0] == sheet and marker in t:
            return i + 1
    sys.exit("render.py: no page of sheet %r holds %r" % (sheet, marker))


def render(pdf, page, dpi, work):
    """PNG of one PDF page at DPI, as a Pillow image."""
    stem = os.path.join(work, "p%d-%d" % (page, dpi))
    run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", pdf, stem])
    return Image.open(stem + ".png").convert("RGB")


def content(im, right=1.0, pad=10):
    """IM cropped to its non-white content above the page footer, at most RIGHT of its width."""
    w, h = im.size
    body = im.crop((0, 0, int(w * right), int(h * 0.93)))
    gray = body.convert("L").point(lambda v: 255 if v < 245 else 0)
    box = gray.getbbox()
    return body.crop((max(box[0] - pad, 0), max(box[1] - pad, 0),
                      min(box[2] + pad, body.size[0]), min(box[3] + pad, body.size[1])))


def stack(images, gap=12):
    """IMAGES one below the other on white, GAP pixels apart."""
    w = max(i.size[0] for i in images)
    h = sum(i.size[1] for i in images) + gap * (len(images) - 1)
    out, y = Image.new("RGB", (w, h), "white"), 0
    for i in images:
        out.paste(i, (0, y))
        y += i.size[1] + gap
    return out


def save(im, name):
    path = os.path.join(OUT, name)
    im.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    print("%s %dx%d %d bytes" % (os.path.relpath(path, ROOT), im.size[0], im.size[1], os.path.getsize(path)))


def main():
    work = tempfile.mkdtemp(prefix="render-")
    try:
        books = {}
        for name, args in (("cluster32", ["--scenario", "cluster32"]),
                           ("compare-team70b", ["--compare", "compare-team70b"])):
            book = os.path.join(work, name + ".xlsx")
            run([TCO, *args, "--out", book])
            run(["soffice", "-env:UserInstallation=file://" + os.path.join(work, "profile"), "--headless",
                 "--norestore", "--convert-to", "pdf", "--outdir", work, book])
            books[name] = os.path.join(work, name + ".pdf")
        c32, cmp_ = books["cluster32"], books["compare-team70b"]
        t32, tcmp = page_texts(c32), page_texts(cmp_)

        summary = render(c32, find_page(t32, "Summary", "Key figures"), 240, work)
        save(content(summary, right=0.39), "cluster32-summary.png")
        save(content(render(c32, find_page(t32, "Inputs", "electricity_price"), 80, work)), "cluster32-inputs.png")
        save(content(render(c32, find_page(t32, "Cash flow", "Capex paid"), 80, work)), "cluster32-cashflow.png")
        save(content(render(c32, find_page(t32, "Depreciation", "Year 5"), 80, work)), "cluster32-depreciation.png")
        save(stack([content(render(c32, find_page(t32, "Budget", "2027-01"), 80, work)),
                    content(render(c32, find_page(t32, "Budget", "FY2027"), 80, work))]), "cluster32-budget.png")
        save(stack([content(render(c32, find_page(t32, "Charts", "Opex by category"), 80, work)),
                    content(render(c32, find_page(t32, "Charts", "Cumulative cost"), 80, work))]),
             "cluster32-charts.png")
        save(content(render(cmp_, find_page(tcmp, "Compare", "Master check"), 80, work)), "compare-team70b.png")
        save(content(render(cmp_, find_page(tcmp, "Shared inputs", "electricity_price"), 80, work)),
             "compare-shared-inputs.png")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
