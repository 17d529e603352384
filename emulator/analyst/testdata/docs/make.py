"""Writes the document fixtures of docs_sandbox_test.go: one small file of each type the Code
Interpreter article lists, plus .xls. Run with Debian's python3 (python3-docx, python3-xlwt,
matplotlib, PIL); the outputs are committed, so the tests need none of the writers."""
import io, os, tarfile, zipfile

import docx
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))


def write(name, text):
    with open(os.path.join(here, name), "w") as f:
        f.write(text)


write("notes.md", """# Quarterly notes

The budget for 2024 grew by 12 percent.

## Risks

Supplier delays may push the launch to March.
The budget review is in June.
""")
write("minutes.txt", """Minutes of the planning meeting
Present: Ana, Ben, Chloe

We agreed to move the warehouse to Leeds.
The budget stays as approved.
Next meeting: 3 March.
""")
write("paper.tex", r"""\documentclass{article}
\title{Demand under uncertainty}
\begin{document}
\maketitle
\section{Introduction}
Demand for bread is stable.
\section{Method}
We fit a simple model.
\subsection{Data}
Sales from 2020 to 2023.
\end{document}
""")
write("etl.py", """import os
import pandas as pd
from pathlib import Path


class Loader:
    def read(self, path):
        return pd.read_csv(path)


def clean(df):
    return df.dropna()


def main():
    print(clean(Loader().read(Path(os.environ["IN"]))))
""")
write("app.js", """import { readFile } from 'fs/promises';
const path = require('path');

function total(items) {
  return items.reduce((a, b) => a + b, 0);
}

const average = (items) => total(items) / items.length;

export class Basket {
  constructor() { this.items = []; }
}
""")
write("app.ts", """import { Request } from 'express';

export function handler(req: Request): string {
  return req.path;
}

export const double = (n: number) => n * 2;
""")
write("Main.java", """import java.util.List;
import java.util.ArrayList;

public class Main {
    public static void main(String[] args) {
        List<String> names = new ArrayList<>();
        System.out.println(count(names));
    }

    static int count(List<String> names) {
        return names.size();
    }
}
""")
write("stats.c", """#include <stdio.h>
#include "stats.h"

double mean(const double *xs, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += xs[i];
    return s / n;
}

int main(void) {
    double xs[] = {1, 2, 3};
    printf("%f\\n", mean(xs, 3));
    return 0;
}
""")
write("grid.cpp", """#include <vector>
#include <iostream>

class Grid {
public:
    int cells() const { return w * h; }
    int w = 2, h = 3;
};

int area(const Grid& g) {
    return g.cells();
}

int main() {
    std::cout << area(Grid{}) << std::endl;
}
""")
write("index.php", """<?php
require_once 'config.php';
use App\\Models\\User;

function greet($name) {
    return "Hello " . $name;
}

echo greet("Ana");
""")
write("report.rb", """require 'csv'
require_relative 'helpers'

class Report
  def initialize(rows)
    @rows = rows
  end

  def total
    @rows.sum
  end
end
""")
write("style.css", """body { margin: 0; font-family: sans-serif; }
/* cards */
.card { padding: 1rem; }
.card h2 { color: #333; }
""")
write("page.html", """<!doctype html>
<html><head><title>Branch sales</title><style>td{color:red}</style></head>
<body>
<h1>Branch sales</h1>
<p>Sales by branch for the first quarter; the budget was met in Leeds.</p>
<h2>Table</h2>
<table>
<tr><th>branch</th><th>sales</th></tr>
<tr><td>Leeds</td><td>120</td></tr>
<tr><td>York</td><td>95</td></tr>
<tr><td>Hull</td><td>60</td></tr>
</table>
<script>var hidden = "not text";</script>
</body></html>
""")
write("catalog.xml", """<?xml version="1.0" encoding="UTF-8"?>
<catalog>
  <book><title>Dune</title><author>Herbert</author><price>9.99</price></book>
  <book><title>Emma</title><author>Austen</author><price>4.50</price></book>
  <book><title>Ulysses</title><author>Joyce</author><price>12.00</price></book>
</catalog>
""")

