// A writer that appends to DECISIONS.md and events.jsonl in a tight loop until it is
// killed. record-kill.test.ts bundles it and SIGKILLs it at random moments.
import { appendDecisions, recordEvents } from '../../runtime/decisions/index.js';

const dir = process.argv[2] as string;
let i = 0;
process.stdout.write('ready\n');
for (;;) {
  const title = `pid ${process.pid} append ${i++}`;
  await appendDecisions(dir, [
    {
      title,
      fork: 'repair',
      persona: null,
      class: 'reversible',
      charter: 'Never tear an entry.',
      decision: `a decision long enough to take a while to write: ${'x'.repeat(2000)}`,
      why: 'stress',
      reversal: `remove ${title}`,
    },
    { title: `${title} (mechanical)`, mechanical: true },
  ]);
  await recordEvents(dir, [{ event: 'append', title, pad: 'y'.repeat(500) }]);
}
