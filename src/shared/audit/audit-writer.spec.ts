import type { EntityManager } from 'typeorm';
import type { Actor, RequestContext } from '../context/request-context';
import { AuditLogEntity } from './audit-log.entity';
import { AuditEntry, AuditWriter, MAX_AUDIT_METADATA_BYTES } from './audit-writer';

type ContextView = Pick<RequestContext, 'actor' | 'http' | 'correlationId' | 'successStatus'>;

const USER: Actor = { actorType: 'user', actorId: '5d1c0a52-7d0e-4c53-9a43-0f3c1b1d2e3f' };
const IN_REQUEST: ContextView = {
  actor: USER,
  http: { method: 'POST', route: '/v1/devices/{deviceId}/assign' },
  correlationId: 'req-123',
  successStatus: 201,
};
const OUTSIDE_REQUEST: ContextView = {
  actor: { actorType: 'system', actorId: 'system' },
  http: { method: null, route: null },
  correlationId: null,
  successStatus: null,
};
const ENTRY: AuditEntry = { eventType: 'device.assigned', action: 'assign', entityType: 'device' };

/** An EntityManager that builds rows from their plain values and "saves" them as they are. */
function fakeManager() {
  const create = jest.fn((_entity: unknown, plain: Partial<AuditLogEntity>) => plain);
  const save = jest.fn(async (_entity: unknown, row: Partial<AuditLogEntity>) => row);
  return { create, save, manager: { create, save } as unknown as EntityManager };
}

async function write(entry: AuditEntry, context: ContextView = IN_REQUEST) {
  const fake = fakeManager();
  const row = await new AuditWriter(context as RequestContext).write(fake.manager, entry);
  return { row, ...fake };
}

async function writtenMetadata(metadata: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await write({ ...ENTRY, metadata })).row.metadata;
}

