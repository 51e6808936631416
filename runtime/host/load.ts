import * as acorn from 'acorn';
import * as walk from 'acorn-walk';
import { MAX_SCRIPT_BYTES } from './limits.js';
import { HOST_PARSE_OPTIONS } from './parse-options.js';
import { MetaProblem, readMeta } from './meta.js';
import type { HostViolation, StaticCheck } from './types.js';

/**
 * Loading a workflow script (docs/host-contract.md), as a sequence of steps, each of which may
 * refuse: bytes → characters → the injected static check → parse → meta → module syntax.
 * The static check (compiler/emit/check) is the one source of the detailed rules (`with`,
 * `__wRg$`, semicolons, …); the steps here are what loading itself needs: the text, the
 * AST, the meta value and a body that can run as a function.
 */

/** A loaded script: the meta value and the body, ready to wrap. */
export interface LoadedScript {
  meta: Record<string, unknown>;
  /** The text with the meta statement blanked (newlines kept, so line numbers stay true). */
  body: string;
}

/** The loader refused the script. */
export class LoadRefusal extends Error {
  constructor(readonly violations: HostViolation[]) {
    super(violations.map((v) => `${v.line}:${v.column}: ${v.code}: ${v.message}`).join('\n'));
    this.name = 'HostLoadError';
  }
}

/** Static-check codes the host refuses a script for at load time. The other codes (absent
 * globals, Date.now, …) describe run-time behaviour, which the realm reproduces instead. */
export const LOAD_REFUSAL_CODES: ReadonlySet<string> = new Set([
  'host-contract/size',
  'host-contract/escape-character',
  'host-contract/bare-carriage-return',
  'host-contract/syntax',
  'host-contract/with',
  'host-contract/meta-first',
  'host-contract/meta-literal',
  'host-contract/meta-field',
  'host-contract/export',
  'host-contract/import',
  'host-contract/dynamic-import',
  'host-contract/reserved-identifier',
  'host-contract/missing-semicolon',
]);


const refuse = (code: string, message: string, line = 1, column = 1): never => {
  throw new LoadRefusal([{ code, message, line, column }]);
};

const at = (node: acorn.Node): { line: number; column: number } => ({
  line: node.loc?.start.line ?? 1,
  column: (node.loc?.start.column ?? 0) + 1,
});

/** Loads a script or throws LoadRefusal. */
export function loadWorkflowScript(source: string, file: string, staticCheck?: StaticCheck): LoadedScript {
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > MAX_SCRIPT_BYTES) {
    refuse('host-contract/size', `the script is ${bytes} bytes; the host loads at most ${MAX_SCRIPT_BYTES}`);
  }
  const text = source.replace(/\r\n/g, '\n');
  for (const [code, character, name] of [
    ['host-contract/escape-character', '\u001b', 'an ESC character'],
    ['host-contract/bare-carriage-return', '\r', 'a bare CR'],
  ] as const) {
    const offset = text.indexOf(character);
    if (offset >= 0) {
      const position = acorn.getLineInfo(text, offset);
      refuse(code, `found ${name}; the host refuses it`, position.line, position.column + 1);
    }
  }

  if (staticCheck) {
    const refusals = staticCheck(source, file).filter((v) => LOAD_REFUSAL_CODES.has(v.code));
    if (refusals.length > 0) {
      throw new LoadRefusal(refusals.map(({ code, message, line, column }) => ({ code, message, line, column })));
    }
  }

  let program: acorn.Program;
  try {
    program = parseApart(text);
  } catch (error) {
    const { loc } = error as { loc?: acorn.Position };
    const message = (error as Error).message.replace(/ \(\d+:\d+\)$/, '');
    return refuse('host-contract/syntax', `syntax error: ${message}`, loc?.line, (loc?.column ?? 0) + 1);
  }

  const first = program.body[0];
  let meta: Record<string, unknown>;
  try {
    meta = readMeta(first, program);
  } catch (error) {
    if (!(error instanceof MetaProblem)) throw error;
    const code = error.message.startsWith('meta must be a pure literal')
      ? 'host-contract/meta-literal'
      : error.message.startsWith('invalid meta')
        ? 'host-contract/meta-field'
        : 'host-contract/meta-first';
    const { line, column } = at(error.node);
    return refuse(code, error.message, line, column);
  }

  for (const statement of program.body.slice(1)) {
    if (statement.type === 'ImportDeclaration') refuse('host-contract/import', 'found an import; the host allows none', at(statement).line, at(statement).column);
    if (statement.type.startsWith('Export')) refuse('host-contract/export', 'found an export other than meta; the host allows none', at(statement).line, at(statement).column);
  }
  // import() and import.meta would reach past the sandbox: refused even without the static check.
  walk.simple(program, {
    ImportExpression: (node) => refuse('host-contract/dynamic-import', 'found import(); the host refuses it', at(node).line, at(node).column),
    MetaProperty: (node) => {
      if (node.meta.name === 'import') refuse('host-contract/import', 'found import.meta; the host refuses it', at(node).line, at(node).column);
    },
  });

  const metaStatement = first as acorn.Node;
  const blank = text.slice(metaStatement.start, metaStatement.end).replace(/[^\n]/g, ' ');
  return { meta, body: text.slice(0, metaStatement.start) + blank + text.slice(metaStatement.end) };
}

/**
 * Parses the file as a module. The body runs apart from meta, so a body declaring its own
 * top-level `meta` is valid in the host though one module scope refuses it: then the meta
 * statement's name is swapped for an unused one of the same length (positions stay true)
 * and put back in the AST.
 */
function parseApart(text: string): acorn.Program {
  try {
    return acorn.parse(text, HOST_PARSE_OPTIONS);
  } catch (error) {
    if (!(error as Error).message.startsWith("Identifier 'meta' has already been declared")) throw error;
    const offset = leadingMetaNameOffset(text);
    const stand = Array.from({ length: 100 }, (_, i) => `$m${String(i).padStart(2, '0')}`).find((name) => !text.includes(name));
    if (offset === null || !stand) throw error;
    const program = acorn.parse(text.slice(0, offset) + stand + text.slice(offset + 4), HOST_PARSE_OPTIONS);
    const first = program.body[0];
    if (first?.type === 'ExportNamedDeclaration' && first.declaration?.type === 'VariableDeclaration') {
      for (const declarator of first.declaration.declarations) {
        if (declarator.id.type === 'Identifier' && declarator.id.start === offset) declarator.id.name = 'meta';
      }
    }
    return program;
  }
}

/** Offset of `meta` in a leading `export const meta`, else null. */
function leadingMetaNameOffset(text: string): number | null {
  const tokens = acorn.tokenizer(text, HOST_PARSE_OPTIONS);
  const value = (token: acorn.Token) => (token as acorn.Token & { value?: unknown }).value;
  const [exportToken, kindToken, nameToken] = [tokens.getToken(), tokens.getToken(), tokens.getToken()];
  const isMeta = value(exportToken) === 'export' && value(kindToken) === 'const' && value(nameToken) === 'meta' && nameToken.end - nameToken.start === 4;
  return isMeta ? nameToken.start : null;
}
