package report

// reportCSS styles an HTML report: light, one readable column, system
// fonts only (a report loads nothing), and print rules that keep a chart
// or a table row on one page.
const reportCSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #fff; color: #1f2328; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
.report { max-width: 880px; margin: 0 auto; padding: 32px 20px 64px; }
h1 { font-size: 1.7em; line-height: 1.25; margin: 0 0 4px; }
h2 { font-size: 1.25em; margin: 40px 0 12px; padding-top: 16px; border-top: 1px solid #e5e7eb; }
h2 .n { color: #6b7280; font-weight: 600; }
.meta { color: #57606a; margin: 0 0 24px; font-size: 0.9em; }
.note { background: #fff8e1; border: 1px solid #f0d98c; border-radius: 6px; padding: 8px 12px; }
.question { margin: 0 0 16px; padding: 8px 14px; border-left: 4px solid #4f46e5; background: #f5f5ff; border-radius: 0 6px 6px 0; }
.question > :first-child { margin-top: 0; }
.question > :last-child { margin-bottom: 0; }
.cell { margin: 12px 0; }
details.code { border: 1px solid #e5e7eb; border-radius: 8px; background: #f7f7f8; }
.section-label { margin: 0 0 4px; color: #57606a; font-size: 0.8em; font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; }
details > summary { cursor: pointer; padding: 6px 12px; color: #57606a; font-size: 0.9em; }
details .chroma { margin: 0; border-radius: 0 0 8px 8px; }
.loaders { margin: 0 0 8px; }
pre, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.88em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
pre.output { margin: 8px 0; padding: 10px 14px; border: 1px solid #e5e7eb; border-radius: 8px; background: #fbfbfc; }
.table-wrap { overflow-x: auto; margin: 8px 0; }
table { border-collapse: collapse; font-size: 0.9em; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f3f4f6; }
.num { text-align: right; }
.table-note { color: #57606a; font-size: 0.85em; margin: 0 0 8px; }
figure.chart { margin: 12px 0; }
figure.chart img { display: block; max-width: 100%; height: auto; border: 1px solid #e5e7eb; border-radius: 6px; }
figcaption { color: #57606a; font-size: 0.85em; margin-top: 4px; }
.answer { margin: 16px 0 0; }
.answer table { margin: 8px 0; display: block; overflow-x: auto; }
td { white-space: nowrap; }
.error { color: #b42318; }
@media print {
  body { font-size: 11pt; }
  .report { max-width: none; padding: 0; }
  h2 { break-after: avoid; }
  figure.chart, tr, pre.output { break-inside: avoid; }
  /* On paper nothing scrolls: a wide table fits the page, its cells wrapping. */
  .table-wrap, .answer table { overflow: visible; }
  .answer table { display: table; }
  table { width: 100%; font-size: 8.5pt; }
  td { white-space: normal; overflow-wrap: anywhere; padding: 2px 4px; }
}
`
