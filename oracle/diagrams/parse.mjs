// Mermaid's own verdict on diagrams: node parse.mjs <package> <in.json> <out.json>
// <package>: mermaid-11 or mermaid-12 (package.json aliases of two mermaid releases).
// in.json: an array of diagram texts. out.json: one verdict per text, in order:
// {ok, error} or {ok, vertices: [[id, text, type, classes]], edges: [[start, end, stroke, type, text, style]]}.
// text is the label as mermaid holds it after sanitizeText (DOMPurify, securityLevel strict),
// with its entity placeholders; the renderer turns those into character references.
import { readFileSync, writeFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const { window } = new JSDOM('');
globalThis.window = window;
globalThis.document = window.document;
const { default: mermaid } = await import(process.argv[2]);
mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });

const texts = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const verdicts = [];
for (const text of texts) {
  try {
    await mermaid.parse(text);
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    const db = diagram.db;
    verdicts.push({
      ok: true,
      vertices: [...db.getVertices().values()].map((v) => [v.id, v.text, v.type ?? null, v.classes]),
      edges: db.getEdges().map((e) => [e.start, e.end, e.stroke, e.type, e.text, e.style ?? []]),
    });
  } catch (error) {
    verdicts.push({ ok: false, error: String(error.message ?? error).split('\n')[0] });
  }
}
writeFileSync(process.argv[4], JSON.stringify(verdicts));
