import vm from 'node:vm';
import { MAX_BOUNDARY_ARRAY } from './limits.js';
import { REALM_BOOTSTRAP } from './realm-source.js';

/** The host functions the realm may call. Only strings and numbers cross; none ever throws. */
export interface RealmBridge {
  agent(prompt: string, optionsJson: string | null, problem: string | null): Promise<string>;
  phase(title: string): void;
  log(line: string): void;
  spent(): number;
  setTimer(delay: number): number;
  clearTimer(id: number): void;
}

/** The realm's entry points, as the bootstrap returns them. */
interface RealmEntry {
  settle(promise: unknown): PromiseLike<string>;
  fireTimer(id: number): string | null;
}

/** A fresh sandbox realm (docs/host-contract.md) with the workflow globals installed. */
export interface WorkflowRealm {
  /** Runs the body as `(async () => { 'use strict'; <body> })()`; resolves to the settled body as JSON. */
  runBody(body: string, file: string, sliceMs: number): Promise<string>;
  /** Fires a script timer; a JSON-encoded error when its callback threw, else null. */
  fireTimer(id: number): string | null;
  /** True for a promise made in this realm (to tell its unhandled rejections apart). */
  owns(promise: Promise<unknown>): boolean;
}

/** Creates the realm: code generation from strings and WebAssembly off, only the documented globals. */
export function createWorkflowRealm(bridge: RealmBridge, argsJson: string | undefined, budgetTotal: number | null): WorkflowRealm {
  const context = vm.createContext(Object.create(null) as object, {
    name: 'workflow',
    codeGeneration: { strings: false, wasm: false },
  });
  const promisePrototype: unknown = vm.runInContext('Promise.prototype', context);
  const install = vm.runInContext(REALM_BOOTSTRAP, context, { filename: 'workflow-host-bootstrap.js' }) as (
    bridge: RealmBridge,
    config: { argsJson: string | undefined; budgetTotal: number | null; maxArray: number },
  ) => RealmEntry;
  // Hand the realm a null-prototype copy: it must not reach host Object.prototype through the bridge.
  const bridgeCopy = Object.assign(Object.create(null) as RealmBridge, bridge);
  const config = Object.assign(Object.create(null) as object, { argsJson, budgetTotal, maxArray: MAX_BOUNDARY_ARRAY });
  const entry = install(bridgeCopy, config as { argsJson: string | undefined; budgetTotal: number | null; maxArray: number });

  return {
    runBody(body, file, sliceMs) {
      const script = new vm.Script(`(async () => { 'use strict'; ${body}\n})()`, { filename: file });
      const promise = script.runInContext(context, { timeout: sliceMs }) as unknown;
      return new Promise<string>((resolve) => {
        entry.settle(promise).then(resolve);
      });
    },
    fireTimer: (id) => entry.fireTimer(id),
    owns: (promise) => Object.getPrototypeOf(promise) === promisePrototype,
  };
}
