import { BaseUrlPolicy } from '../src/modules/imports/domain/base-url-policy';
import { LegacySourceClient, SOURCE_LIMITS } from '../src/modules/imports/source/legacy-source.client';
import { SourceFailure } from '../src/modules/imports/source/source-failure';
import { LegacySource } from './support/legacy-source';

/*
 * The source client on its own against the real test source, with its limits scaled down so the total-time and
 * total-size budgets are reached in a test's time (the import route's tests use the real limits).
 */
describe('LegacySourceClient limits', () => {
  const source = new LegacySource();
  const policy = new BaseUrlPolicy(null, true);
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await source.start();
  });
  afterAll(() => source.close());
  beforeEach(() => {
    source.reset();
    source.tenants = Array.from({ length: 4 }, (_, i) => ({
      id: `t${i}`,
      name: `T${i}`,
      deviceTypes: [{ id: 'a', code: 'a', name: 'A' }],
      devices: Array.from({ length: 10 }, (_unused, j) => ({ id: `d${j}`, devEui: `${i}${j}`.padStart(16, '0'), name: 'D', deviceTypeId: 'a' })),
    }));
  });

  async function failureOf(client: LegacySourceClient): Promise<SourceFailure> {
    const error = await client.fetchSnapshot(policy.accept(baseUrl), { username: source.username, password: source.password }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceFailure);
    const failure = error as SourceFailure;
    expect(failure.message).not.toContain(source.password);
    expect(failure.message).not.toContain(source.accessToken);
    return failure;
  }

  it('reads every page of every tenant', async () => {
    source.pageSize = 3;
    const snapshot = await new LegacySourceClient(policy).fetchSnapshot(policy.accept(baseUrl), { username: source.username, password: source.password });
    expect(snapshot.tenantCount).toBe(4);
    expect(snapshot.deviceTypes).toHaveLength(4);
    expect(snapshot.devices).toHaveLength(40);
    expect(snapshot.devices[3]).toEqual({ sourceTenantId: 't0', record: expect.objectContaining({ id: 'd3' }) });
  });

  it('gives up with source_timeout once the whole import took longer than its total budget, each call being quick enough', async () => {
    source.pageSize = 1;
    source.misbehaviour.set('devices', { kind: 'delay', ms: 120 });
    const started = Date.now();
    const failure = await failureOf(new LegacySourceClient(policy, { ...SOURCE_LIMITS, callTimeoutMs: 1000, totalTimeoutMs: 800 }));
    expect(failure.reason).toBe('source_timeout');
    expect(Date.now() - started).toBeLessThan(800 + 500);
  });

  it('gives up with source_timeout on one slow call', async () => {
    source.misbehaviour.set('login', { kind: 'delay', ms: 2000 });
    const failure = await failureOf(new LegacySourceClient(policy, { ...SOURCE_LIMITS, callTimeoutMs: 300 }));
    expect(failure.reason).toBe('source_timeout');
  });

  it('caps the bytes of all answers together, not only of each', async () => {
    source.pageSize = 1;
    const failure = await failureOf(new LegacySourceClient(policy, { ...SOURCE_LIMITS, maxTotalBytes: 2000 }));
    expect(failure.reason).toBe('source_too_large');
  });

  it('checks the device type and device counts across source tenants', async () => {
    expect((await failureOf(new LegacySourceClient(policy, { ...SOURCE_LIMITS, devices: 39 }))).reason).toBe('source_too_large');
    expect((await failureOf(new LegacySourceClient(policy, { ...SOURCE_LIMITS, deviceTypes: 3 }))).reason).toBe('source_too_large');
  });
});
