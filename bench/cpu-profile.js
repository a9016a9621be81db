// Reads a V8 .cpuprofile (node --cpu-prof) and sums self time by function and by module: an npm package, a folder
// of the service (dist/...), Node's internals, or V8's own entries (garbage collector, program).
const { readFileSync } = require('node:fs');
const { sep } = require('node:path');

function moduleOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const path = url.replace(/^file:\/\//, '');
  const packages = path.split(`${sep}node_modules${sep}`);
  if (packages.length > 1) {
    const parts = packages[packages.length - 1].split(sep);
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (path.startsWith('node:')) return 'node internals';
  const dist = path.split(`${sep}dist${sep}`);
  if (dist.length > 1) {
    const parts = dist[dist.length - 1].split(sep);
    return `uplink ${parts.slice(0, Math.min(parts.length - 1, 2)).join('/') || parts[0]}`;
  }
  return path.split(sep).slice(-2).join('/');
}

/** Longer than any gap between two samples of a running process (the sampler takes one every millisecond or so). */
const STOPPED_GAP_US = 1_000_000;

/**
 * Self time (ms) by function and by module, idle time left out; only the samples taken within `window` (µs of the
 * monotonic clock, as `process.hrtime.bigint() / 1000n` in any process of the machine) when given.
 */
function summarize(file, window = { from: -Infinity, to: Infinity }) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at < window.from || at > window.to) return;
    // Such a gap is a process that was stopped (SIGSTOP), not busy: it would be charged to the function it stopped in.
    if (delta > STOPPED_GAP_US) return;
    selfMs.set(id, (selfMs.get(id) ?? 0) + delta / 1000);
  });
  const byFunction = new Map();
  const byModule = new Map();
  let total = 0;
  for (const [id, ms] of selfMs) {
    const { callFrame } = nodes.get(id);
    if (callFrame.functionName === '(idle)') continue;
    total += ms;
    const module = moduleOf(callFrame.url, callFrame.functionName);
    const name = `${callFrame.functionName || '(anonymous)'} ${module}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byModule.set(module, (byModule.get(module) ?? 0) + ms);
  }
  const top = (map, n) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, ms]) => ({ name, ms, share: ms / total }));
  return { totalMs: total, functions: top(byFunction, 15), modules: top(byModule, 15) };
}

module.exports = { summarize };

if (require.main === module) {
  const summary = summarize(process.argv[2]);
  for (const [title, rows] of [
    ['modules', summary.modules],
    ['functions', summary.functions],
  ]) {
    process.stdout.write(`${title} (self time, ${summary.totalMs.toFixed(0)} ms busy):\n`);
    for (const row of rows) process.stdout.write(`  ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.name}\n`);
  }
}
