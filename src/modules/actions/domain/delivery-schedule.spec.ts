import { MAX_DELIVERY_ATTEMPTS, retryDelayAfter, smtpFailureOf } from './delivery-schedule';

describe('delivery schedule', () => {
  it('retries after 1 min, 5 min, 30 min and 2 h, then gives up', () => {
    expect([1, 2, 3, 4, 5].map(retryDelayAfter)).toEqual([60_000, 300_000, 1_800_000, 7_200_000, null]);
    expect(MAX_DELIVERY_ATTEMPTS).toBe(5);
  });

  it('treats a 5xx reply as permanent and a 4xx reply or a connection error as transient', () => {
    expect(smtpFailureOf({ responseCode: 550, response: '550 no such user' })).toMatchObject({ code: 'smtp_550', transient: false, smtpCode: 550 });
    expect(smtpFailureOf({ responseCode: 451, response: '451 try later' })).toMatchObject({ code: 'smtp_451', transient: true });
    expect(smtpFailureOf({ code: 'ESOCKET', message: 'connect ECONNREFUSED 127.0.0.1:1' })).toMatchObject({ code: 'connection_refused', transient: true });
    expect(smtpFailureOf({ code: 'ETIMEDOUT', message: 'Timeout' })).toMatchObject({ code: 'timeout', transient: true });
  });
});
