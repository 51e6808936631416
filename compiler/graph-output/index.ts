// Views of an analyzed plan: the `--json` document, a Mermaid flowchart and a Graphviz digraph.
export type { PlanAnalysis } from './analysis.js';
export { dot, dotString } from './dot.js';
export { GraphJsonSchema, GraphNodeSchema, GraphRouteSchema, graphJson, renderGraphJson, type GraphJson } from './json.js';
export { escapeMermaid, mermaid } from './mermaid.js';