describe('AuditWriter', () => {
  describe('the row', () => {
    it('records the entry with the actor, correlation id, method and route of the request', async () => {
      const { row, create, save } = await write({
        ...ENTRY,
        entityId: 'dev-1',
        tenantId: 'ten-1',
        outcome: 'denied',
        errorCode: 'AUTHORIZATION_FAILED',
        metadata: { reason: 'missing_permission' },
      });
      expect(row).toEqual({
        tenantId: 'ten-1',
        eventType: 'device.assigned',
        action: 'assign',
        entityType: 'device',
        entityId: 'dev-1',
        outcome: 'denied',
        actorType: 'user',
        actorId: USER.actorId,
        correlationId: 'req-123',
        method: 'POST',
        route: '/v1/devices/{deviceId}/assign',
        statusCode: 403,
        metadata: { reason: 'missing_permission' },
      });
      expect(create).toHaveBeenCalledWith(AuditLogEntity, row);
      expect(save).toHaveBeenCalledWith(AuditLogEntity, row);
    });

    it("defaults to a successful outcome with the route's success status, without tenant, entity id or metadata", async () => {
      const { row } = await write(ENTRY);
      expect(row).toMatchObject({ tenantId: null, entityId: null, outcome: 'success', statusCode: 201, metadata: {} });
    });

    it("records a failure with its error's status, never the route's success status", async () => {
      const { row } = await write({ ...ENTRY, outcome: 'failure', errorCode: 'AUTHENTICATION_FAILED' });
      expect(row).toMatchObject({ outcome: 'failure', statusCode: 401 });
      expect((await write({ ...ENTRY, outcome: 'failure' })).row).toMatchObject({ statusCode: null });
    });

    it('records no status outside a request', async () => {
      const { row } = await write(ENTRY, OUTSIDE_REQUEST);
      expect(row).toMatchObject({ statusCode: null });
    });

    it("uses the entry's actor over the request's", async () => {
      const { row } = await write({ ...ENTRY, actor: { actorType: 'import', actorId: 'import-7' } });
      expect(row).toMatchObject({ actorType: 'import', actorId: 'import-7' });
    });

    it('outside a request, records the system with a generated system correlation id and no HTTP data', async () => {
      const { row } = await write(ENTRY, OUTSIDE_REQUEST);
      expect(row).toMatchObject({ actorType: 'system', actorId: 'system', method: null, route: null });
      expect(row.correlationId).toMatch(/^system-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    });
  });

  describe('secrets in metadata', () => {
    it.each([
      'password',
      'newPassword',
      'passwd',
      'token',
      'accessToken',
      'refresh_token',
      'secret',
      'clientSecret',
      'cookie',
      'Set-Cookie',
      'credentials',
      'Authorization',
      'apiKey',
      'api_key',
      'X-Api-Key',
    ])('drops a property named %s', async (key) => {
      await expect(writtenMetadata({ [key]: 'hunter2', deviceName: 'pump-1' })).resolves.toEqual({ deviceName: 'pump-1' });
    });

    it('drops secrets at any depth, including inside arrays', async () => {
      const metadata = await writtenMetadata({
        device: { name: 'pump-1', config: { host: 'mqtt.example.com', password: 'hunter2' } },
        users: [{ email: 'a@example.com', passwordHash: 'x' }, { email: 'b@example.com', token: 'y' }],
      });
      expect(metadata).toEqual({
        device: { name: 'pump-1', config: { host: 'mqtt.example.com' } },
        users: [{ email: 'a@example.com' }, { email: 'b@example.com' }],
      });
    });

    it('drops the whole value under a secret key, even an object', async () => {
      await expect(writtenMetadata({ credentials: { username: 'svc', scope: 'read' }, kept: 1 })).resolves.toEqual({
        kept: 1,
      });
    });

    it('keeps everything else as it was, dates included', async () => {
      const at = new Date('2025-01-02T03:04:05Z');
      const metadata = { count: 3, ok: false, nothing: null, tags: ['a', 'b'], at, changes: { from: 'a', to: 'b' } };
      await expect(writtenMetadata(metadata)).resolves.toEqual(metadata);
      await expect(writtenMetadata({ at })).resolves.toEqual({ at: expect.any(Date) });
    });

    it("leaves the caller's object untouched", async () => {
      const metadata = { name: 'pump-1', nested: { token: 'abc' } };
      await writtenMetadata(metadata);
      expect(metadata).toEqual({ name: 'pump-1', nested: { token: 'abc' } });
    });
  });

  describe('metadata size', () => {
    /** `{"blob":"…"}` whose JSON is exactly `bytes` long in UTF-8. */
    function metadataOf(bytes: number): Record<string, unknown> {
      return { blob: 'x'.repeat(bytes - '{"blob":""}'.length) };
    }

    it('is limited to 8 KiB', () => {
      expect(MAX_AUDIT_METADATA_BYTES).toBe(8192);
    });

    it('accepts metadata of exactly 8 KiB', async () => {
      await expect(writtenMetadata(metadataOf(8192))).resolves.toEqual(metadataOf(8192));
    });

    it('rejects metadata over 8 KiB, naming the event, and writes nothing', async () => {
      const fake = fakeManager();
      const writer = new AuditWriter(IN_REQUEST as RequestContext);
      await expect(writer.write(fake.manager, { ...ENTRY, metadata: metadataOf(8193) })).rejects.toThrow(
        'Audit metadata for device.assigned is 8193 bytes; the limit is 8192',
      );
      expect(fake.create).not.toHaveBeenCalled();
      expect(fake.save).not.toHaveBeenCalled();
    });

    it('counts UTF-8 bytes, not characters', async () => {
      // 4100 two-byte characters: 4111 characters of JSON, well under the limit, but 8211 bytes.
      await expect(writtenMetadata({ blob: 'é'.repeat(4100) })).rejects.toThrow('8211 bytes');
    });

    it('measures the metadata after removing secrets', async () => {
      await expect(writtenMetadata({ token: 'x'.repeat(10000), kept: true })).resolves.toEqual({ kept: true });
    });
  });
});

describe('AuditWriter secret key names', () => {
  it('keeps flags and counts that merely mention a secret word', async () => {
    const writer = new AuditWriter({ actor: { actorType: 'system', actorId: 'system' }, http: { method: null, route: null }, correlationId: 'c' } as never);
    const manager = { create: (_type: unknown, row: unknown) => row, save: async (_type: unknown, row: unknown) => row };
    const row = await writer.write(manager as never, {
      eventType: 'user.bootstrapped',
      action: 'bootstrap',
      entityType: 'user',
      metadata: { passwordChangeRequired: true, tokenCount: 2, refresh_token: 'x', tokenHash: 'y', passwordHash: 'z' },
    });
    expect(row.metadata).toEqual({ passwordChangeRequired: true, tokenCount: 2 });
  });
});
