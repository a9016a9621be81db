/** Runs one replay: payload `{ replayId }`, dedup key `replay:<replayId>`. */
export const REPLAY_JOB = 'flows.replay.run';

export const replayJobKey = (replayId: string): string => `replay:${replayId}`;
