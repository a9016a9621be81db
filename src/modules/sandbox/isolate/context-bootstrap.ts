/*
 * The only code of ours that runs inside an isolate: evaluated first in every fresh context, before the tenant's
 * source, it removes what a script must not have, installs a bounded console.log and hands the host one function.
 * The host then runs the source in the same context as a classic script (sloppy unless it says 'use strict'
 * itself; either way its top-level declarations become globals, as codecs written for other network servers
 * expect) and calls the function with `ready`, or with `thrown` when the top-level code threw.
 * That function takes and returns strings only, so no object, reference or prototype ever
 * crosses the boundary in either direction; every value the script produced is serialised here, inside the
 * isolate and under the call's timeout (getters, toJSON and Proxy traps included), and the host checks the
 * string again before it believes anything in it.
 *
 * Envelopes returned to the host (one string each; the JSON parts never contain a raw newline):
 *   (empty)                                                        (ready) the entry function is declared
 *   R<t><logs JSON>\n<result JSON, empty for null/undefined>      success
 *   E<code>\n<line:column or empty>\n<t><logs JSON>\n<message>     failure (script_error, memory_limit, invalid_output, output_too_large)
 *   P<id>                                                          the script returned a thenable; collect(id) after the call
 *   N<t><logs JSON>                                                 (collect) the thenable never settled
 *   [envelope, ...] as JSON                                        (many) several calls, see many()
 *   <r>[envelope, ...] as JSON                                     (progress) r: 1 when the batch's calls all ran
 * where <t> is 1 when log lines were dropped, else 0.
 *
 * Intrinsics are captured before the tenant's source runs, so a script that patches JSON, String.prototype or
 * Promise.prototype changes only its own output, which the host validates anyway.
 *
 * `contract` says how the script is called: `transform(msg, ctx)`, or a payload codec (`decodeUplink(input)` of
 * The Things Network v3 / ChirpStack v4, `Decode(fPort, bytes, variables)` of ChirpStack v3), whose input is
 * built here from msg and ctx (`bytes` is msg.payload as the host left it: a plain array of byte numbers;
 * `recvTime` a Date of this context) and whose outcome is mapped to { payload }.
 */
