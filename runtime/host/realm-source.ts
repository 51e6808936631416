/**
 * The code that sets up the realm, run inside it before the body (docs/host-contract.md). It
 * is plain JavaScript kept as text, so no TypeScript transform or bundler helper can leak
 * into the realm. It receives the host bridge (functions passing only strings and numbers,
 * closed over here and never exposed), installs the documented globals, makes the clock
 * and randomness throw, deletes what the sandbox lacks, freezes the built-in prototypes and
 * JSON / Math / Reflect, and returns the two entry points the host calls: settle(promise)
 * and fireTimer(id).
 */
export const REALM_BOOTSTRAP = String.raw`(function installWorkflowHost(bridge, config) {
  'use strict';
  const G = globalThis;
  const freeze = Object.freeze;
  const defineProperty = Object.defineProperty;
  const getOwnPropertyNames = Object.getOwnPropertyNames;
  const getPrototypeOf = Object.getPrototypeOf;
  const keysOf = Object.keys;
  const isArray = Array.isArray;
  const jsonParse = JSON.parse;
  const jsonStringify = JSON.stringify;
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const PromiseCtor = Promise;
  const promiseAll = Promise.all;
  const RealDate = Date;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const StringCtor = String;
  const MapCtor = Map;
  const MAX_ARRAY = config.maxArray;

  /** Errors from agent/parallel/pipeline reach the script as plain frozen objects. */
  function plainError(name, message) {
    return freeze({ name: name, message: message, stack: name + ': ' + message + '\n    at <workflow host>' });
  }
  function safeString(value) {
    try { return StringCtor(value); } catch (_) { return '[unprintable]'; }
  }
  function describeError(error) {
    if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
      let name, message;
      try { name = error.name; message = error.message; } catch (_) { /* a hostile getter */ }
      return { name: typeof name === 'string' ? name : 'Error', message: typeof message === 'string' ? message : safeString(error) };
    }
    return { name: 'Error', message: safeString(error) };
  }
  function format(value) {
    if (typeof value === 'string') return value;
    if (value instanceof ErrorCtor) return describeError(value).name + ': ' + describeError(value).message;
    try {
      const json = jsonStringify(value);
      return json === undefined ? safeString(value) : json;
    } catch (_) {
      return safeString(value);
    }
  }
  function isThenable(value) {
    try { return value !== null && typeof value === 'object' && typeof value.then === 'function'; } catch (_) { return false; }
  }
  function define(name, value) {
    defineProperty(G, name, { value: value, writable: true, configurable: true, enumerable: false });
  }

  // Runs must replay on resume: the clock and randomness throw.
  function unavailable(what) {
    return new ErrorCtor(what + ' is not available in a workflow (runs must replay on resume)');
  }
  const HostDate = function Date(value) {
    if (new.target === undefined) throw unavailable('Date()');
    if (arguments.length === 0) throw unavailable('new Date() without arguments');
    return construct(RealDate, arguments, new.target);
  };
  defineProperty(HostDate, 'length', { value: 7 });
  HostDate.prototype = RealDate.prototype;
  defineProperty(RealDate.prototype, 'constructor', { value: HostDate, writable: true, configurable: true, enumerable: false });
  HostDate.parse = RealDate.parse;
  HostDate.UTC = RealDate.UTC;
  HostDate.now = function now() { throw unavailable('Date.now()'); };
  define('Date', HostDate);
  defineProperty(Math, 'random', { value: function random() { throw unavailable('Math.random()'); }, writable: true, configurable: true, enumerable: false });

  // What the sandbox does not provide.
  const ABSENT = ['WebAssembly', 'WeakRef', 'FinalizationRegistry', 'Atomics', 'SharedArrayBuffer', 'queueMicrotask',
    'structuredClone', 'URL', 'URLSearchParams', 'Buffer', 'TextEncoder', 'TextDecoder', 'fetch', 'btoa', 'atob',
    'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'require', 'process', 'module', 'exports'];
  for (let i = 0; i < ABSENT.length; i++) delete G[ABSENT[i]];

  // agent()
  async function agent(prompt, opts) {
    const text = typeof prompt === 'string' ? prompt
      : (prompt !== null && (typeof prompt === 'object' || typeof prompt === 'function')) ? '[object]' : safeString(prompt);
    let optionsJson = null;
    let problem = null;
    if (opts === undefined || opts === null) {
      optionsJson = '{}';
    } else if (typeof opts !== 'object' || isArray(opts)) {
      problem = 'agent(): opts must be an object';
    } else {
      const keys = keysOf(opts);
      for (let i = 0; i < keys.length && problem === null; i++) {
        const kind = typeof opts[keys[i]];
        if (kind === 'function' || kind === 'symbol' || kind === 'bigint') problem = 'agent(): opts.' + keys[i] + ' must be JSON data, not a ' + kind;
      }
      if (problem === null) {
        try { optionsJson = jsonStringify(opts); } catch (error) { problem = 'agent(): opts must be JSON data (' + describeError(error).message + ')'; }
      }
    }
    const outcome = jsonParse(await bridge.agent(text, optionsJson, problem));
    if (outcome.ok) return outcome.value;
    throw plainError(outcome.error.name, outcome.error.message);
  }

  function checkArray(name, value, what) {
    if (!isArray(value)) throw plainError('TypeError', name + '(): expected ' + what);
    if (value.length > MAX_ARRAY) {
      throw plainError('RangeError', name + '(): ' + value.length + ' elements; arrays crossing the host boundary hold at most ' + MAX_ARRAY);
    }
  }

  async function settleThunk(thunk) {
    try { return await thunk(); } catch (_) { return null; }
  }

  // parallel(thunks): functions only; a thunk that throws becomes null.
  async function parallel(thunks) {
    checkArray('parallel', thunks, 'an array of functions');
    for (let i = 0; i < thunks.length; i++) {
      const thunk = thunks[i];
      if (typeof thunk === 'function') continue;
      throw plainError('TypeError', isThenable(thunk)
        ? 'parallel(): element ' + i + ' is a promise; pass a function that starts the work, () => agent(…)'
        : 'parallel(): element ' + i + ' is not a function');
    }
    const runs = [];
    for (let i = 0; i < thunks.length; i++) runs.push(settleThunk(thunks[i]));
    return apply(promiseAll, PromiseCtor, [runs]);
  }

  async function runItem(item, index, stages) {
    let previous = item;
    try {
      for (let s = 0; s < stages.length; s++) {
        previous = await stages[s](previous, item, index);
        if (previous === null) return null;
      }
      return previous;
    } catch (_) {
      return null;
    }
  }

  // pipeline(items, ...stages): stage(prev, item, index); null skips the rest; a throw makes the item null.
  async function pipeline(items) {
    checkArray('pipeline', items, 'an array of items');
    const stages = [];
    for (let s = 1; s < arguments.length; s++) {
      if (typeof arguments[s] !== 'function') throw plainError('TypeError', 'pipeline(): stage ' + s + ' is not a function');
      stages.push(arguments[s]);
    }
    const runs = [];
    for (let i = 0; i < items.length; i++) runs.push(runItem(items[i], i, stages));
    return apply(promiseAll, PromiseCtor, [runs]);
  }

  async function workflow() {
    throw plainError('Error', 'workflow(): a workflow cannot start another workflow');
  }

  function phase(title) {
    bridge.phase(safeString(title));
  }

  function log(message) {
    bridge.log(format(message));
  }

  function consoleMethod() {
    return function () {
      let line = '';
      for (let i = 0; i < arguments.length; i++) line += (i === 0 ? '' : ' ') + format(arguments[i]);
      bridge.log(line);
    };
  }
  const hostConsole = freeze({
    log: consoleMethod(), info: consoleMethod(), debug: consoleMethod(), error: consoleMethod(), warn: consoleMethod(),
  });

  const total = config.budgetTotal;
  const budget = freeze({
    total: total,
    spent: function spent() { return bridge.spent(); },
    remaining: function remaining() { return total === null ? Infinity : Math.max(0, total - bridge.spent()); },
  });

  const timers = new MapCtor();
  function setTimeout(callback, delay) {
    if (typeof callback !== 'function') throw new TypeErrorCtor('setTimeout(): the callback must be a function');
    const rest = [];
    for (let i = 2; i < arguments.length; i++) rest.push(arguments[i]);
    const ms = +delay;
    const id = bridge.setTimer(ms >= 1 && ms <= 2147483647 ? ms : 1);
    timers.set(id, { callback: callback, rest: rest });
    return id;
  }
  function clearTimeout(id) {
    if (!timers.has(id)) return;
    timers.delete(id);
    bridge.clearTimer(id);
  }
  function fireTimer(id) {
    const timer = timers.get(id);
    if (!timer) return null;
    timers.delete(id);
    try {
      apply(timer.callback, undefined, timer.rest);
      return null;
    } catch (error) {
      return jsonStringify(describeError(error));
    }
  }

  define('agent', freeze(agent));
  define('parallel', freeze(parallel));
  define('pipeline', freeze(pipeline));
  define('workflow', freeze(workflow));
  define('phase', freeze(phase));
  define('log', freeze(log));
  define('console', hostConsole);
  define('budget', budget);
  define('args', config.argsJson === undefined ? undefined : jsonParse(config.argsJson));
  define('setTimeout', freeze(setTimeout));
  define('clearTimeout', freeze(clearTimeout));

  // Freeze the built-in prototypes, the hidden intrinsic ones too, and JSON / Math / Reflect.
  const names = getOwnPropertyNames(G);
  for (let i = 0; i < names.length; i++) {
    const value = G[names[i]];
    if (typeof value !== 'function') continue;
    const prototype = value.prototype;
    // Function.prototype is itself a function.
    if (prototype !== null && (typeof prototype === 'object' || typeof prototype === 'function')) freeze(prototype);
  }
  const hidden = [
    getPrototypeOf(Uint8Array),
    getPrototypeOf(Uint8Array.prototype),
    getPrototypeOf(async function () {}),
    getPrototypeOf(function* () {}),
    getPrototypeOf(function* () {}).prototype,
    getPrototypeOf(async function* () {}),
    getPrototypeOf(async function* () {}).prototype,
    getPrototypeOf(getPrototypeOf(async function* () {}).prototype),
    getPrototypeOf([][Symbol.iterator]()),
    getPrototypeOf(getPrototypeOf([][Symbol.iterator]())),
    getPrototypeOf(new MapCtor()[Symbol.iterator]()),
    getPrototypeOf(new Set()[Symbol.iterator]()),
    getPrototypeOf(''[Symbol.iterator]()),
    getPrototypeOf('a'.matchAll(/a/g)),
  ];
  for (let i = 0; i < hidden.length; i++) freeze(hidden[i]);
  freeze(JSON);
  freeze(Math);
  freeze(Reflect);
  freeze(HostDate);

  /** The body's promise, as the JSON the host reads: { ok, result? , error? }. */
  function settle(promise) {
    return promise.then(function (value) {
      if (value === undefined) return '{"ok":true}';
      try {
        const json = jsonStringify(value);
        return json === undefined ? '{"ok":true}' : '{"ok":true,"result":' + json + '}';
      } catch (error) {
        return jsonStringify({ ok: false, error: { name: 'TypeError', message: 'the result is not JSON-cloneable: ' + describeError(error).message } });
      }
    }, function (error) {
      return jsonStringify({ ok: false, error: describeError(error) });
    });
  }

  return freeze({ settle: settle, fireTimer: fireTimer });
})`;
