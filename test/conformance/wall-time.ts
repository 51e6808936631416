// Prints the conformance suite's wall time when it ends (issue: it must stay under 4 minutes on 2 cores).
let started = 0;

export function setup(): void {
  started = Date.now();
}

export function teardown(): void {
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`\nconformance suite (real Claude Code client): ${seconds.toFixed(1)} s wall\n`);
}