d = docx.Document()
d.core_properties.title = "Travel policy"
d.add_heading("Travel policy", 0)
d.add_paragraph("Staff book trains for trips under four hours.")
d.add_heading("Budget", 1)
d.add_paragraph("The travel budget is reviewed every quarter.")
t = d.add_table(rows=3, cols=2)
for r, row in enumerate([("grade", "daily allowance"), ("junior", "40"), ("senior", "60")]):
    for c, v in enumerate(row):
        t.cell(r, c).text = v
d.save(os.path.join(here, "policy.docx"))

# A two-slide deck written as its XML parts: python-pptx is not packaged in Debian.
def slide(title, body):
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
            'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree>'
            '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>'
            f'<p:txBody><a:p><a:r><a:t>{title}</a:t></a:r></a:p></p:txBody></p:sp>'
            '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr>'
            f'<p:txBody><a:p><a:r><a:t>{body}</a:t></a:r></a:p></p:txBody></p:sp>'
            '</p:spTree></p:cSld></p:sld>')
with zipfile.ZipFile(os.path.join(here, "deck.pptx"), "w") as z:
    z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
    z.writestr("ppt/presentation.xml", '<?xml version="1.0"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>')
    z.writestr("ppt/slides/slide1.xml", slide("Q1 results", "Revenue rose in every region."))
    z.writestr("ppt/slides/slide2.xml", slide("Next steps", "Hire two analysts; cut the budget for travel."))

plt.rcParams["pdf.fonttype"] = 42  # TrueType, so the text can be extracted
from matplotlib.backends.backend_pdf import PdfPages
with PdfPages(os.path.join(here, "report.pdf")) as pdf:
    for lines in (["Annual report", "Revenue grew to 4 million."], ["Outlook", "The budget for hiring doubles."]):
        fig = plt.figure(figsize=(4, 3))
        for i, l in enumerate(lines):
            fig.text(0.1, 0.8 - 0.15 * i, l)
        pdf.savefig(fig)
        plt.close(fig)

img = Image.new("RGB", (40, 20), "#ffffff")
for x in range(10):
    for y in range(20):
        img.putpixel((x, y), (0, 0, 255))
img.save(os.path.join(here, "logo.png"))
img.save(os.path.join(here, "photo.jpg"), quality=95)
frames = [Image.new("P", (16, 16), c) for c in (0, 1, 2)]
frames[0].save(os.path.join(here, "spinner.gif"), save_all=True, append_images=frames[1:])

a = "region,sales\nNorth,10\nSouth,20\nEast,5\n"
b = "region,staff\nNorth,3\nSouth,4\n"
with zipfile.ZipFile(os.path.join(here, "bundle.zip"), "w") as z:
    z.writestr("sales.csv", a)
    z.writestr("staff/staff.csv", b)
    z.writestr("README.txt", "Two tables: sales and staff.\n")
    z.writestr("../escape.txt", "a member's path must not climb out\n")
with tarfile.open(os.path.join(here, "bundle.tar"), "w") as t:
    for name, text in (("sales.csv", a), ("notes.md", "# Notes\nSales are in thousands.\n")):
        info = tarfile.TarInfo(name)
        info.size = len(text.encode())
        t.addfile(info, io.BytesIO(text.encode()))

import xlwt
wb = xlwt.Workbook()
for name, rows in (("2023", [("month", "sales"), ("Jan", 10), ("Feb", 12)]), ("2024", [("month", "sales"), ("Jan", 14), ("Feb", 15), ("Mar", 9)])):
    ws = wb.add_sheet(name)
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            ws.write(r, c, v)
wb.save(os.path.join(here, "history.xls"))
