import { jsonEqual, type JsonValue } from '../../flows/engine';

/** What one version produced for one message, as the diff compares it. */
export interface OutputSnapshot {
  status: 'succeeded' | 'failed' | 'filtered';
  current: Record<string, JsonValue>;
  timeseries: Record<string, JsonValue>;
}

export interface FieldDiff {
  /** Messages whose value for the field differs (in current values or time series). */
  changed: number;
  /** The largest |candidate - active| over the changed values that are numbers on both sides; null when none were. */
  maxAbsDelta: number | null;
}

export interface DiffExample {
  rawIngestionMessageId: string;
  deviceId: string;
  observedAt: string;
  active: OutputSnapshot;
  candidate: OutputSnapshot;
}

/**
 * How a candidate version's outputs differ from the active version's over the same stored uplinks. The four
 * categories are disjoint and sum to `messagesCompared`.
 */
export interface ReplayDiff {
  /** The active version's id. */
  comparedWith: string;
  messagesCompared: number;
  identical: number;
  changed: number;
  newlyFailing: number;
  newlySucceeding: number;
  fields: Record<string, FieldDiff>;
  examples: DiffExample[];
}

export type Comparison = 'identical' | 'changed' | 'newlyFailing' | 'newlySucceeding';

export const MAX_DIFF_EXAMPLES = 20;

export function emptyDiff(comparedWith: string): ReplayDiff {
  return { comparedWith, messagesCompared: 0, identical: 0, changed: 0, newlyFailing: 0, newlySucceeding: 0, fields: {}, examples: [] };
}

/**
 * Both failed counts as identical (neither writes anything); one failed is newly failing or newly succeeding;
 * otherwise identical means the same status and the same current values and time series, anything else changed.
 */
export function classify(active: OutputSnapshot, candidate: OutputSnapshot): Comparison {
  const activeFailed = active.status === 'failed';
  const candidateFailed = candidate.status === 'failed';
  if (activeFailed && candidateFailed) return 'identical';
  if (candidateFailed) return 'newlyFailing';
  if (activeFailed) return 'newlySucceeding';
  const same = active.status === candidate.status && jsonEqual(active.current, candidate.current) && jsonEqual(active.timeseries, candidate.timeseries);
  return same ? 'identical' : 'changed';
}

const isNumber = (value: JsonValue | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** Per field key: whether its value differs and the absolute change when both sides are numbers. */
function fieldChanges(active: OutputSnapshot, candidate: OutputSnapshot): Map<string, number | null> {
  const changes = new Map<string, number | null>();
  for (const target of ['current', 'timeseries'] as const) {
    const [before, after] = [active[target], candidate[target]];
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const [a, b] = [before[key], after[key]];
      if (jsonEqual(a, b)) continue;
      const delta = isNumber(a) && isNumber(b) ? Math.abs(b - a) : null;
      const known = changes.get(key);
      changes.set(key, known === undefined || known === null ? delta : delta === null ? known : Math.max(known, delta));
    }
  }
  return changes;
}

/** Adds one message's comparison to `diff` (in place) and returns its category. */
export function addComparison(
  diff: ReplayDiff,
  message: { rawIngestionMessageId: string; deviceId: string; observedAt: string },
  active: OutputSnapshot,
  candidate: OutputSnapshot,
): Comparison {
  const comparison = classify(active, candidate);
  diff.messagesCompared += 1;
  diff[comparison] += 1;
  for (const [key, delta] of fieldChanges(active, candidate)) {
    const field = (diff.fields[key] ??= { changed: 0, maxAbsDelta: null });
    field.changed += 1;
    if (delta !== null) field.maxAbsDelta = field.maxAbsDelta === null ? delta : Math.max(field.maxAbsDelta, delta);
  }
  if (comparison !== 'identical' && diff.examples.length < MAX_DIFF_EXAMPLES) {
    diff.examples.push({ ...message, active: snapshotOf(active), candidate: snapshotOf(candidate) });
  }
  return comparison;
}

/** The part of an execution result the diff keeps. */
export function snapshotOf(result: OutputSnapshot): OutputSnapshot {
  return { status: result.status, current: result.current, timeseries: result.timeseries };
}
