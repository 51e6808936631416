// A reader for the YAML a task runner's file uses (Taskfile.yml): block mappings, block
// sequences, plain, quoted and block (`|`, `>`) scalars, and flow sequences of scalars
// (`[a, b]`). Anchors, tags, multi-document files and flow mappings are read as plain
// text. It never throws: what it cannot read is a string or null.

export type Yaml = string | null | Yaml[] | { [key: string]: Yaml };

interface Line {
  indent: number;
  text: string;
}

/** Parses the text; null when it holds nothing. */
export function readYaml(text: string): Yaml {
  const lines: Line[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*(#.*)?$/.test(raw) || /^(---|\.\.\.)\s*$/.test(raw)) {
      lines.push({ indent: -1, text: '' }); // kept for block scalars
      continue;
    }
    const indent = raw.length - raw.trimStart().length;
    lines.push({ indent, text: raw.slice(indent) });
  }
  const state = { i: 0 };
  skipBlank(lines, state);
  return state.i < lines.length ? block(lines, state, (lines[state.i] as Line).indent) : null;
}

function skipBlank(lines: Line[], state: { i: number }): void {
  while (state.i < lines.length && (lines[state.i] as Line).indent < 0) state.i++;
}

/** A block (mapping or sequence) whose lines start at `indent`. */
function block(lines: Line[], state: { i: number }, indent: number): Yaml {
  skipBlank(lines, state);
  const first = lines[state.i];
  if (!first) return null;
  if (first.text.startsWith('- ') || first.text === '-') {
    const out: Yaml[] = [];
    while (state.i < lines.length) {
      skipBlank(lines, state);
      const line = lines[state.i];
      if (!line || line.indent !== indent || !(line.text.startsWith('- ') || line.text === '-')) break;
      const rest = line.text.slice(1).trimStart();
      if (rest === '') {
        state.i++;
        skipBlank(lines, state);
        const next = lines[state.i];
        out.push(next && next.indent > indent ? block(lines, state, next.indent) : null);
      } else if (/^[^'"[{][^:]*:(\s|$)/.test(rest) || /^(['"]).*\1:(\s|$)/.test(rest)) {
        // `- key: value` starts a mapping whose other keys sit under the first.
        const inner = indent + (line.text.length - rest.length);
        lines[state.i] = { indent: inner, text: rest };
        out.push(block(lines, state, inner));
      } else {
        state.i++;
        out.push(scalar(rest, lines, state, indent));
      }
    }
    return out;
  }
  const out: { [key: string]: Yaml } = {};
  while (state.i < lines.length) {
    skipBlank(lines, state);
    const line = lines[state.i];
    if (!line || line.indent !== indent) break;
    // A key runs to the first `:` followed by a blank or the line's end (`release:*:`, `generate:mocks:`).
    const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^#'"\s][^#]*?)\s*:(?:\s+(.*))?$/.exec(line.text);
    if (!m) {
      state.i++;
      continue;
    }
    const key = unquote(m[1] as string);
    const value = (m[2] ?? '').trim();
    state.i++;
    if (value === '' || /^#/.test(value)) {
      skipBlank(lines, state);
      const next = lines[state.i];
      out[key] = next && (next.indent > indent || (next.indent === indent && next.text.startsWith('- '))) ? block(lines, state, next.indent) : null;
    } else out[key] = scalar(value, lines, state, indent);
  }
  return out;
}

/** A scalar value (after `key:` or `- `): quoted, plain, a flow sequence, or a block scalar on the lines below. */
function scalar(value: string, lines: Line[], state: { i: number }, indent: number): Yaml {
  if (/^[|>][+-]?\d*\s*(#.*)?$/.test(value)) {
    const body: string[] = [];
    let bodyIndent = -1;
    while (state.i < lines.length) {
      const line = lines[state.i] as Line;
      if (line.indent < 0) {
        body.push('');
        state.i++;
        continue;
      }
      if (line.indent <= indent) break;
      if (bodyIndent < 0) bodyIndent = line.indent;
      body.push(' '.repeat(Math.max(0, line.indent - bodyIndent)) + line.text);
      state.i++;
    }
    const text = body.join('\n').replace(/\n+$/, '');
    return value.startsWith('>') ? text.replace(/([^\n])\n(?=[^\n ])/g, '$1 ') : text;
  }
  if (value.startsWith('[') && value.endsWith(']')) {
    return value
      .slice(1, -1)
      .split(',')
      .map((v) => unquote(v.trim()))
      .filter((v) => v !== '');
  }
  const plain = value.replace(/\s+#.*$/, '');
  if (plain === 'null' || plain === '~') return null;
  return unquote(plain);
}

function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1).replace(/\\(["\\])/g, '$1').replace(/\\n/g, '\n');
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replace(/''/g, "'");
  return text;
}
