import { retryDelayMs } from './job';

describe('retryDelayMs', () => {
  it('waits the base delay after the first failure and doubles it after each further one', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt, 1000))).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it('never waits more than an hour', () => {
    expect(retryDelayMs(20, 1000)).toBe(3_600_000);
    expect(retryDelayMs(100, 1000)).toBe(3_600_000);
  });

  it('treats an attempt number below one as the first', () => {
    expect(retryDelayMs(0, 250)).toBe(250);
  });
});
