#!/usr/bin/env bash
# Renders every chart and table to PNG, to look at before publishing: the SVGs of
# docs/results/plots (with rsvg-convert, Debian's librsvg2-bin), the pgfplots charts (`plot --format
# pgfplots`) and the LaTeX tables (table.tex, depths.tex, theorem.tex), each compiled by
# pdflatex in an article, then pdftoppm from poppler-utils.
# Usage: scripts/render-plots.sh [RESULTS_DIR] [PNG_DIR]   (default: docs/results /tmp/tilespace-png)
set -euo pipefail
cd "$(dirname "$0")/.."
results="${1:-docs/results}"
png="${2:-/tmp/tilespace-png}"
cargo build --release --quiet
bin=target/release/tilespace
mkdir -p "$png/pgfplots"
for svg in "$results"/plots/*.svg; do
  rsvg-convert -o "$png/$(basename "${svg%.svg}").png" "$svg"
done
"$bin" plot --results "$results" --format pgfplots --log --charts "$png/pgfplots" > /dev/null
for chart in "$png"/pgfplots/*.tex; do
  name=$(basename "${chart%.tex}")
  case "$name" in doc-*) continue ;; esac
  doc="$png/pgfplots/doc-$name.tex"
  printf '%s\n' '\documentclass{article}' '\usepackage{pgfplots}\pgfplotsset{compat=1.17}' \
    '\begin{document}' '\noindent' "\\input{$name.tex}" '\end{document}' > "$doc"
  (cd "$png/pgfplots" && pdflatex -interaction=nonstopmode -halt-on-error "doc-$name.tex" > /dev/null)
  pdftoppm -png -r 100 -singlefile "$png/pgfplots/doc-$name.pdf" "$png/pgfplots-$name"
done
mkdir -p "$png/tables"
for table in table depths theorem; do
  [ -f "$results/$table.tex" ] || continue
  cp "$results/$table.tex" "$png/tables/"
  printf '%s\n' '\documentclass{article}' '\usepackage{booktabs}\usepackage{siunitx}\usepackage{longtable}' \
    '\begin{document}' "\\input{$table.tex}" '\end{document}' > "$png/tables/doc-$table.tex"
  (cd "$png/tables" && pdflatex -interaction=nonstopmode -halt-on-error "doc-$table.tex" > /dev/null)
  if grep -q "Overfull" "$png/tables/doc-$table.log"; then echo "$table.tex: overfull box" >&2; exit 1; fi
  pdftoppm -png -r 100 -f 1 -l 1 -singlefile "$png/tables/doc-$table.pdf" "$png/table-$table"
done
ls "$png"/*.png