export const CONTEXT_BOOTSTRAP = String.raw`(function bootstrap(filename, contract, maxResultChars, maxLogLines, maxLogBytes, maxMessageChars) {
  'use strict';
  const g = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const apply = Reflect.apply;
  const setPrototypeOf = Object.setPrototypeOf;
  const defineProperty = Object.defineProperty;
  const create = Object.create;
  const StringOf = String;
  const charCodeAt = String.prototype.charCodeAt;
  const stringSlice = String.prototype.slice;
  const regexpExec = RegExp.prototype.exec;
  const PromiseCtor = Promise;
  const RangeErrorCtor = RangeError;
  const DateCtor = Date;
  const isArray = Array.isArray;
  const promiseResolve = Promise.resolve;
  const promiseThen = Promise.prototype.then;
  const isFiniteNumber = Number.isFinite;
  const MapCtor = Map;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const stringIncludes = String.prototype.includes;
  const stringIndexOf = String.prototype.indexOf;
  const locationPattern = new RegExp(filename.replace(/[.]/g, '\\.') + ':(\\d+):(\\d+)');
  const memoryMessages = ['Array buffer allocation failed', 'Invalid string length', 'Invalid typed array length', 'Invalid array buffer length'];

  // No shared memory, no WebAssembly: neither has a use in a transform, both widen the attack surface.
  delete g.WebAssembly;
  delete g.SharedArrayBuffer;
  delete g.Atomics;

  let logs = null;
  let logBytes = 0;
  let logsTruncated = false;

  function newList() {
    const list = [];
    setPrototypeOf(list, null); // no inherited toJSON or index setters from a patched Array.prototype
    return list;
  }

  function clip(text, max) {
    return text.length > max ? apply(stringSlice, text, [0, max]) : text;
  }

  let fittingBytes = 0;
  // How many leading chars of text fit in budget UTF-8 bytes (a surrogate counts 3, never less than the host's
  // count); their size is left in fittingBytes. No destructuring: it would call a patchable iterator.
  function fitting(text, budget) {
    let bytes = 0;
    let i = 0;
    for (; i < text.length; i++) {
      const code = apply(charCodeAt, text, [i]);
      const size = code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
      if (bytes + size > budget) break;
      bytes += size;
    }
    fittingBytes = bytes;
    return i;
  }

  function format(value) {
    if (typeof value === 'string') return value;
    try {
      const json = stringify(value);
      if (typeof json === 'string') return json;
    } catch (_) {
      // not JSON: fall back to String()
    }
    try {
      return StringOf(value);
    } catch (_) {
      return '[unprintable]';
    }
  }

  function log(...args) {
    if (logs === null || logsTruncated) return;
    if (logs.length >= maxLogLines) {
      logsTruncated = true;
      return;
    }
    let line = '';
    for (let i = 0; i < args.length; i++) {
      line = (i === 0 ? '' : line + ' ') + clip(format(args[i]), maxLogBytes);
      if (line.length > maxLogBytes) break;
    }
    const chars = fitting(line, maxLogBytes - logBytes);
    if (chars < line.length) {
      logsTruncated = true;
      if (chars === 0) return;
      line = apply(stringSlice, line, [0, chars]);
    }
    logs[logs.length] = line;
    logBytes += fittingBytes;
  }

  const consoleObject = create(null);
  defineProperty(consoleObject, 'log', { value: log, enumerable: true });
  defineProperty(g, 'console', { value: consoleObject, writable: true, configurable: true, enumerable: false });

  function logPart(list, truncated) {
    return (truncated ? '1' : '0') + stringify(list);
  }

  function describe(error) {
    try {
      if ((typeof error === 'object' && error !== null) || typeof error === 'function') {
        const name = error.name;
        const message = error.message;
        if (typeof message === 'string') {
          return clip((typeof name === 'string' && name !== '' ? name + ': ' : '') + message, maxMessageChars);
        }
      }
      return clip('Uncaught ' + StringOf(error), maxMessageChars);
    } catch (_) {
      return 'Uncaught value that cannot be described';
    }
  }

  function locate(error) {
    try {
      const stack = error !== null && typeof error === 'object' ? error.stack : undefined;
      if (typeof stack !== 'string') return '';
      const match = apply(regexpExec, locationPattern, [stack]);
      return match ? match[1] + ':' + match[2] : '';
    } catch (_) {
      return '';
    }
  }

  function isMemoryError(error) {
    try {
      if (!(error instanceof RangeErrorCtor)) return false;
      const message = error.message;
      for (let i = 0; i < memoryMessages.length; i++) {
        if (typeof message === 'string' && apply(stringSlice, message, [0, memoryMessages[i].length]) === memoryMessages[i]) return true;
      }
    } catch (_) {
      // a hostile error object: not ours to classify
    }
    return false;
  }

  function failure(code, message, where, list, truncated) {
    return 'E' + code + '\n' + where + '\n' + logPart(list, truncated) + '\n' + message;
  }

  function thrown(error, list, truncated) {
    return failure(isMemoryError(error) ? 'memory_limit' : 'script_error', describe(error), locate(error), list, truncated);
  }

  function finish(value, list, truncated) {
    if (value === undefined || value === null) return 'R' + logPart(list, truncated) + '\n';
    const type = typeof value;
    if (type === 'function' || type === 'symbol' || type === 'bigint') {
      return failure('invalid_output', contract + ' returned a ' + type + '; expected an object, null or undefined', '', list, truncated);
    }
    let json;
    try {
      json = stringify(value);
    } catch (error) {
      if (isMemoryError(error)) return thrown(error, list, truncated);
      return failure('invalid_output', 'the returned value is not JSON: ' + describe(error), locate(error), list, truncated);
    }
    if (typeof json !== 'string') return failure('invalid_output', 'the returned value has no JSON form', '', list, truncated);
    if (json.length > maxResultChars) return failure('output_too_large', 'the result exceeds ' + maxResultChars + ' bytes', '', list, truncated);
    // JSON writes NaN and ±Infinity as null: the value is not stored, and the trace says so.
    if (apply(stringIncludes, json, ['null']) && warnNonFinite(value, list)) truncated = true;
    return 'R' + logPart(list, truncated) + '\n' + json;
  }

  // Puts 'warning: <path> is <value> ...' lines first in list (at most 5, then a count) for every number that is not
  // finite in value's JSON form, dropping trailing log lines to stay within the log limits. True when one was dropped.
  function warnNonFinite(value, list) {
    const found = newList();
    let more = 0;
    const paths = new MapCtor();
    try {
      stringify(value, function (key, nested) {
        const parent = this === null || typeof this !== 'object' ? undefined : apply(mapGet, paths, [this]);
        const path = parent === undefined ? '' : parent === '' ? StringOf(key) : isArray(this) ? parent + '[' + key + ']' : parent + '.' + key;
        if (typeof nested === 'number' && !isFiniteNumber(nested)) {
          if (found.length < 5) found[found.length] = clip(path, 200) + ' is ' + StringOf(nested);
          else more++;
        } else if (nested !== null && typeof nested === 'object') apply(mapSet, paths, [nested, path]);
        return nested;
      });
    } catch (_) {
      return false; // the value changed between the two serialisations (a hostile getter): no warning
    }
    if (found.length === 0) return false;
    const lines = newList();
    for (let i = 0; i < found.length; i++) lines[lines.length] = 'warning: ' + found[i] + ', not a finite number; it is not stored';
    if (more > 0) lines[lines.length] = 'warning: ' + more + ' more values are not finite numbers; they are not stored';
    let bytes = 0;
    for (let i = 0; i < lines.length; i++) {
      fitting(lines[i], maxLogBytes);
      bytes += fittingBytes;
    }
    let kept = 0;
    let keptBytes = bytes;
    while (kept < list.length && lines.length + kept < maxLogLines) {
      fitting(list[kept], maxLogBytes);
      if (keptBytes + fittingBytes > maxLogBytes) break;
      keptBytes += fittingBytes;
      kept++;
    }
    const dropped = kept < list.length;
    for (let i = kept - 1; i >= 0; i--) list[i + lines.length] = list[i];
    for (let i = 0; i < lines.length; i++) list[i] = lines[i];
    list.length = lines.length + kept;
    return dropped;
  }

  // The top-level code of the source logs here; ready() or loadFailed() reports these lines with its outcome.
  logs = newList();
  const signatures = { transform: 'transform(msg, ctx)', decodeUplink: 'decodeUplink(input)', Decode: 'Decode(fPort, bytes, variables)' };
  let entryFunction;

  // After the source ran: its entry function, read once from the global object.
  function ready() {
    try {
      entryFunction = g[contract];
    } catch (error) {
      return thrown(error, logs, logsTruncated);
    }
    if (typeof entryFunction !== 'function') {
      return failure('script_error', 'the script declares no function ' + (signatures[contract] || contract), '', logs, logsTruncated);
    }
    return '';
  }

  // The source's top-level code threw; the host read the error (as strings) and classified it.
  function loadFailed(code, message, where) {
    return failure(code === 'memory_limit' ? 'memory_limit' : 'script_error', clip(StringOf(message), maxMessageChars), StringOf(where), logs, logsTruncated);
  }

  function isObject(value) {
    return value !== null && typeof value === 'object';
  }

  // The codec's input, the way network servers build it: fPort and the receive time from the uplink envelope.
  function callCodec(msg, c) {
    const input = isObject(msg) ? msg.input : undefined;
    const connection = isObject(input) ? input.connectionData : undefined;
    const fPort = isObject(connection) ? connection.fPort : undefined;
    const observedAt = isObject(input) && typeof input.observedAt === 'string' ? input.observedAt : c.observedAt;
    const bytes = msg.payload;
    const variables = isObject(c.configuration) ? c.configuration : {};
    if (contract === 'Decode') return entryFunction(fPort, bytes, variables);
    return entryFunction({ bytes: bytes, fPort: fPort, recvTime: new DateCtor(observedAt), variables: variables });
  }

  // errors / warnings of a codec: an array of messages (a single string is taken as one); at most 20 kept.
  function messagesOf(value) {
    const list = newList();
    if (typeof value === 'string') {
      if (value !== '') list[0] = value;
    } else if (isArray(value)) {
      const length = value.length > 20 ? 20 : value.length;
      for (let i = 0; i < length; i++) list[list.length] = clip(format(value[i]), maxMessageChars);
    }
    return list;
  }

  function joined(list, separator) {
    let text = '';
    for (let i = 0; i < list.length; i++) text = i === 0 ? list[i] : text + separator + list[i];
    return text;
  }

  // What the script returned, as a transform result: codec outcomes become { payload }.
  function complete(value, list) {
    if (contract === 'transform') return finish(value, list, logsTruncated);
    if (contract === 'Decode') return finish({ payload: value === undefined ? null : value }, list, logsTruncated);
    if (!isObject(value)) {
      return failure('invalid_output', 'decodeUplink must return an object { data, warnings?, errors? }; got ' + (value === null ? 'null' : typeof value), '', list, logsTruncated);
    }
    let errors;
    let warnings;
    let data;
    try {
      errors = messagesOf(value.errors);
      warnings = messagesOf(value.warnings);
      data = value.data;
    } catch (error) {
      return thrown(error, list, logsTruncated);
    }
    if (errors.length > 0) {
      return failure('script_error', clip('decodeUplink returned errors: ' + joined(errors, '; '), maxMessageChars), '', list, logsTruncated);
    }
    for (let i = 0; i < warnings.length; i++) log('warning: ' + warnings[i]);
    return finish({ payload: data === undefined ? null : data }, list, logsTruncated);
  }

  let sequence = 0;
  const pending = create(null);

  function call(msgJson, ctxJson) {
    logs = newList();
    logBytes = 0;
    logsTruncated = false;
    const list = logs;
    let value;
    try {
      const msg = parse(msgJson);
      const c = parse(ctxJson);
      value = contract === 'transform' ? entryFunction(msg, c) : callCodec(msg, c);
    } catch (error) {
      return thrown(error, list, logsTruncated);
    }
    let thenable;
    try {
      thenable = value !== null && (typeof value === 'object' || typeof value === 'function') && typeof value.then === 'function';
    } catch (error) {
      return thrown(error, list, logsTruncated);
    }
    if (!thenable) return complete(value, list);

    // Promise jobs run in this same task, under this call's timeout; collect() reads the outcome afterwards.
    const id = StringOf(++sequence);
    pending[id] = list;
    const settle = (envelope) => {
      if (pending[id] === list) pending[id] = envelope;
    };
    try {
      apply(promiseThen, apply(promiseResolve, PromiseCtor, [value]), [
        (result) => settle(complete(result, list)),
        (error) => settle(thrown(error, list, logsTruncated)),
      ]);
    } catch (error) {
      delete pending[id];
      return thrown(error, list, logsTruncated);
    }
    return 'P' + id;
  }

  function collect(id) {
    const outcome = pending[id];
    delete pending[id];
    if (typeof outcome === 'string') return outcome;
    return 'N' + logPart(outcome === undefined ? newList() : outcome, logsTruncated);
  }

  // The envelopes of the latest batch, kept as they are made, and whether its calls all ran: a batch the timeout
  // cuts short still reports the calls it finished (progress()).
  let batch = null;
  let batchRan = false;

  // Several calls in one task: msg and ctx JSON texts alternating, separated by newlines (JSON text never holds a
  // raw one), each run exactly as call() runs it. The batch stops after a call whose outcome must end the task
  // before the next call starts: a thenable (its promise jobs run when this task ends, as they would for that call
  // alone; the host collects it and sends the rest again) or the memory limit (the host replaces the isolate).
  function many(joined) {
    const done = newList();
    batch = done;
    batchRan = false;
    let start = 0;
    while (start < joined.length) {
      const middle = apply(stringIndexOf, joined, ['\n', start]);
      if (middle < 0) break;
      let end = apply(stringIndexOf, joined, ['\n', middle + 1]);
      if (end < 0) end = joined.length;
      const envelope = call(apply(stringSlice, joined, [start, middle]), apply(stringSlice, joined, [middle + 1, end]));
      done[done.length] = envelope;
      start = end + 1;
      if (envelope[0] === 'P' || apply(stringSlice, envelope, [0, 13]) === 'Ememory_limit') break;
    }
    batchRan = true;
    return stringify(done);
  }

  // After a timeout: 0 and the envelopes of the calls the latest batch finished, when the time ran out in one of its
  // calls (not among them); 1 and its envelopes, when it ran out after them, in the promise jobs they left.
  function progress() {
    const done = batch === null ? newList() : batch;
    const ran = batchRan;
    batch = null;
    batchRan = false;
    return (ran ? '1' : '0') + stringify(done);
  }

  return function entry(kind, first, second, third) {
    if (kind === 'call') return typeof entryFunction === 'function' ? call(first, second) : failure('script_error', 'the script is not loaded', '', newList(), false);
    if (kind === 'many') {
      if (typeof entryFunction === 'function') return many(first);
      const list = newList();
      list[0] = failure('script_error', 'the script is not loaded', '', newList(), false);
      return stringify(list);
    }
    if (kind === 'progress') return progress();
    if (kind === 'collect') return collect(first);
    if (kind === 'ready') return ready();
    return loadFailed(first, second, third);
  };
})`;
