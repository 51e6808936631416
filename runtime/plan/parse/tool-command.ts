/** The command of a `@tool` node: its first backtick span, else the whole text; trimmed. */
export function toolCommand(text: string): string {
  return firstCodeSpan(text) ?? text.trim();
}

/**
 * The content of the first CommonMark code span: a backtick run closed by the next run of
 * the same length. An unclosed run is literal text, so the search moves on past it.
 */
function firstCodeSpan(text: string): string | undefined {
  const runs = [...text.matchAll(/`+/g)];
  for (let open = 0; open < runs.length; open++) {
    const opener = runs[open] as RegExpExecArray;
    for (let close = open + 1; close < runs.length; close++) {
      const closer = runs[close] as RegExpExecArray;
      if (closer[0].length === opener[0].length) {
        return text.slice(opener.index + opener[0].length, closer.index).trim();
      }
    }
  }
  return undefined;
}
