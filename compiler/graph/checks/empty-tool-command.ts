import { diagnostic, itemName, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { CheckContext } from '../context.js';
import { runsCommand } from '../../../runtime/plan/kind-facts.js';

/** `empty-tool-command`: an item that runs a command (`@tool`) but names none. */
export function emptyToolCommands(ctx: CheckContext): Diagnostic[] {
  return ctx.ir.items
    .filter((item) => runsCommand(item) && (item.command ?? '').trim() === '')
    .map((item) =>
      diagnostic(
        'empty-tool-command',
        ctx.ir.file,
        item.kindSpan ?? item.textSpan,
        `${itemName(item.index, item.text)} is a @tool with an empty command; expected the command to run after @tool`,
        [item.index],
      ),
    );
}
