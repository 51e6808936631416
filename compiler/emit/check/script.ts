import * as acorn from 'acorn';
import { HOST_PARSE_OPTIONS } from '../../../runtime/host/parse-options.js';

/**
 * One parse of the emitted script, shared by every rule: acorn with the host's options
 * (docs/host-contract.md), plus the facts the AST alone does not keep (semicolons the parser
 * had to insert, identifier tokens including property names).
 */
export interface ParsedScript {
  readonly file: string;
  /** The script as given. */
  readonly source: string;
  /** CRLF normalised to LF, as the host reads it; line and column numbers are unchanged. */
  readonly text: string;
  /** Null when the text does not parse. */
  readonly program: acorn.Program | null;
  readonly syntaxError: SyntaxProblem | null;
  /** Where automatic semicolon insertion ended a statement (the end of its last token). */
  readonly insertedSemicolons: readonly acorn.Position[];
  /** Every identifier and private-name token, property names included. */
  readonly nameTokens: readonly NameToken[];
}

/** An identifier as the tokenizer saw it (escapes decoded). */
export interface NameToken {
  readonly name: string;
  readonly loc: acorn.SourceLocation;
}

/** Acorn's complaint, without its "(line:column)" suffix. */
export interface SyntaxProblem {
  readonly message: string;
  readonly position: acorn.Position;
  /** Offset in `text` where the problem starts. */
  readonly offset: number;
}

/** Parses the script once for all rules; never throws. */
export function parseScript(source: string, file: string): ParsedScript {
  const text = source.replace(/\r\n/g, '\n');
  return { file, source, text, ...(parseWithMetaApart(text) ?? parseOnce(text)) };
}

type ParseResult = Pick<ParsedScript, 'program' | 'syntaxError' | 'insertedSemicolons' | 'nameTokens'>;

function parseOnce(text: string): ParseResult {
  const insertedSemicolons: acorn.Position[] = [];
  const nameTokens: NameToken[] = [];
  try {
    const program = acorn.parse(text, {
      ...HOST_PARSE_OPTIONS,
      onInsertedSemicolon: (_end, endLoc) => {
        if (endLoc) insertedSemicolons.push(endLoc);
      },
      onToken: (token) => {
        const isName = token.type === acorn.tokTypes.name || token.type === acorn.tokTypes.privateId;
        // acorn's Token typings omit `value`, which holds the decoded name.
        const { value } = token as acorn.Token & { value?: unknown };
        if (isName && token.loc && typeof value === 'string') nameTokens.push({ name: value, loc: token.loc });
      },
    });
    return { program, syntaxError: null, insertedSemicolons, nameTokens };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const { pos, loc } = error as SyntaxError & { pos?: number; loc?: acorn.Position };
    const offset = pos ?? 0;
    const syntaxError = {
      message: error.message.replace(/ \(\d+:\d+\)$/, ''),
      position: loc ?? acorn.getLineInfo(text, offset),
      offset,
    };
    return { program: null, syntaxError, insertedSemicolons, nameTokens };
  }
}

/**
 * The host runs the body apart from meta (docs/host-contract.md), so a body that declares its
 * own top-level `meta` (a bundled library may) is valid there, while one module scope
 * refuses it. Parse with the meta statement's name swapped for an unused one of the same
 * length (positions stay true), then put the name back. Null when the file does not start
 * with `export <kind> meta`: then there is nothing to keep apart.
 */
function parseWithMetaApart(text: string): ParseResult | null {
  const offset = metaNameOffset(text);
  if (offset === null) return null;
  const stand = Array.from({ length: 100 }, (_, i) => `$m${String(i).padStart(2, '0')}`).find((name) => !text.includes(name));
  if (!stand) return null;
  const parsed = parseOnce(text.slice(0, offset) + stand + text.slice(offset + 4));
  const first = parsed.program?.body[0];
  if (first?.type === 'ExportNamedDeclaration' && first.declaration?.type === 'VariableDeclaration') {
    for (const declarator of first.declaration.declarations) {
      if (declarator.id.type === 'Identifier' && declarator.id.start === offset) declarator.id.name = 'meta';
    }
  }
  const nameTokens = parsed.nameTokens.map((token) => (token.name === stand ? { ...token, name: 'meta' } : token));
  return { ...parsed, nameTokens };
}

/** Offset of `meta` in a leading `export const|let|var meta`, else null. */
function metaNameOffset(text: string): number | null {
  try {
    const tokens = acorn.tokenizer(text, HOST_PARSE_OPTIONS);
    const [exportToken, kindToken, nameToken] = [tokens.getToken(), tokens.getToken(), tokens.getToken()];
    const valueOf = (token: acorn.Token) => (token as acorn.Token & { value?: unknown }).value;
    const isMeta =
      valueOf(exportToken) === 'export' &&
      ['const', 'let', 'var'].includes(String(valueOf(kindToken))) &&
      nameToken.type === acorn.tokTypes.name &&
      valueOf(nameToken) === 'meta' &&
      nameToken.end - nameToken.start === 4;
    return isMeta ? nameToken.start : null;
  } catch {
    return null;
  }
}
