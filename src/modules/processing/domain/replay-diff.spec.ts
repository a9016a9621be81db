import { addComparison, classify, emptyDiff, MAX_DIFF_EXAMPLES, OutputSnapshot } from './replay-diff';

const ok = (current: OutputSnapshot['current'], timeseries: OutputSnapshot['timeseries'] = current): OutputSnapshot => ({ status: 'succeeded', current, timeseries });
const failed: OutputSnapshot = { status: 'failed', current: {}, timeseries: {} };
const filtered: OutputSnapshot = { status: 'filtered', current: {}, timeseries: {} };
const message = (n: number) => ({ rawIngestionMessageId: `m-${n}`, deviceId: 'd-1', observedAt: `2026-03-14T09:00:0${n % 10}.000Z` });

describe('replay diff', () => {
  it('classifies: both failed is identical, one failed is newly failing or succeeding, else same status and outputs', () => {
    expect(classify(failed, failed)).toBe('identical');
    expect(classify(ok({ a: 1 }), failed)).toBe('newlyFailing');
    expect(classify(filtered, failed)).toBe('newlyFailing');
    expect(classify(failed, ok({ a: 1 }))).toBe('newlySucceeding');
    expect(classify(failed, filtered)).toBe('newlySucceeding');
    expect(classify(ok({ a: 1, b: { x: [1, 2] } }), ok({ b: { x: [1, 2] }, a: 1 }))).toBe('identical');
    expect(classify(filtered, filtered)).toBe('identical');
    expect(classify(ok({ a: 1 }), ok({ a: 2 }))).toBe('changed');
    expect(classify(ok({ a: 1 }, {}), ok({ a: 1 }, { a: 1 }))).toBe('changed');
    // Same (empty) outputs but another status: a change a flow author must see.
    expect(classify(ok({}), filtered)).toBe('changed');
  });

  it('keeps disjoint categories that sum to messagesCompared, per-field counts and the largest numeric change', () => {
    const diff = emptyDiff('v-active');
    addComparison(diff, message(1), ok({ level: 10, label: 'x' }), ok({ level: 20, label: 'x' }));
    addComparison(diff, message(2), ok({ level: 5, label: 'x' }), ok({ level: 5.5, label: 'y' }));
    addComparison(diff, message(3), ok({ level: 5 }), ok({ level: 5 }));
    addComparison(diff, message(4), ok({ level: 7 }), failed);
    addComparison(diff, message(5), failed, ok({ level: 1 }));
    addComparison(diff, message(6), failed, failed);
    addComparison(diff, message(7), ok({ level: -3 }), ok({ level: 'high' }));
    expect(diff).toMatchObject({ comparedWith: 'v-active', messagesCompared: 7, identical: 2, changed: 3, newlyFailing: 1, newlySucceeding: 1 });
    expect(diff.identical + diff.changed + diff.newlyFailing + diff.newlySucceeding).toBe(diff.messagesCompared);
    // level differs in messages 1, 2, 4 (lost), 5 (gained), 7 (type change): counted once per message even though it is in both outputs.
    expect(diff.fields).toEqual({ level: { changed: 5, maxAbsDelta: 10 }, label: { changed: 1, maxAbsDelta: null } });
    expect(diff.examples.map((example) => example.rawIngestionMessageId)).toEqual(['m-1', 'm-2', 'm-4', 'm-5', 'm-7']);
    expect(diff.examples[0]).toEqual({
      ...message(1),
      active: { status: 'succeeded', current: { level: 10, label: 'x' }, timeseries: { level: 10, label: 'x' } },
      candidate: { status: 'succeeded', current: { level: 20, label: 'x' }, timeseries: { level: 20, label: 'x' } },
    });
  });

  it('keeps at most 20 examples, the first ones in replay order', () => {
    const diff = emptyDiff('v');
    for (let n = 0; n < 30; n++) addComparison(diff, message(n), ok({ level: n }), ok({ level: n * 2 + 1 }));
    expect(diff.changed).toBe(30);
    expect(diff.examples).toHaveLength(MAX_DIFF_EXAMPLES);
    expect(diff.examples.at(-1)?.rawIngestionMessageId).toBe('m-19');
    expect(diff.fields.level).toEqual({ changed: 30, maxAbsDelta: 30 });
  });

  it('accumulates across batches through its JSON form (a resumed replay continues the stored diff)', () => {
    const diff = emptyDiff('v');
    addComparison(diff, message(1), ok({ level: 1 }), ok({ level: 2 }));
    const resumed = JSON.parse(JSON.stringify(diff)) as typeof diff;
    addComparison(resumed, message(2), ok({ level: 1 }), ok({ level: 4 }));
    expect(resumed).toMatchObject({ messagesCompared: 2, changed: 2, fields: { level: { changed: 2, maxAbsDelta: 3 } } });
  });
});
