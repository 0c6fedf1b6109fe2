// The docs page at /api/docs: one self-contained HTML file (style and script inline, nothing fetched but the
// document itself), so it works with no internet access.

import { PAGE_SCRIPT } from './page-script.js';

const STYLE = `
  body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1f2937; display: flex; }
  nav { width: 15rem; height: 100vh; overflow: auto; position: sticky; top: 0; padding: 1rem; box-sizing: border-box;
        background: #f3f4f6; border-right: 1px solid #e5e7eb; flex: none; }
  nav a { display: block; color: #1d4ed8; text-decoration: none; padding: 1px 0; font-size: 13px; }
  main { flex: 1; padding: 1rem 2rem; min-width: 0; }
  #search { width: 100%; max-width: 40rem; padding: .5rem; font-size: 15px; margin: .5rem 0 1rem; }
  h2 { font-size: 17px; margin: 1.5rem 0 .4rem; font-family: ui-monospace, monospace; }
  h4 { margin: .8rem 0 .3rem; }
  details.op { border: 1px solid #e5e7eb; border-radius: 6px; margin: 4px 0; padding: 0 .75rem; }
  details.op[open] { padding-bottom: .75rem; }
  summary { cursor: pointer; padding: .4rem 0; display: flex; gap: .75rem; align-items: baseline; }
  .method { font: bold 12px ui-monospace, monospace; width: 4rem; text-align: center; border-radius: 4px; color: #fff; padding: 2px 0; }
  .get { background: #2563eb; } .post { background: #16a34a; } .put { background: #d97706; } .delete { background: #dc2626; }
  .path { font-size: 14px; }
  .summary { color: #4b5563; }
  .auth { font-size: 12px; color: #6b7280; margin-left: auto; }
  .auth.admin { color: #b91c1c; } .auth.none { color: #15803d; }
  table { border-collapse: collapse; margin: .2rem 0; font-size: 13px; }
  td { border-top: 1px solid #f3f4f6; padding: 3px 12px 3px 0; vertical-align: top; }
  td:first-child { font-family: ui-monospace, monospace; white-space: nowrap; }
  tr.head td { color: #6b7280; border: 0; }
  code, .content-type { font-family: ui-monospace, monospace; font-size: 13px; }
  .content-type { color: #6b7280; }
  .response { margin-top: .3rem; } .status { font: bold 13px ui-monospace, monospace; margin-right: .75rem; }
`;

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quarry API</title>
<style>${STYLE}</style>
</head>
<body>
<nav><strong>Areas</strong><div id="tags"></div></nav>
<main>
<h1 id="title">Quarry API</h1>
<p id="intro">Loading the OpenAPI document…</p>
<p><a href="openapi.json" id="raw">openapi.json</a> — import it into Postman or Insomnia, or generate a client from it.</p>
<input id="search" type="search" placeholder="Filter: a path, a method, a parameter name…" autofocus>
<div id="operations"></div>
</main>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
