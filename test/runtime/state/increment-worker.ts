// Spawned by state.test.ts: increments state.json's iteration N times through updateState.
import { updateState, emptyState } from '../../../runtime/state/index.js';

const [dir, times] = process.argv.slice(2);
for (let i = 0; i < Number(times); i += 1) {
  await updateState(dir!, (current) => {
    const state = current ?? emptyState();
    return { ...state, iteration: state.iteration + 1 };
  });
}
