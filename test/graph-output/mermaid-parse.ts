import { JSDOM } from 'jsdom';

// Mermaid needs a DOM even to parse; give it one before it loads, once per test file.
let parser: Promise<(text: string) => Promise<unknown>> | undefined;

/** Mermaid's own parser: resolves on a valid diagram, rejects with its error otherwise. */
export function mermaidParse(text: string): Promise<unknown> {
  parser ??= (async () => {
    const dom = new JSDOM('');
    const g = globalThis as Record<string, unknown>;
    g.window ??= dom.window;
    g.document ??= dom.window.document;
    const { default: mermaid } = await import('mermaid');
    mermaid.initialize({ startOnLoad: false });
    return (t: string) => mermaid.parse(t);
  })();
  return parser.then((parse) => parse(text));
}
