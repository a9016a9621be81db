import type { as } from './http';
import { seedDeviceType, seedField, SeededDeviceType } from './devices';
import { pipelineGraph } from './flows';
import type { SeededTenant } from './tenancy';
import type { TestApp } from './test-app';
import { waitUntil } from './wait';

type Api = ReturnType<typeof as>;
let counter = 0;

export interface LiveFlow {
  type: SeededDeviceType;
  flowId: string;
  versionId: string;
}

/**
 * A device type with a number field `level` (current and time series) and its flow with `graph` (default: decode
 * a big-endian uint16 and scale it by 0.1) released and active.
 */
export async function seedLiveFlow(
  t: TestApp,
  api: Api,
  tenant: SeededTenant,
  graphOf: (type: SeededDeviceType) => unknown = (type) => pipelineGraph(type, 'level'),
  parameters?: unknown[],
): Promise<LiveFlow> {
  const type = await seedDeviceType(t, tenant);
  await seedField(t, tenant, type, { key: 'level' });
  const flow = await api.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: `live-${process.pid}-${++counter}`, name: 'Live flow' }).expect(201);
  const versionId = await releasedVersion(api, flow.body.flowId, graphOf(type), parameters);
  await api.post(`/v1/flows/${flow.body.flowId}/activate`, { flowVersionId: versionId }).set('If-Match', flow.headers.etag as string).expect(200);
  return { type, flowId: flow.body.flowId, versionId };
}

/** A released version of `graph` in the flow. */
export async function releasedVersion(api: Api, flowId: string, graph: unknown, parameters?: unknown[]): Promise<string> {
  const version = await api.post(`/v1/flows/${flowId}/versions`, parameters ? { graph, parameters } : { graph }).expect(201);
  await api.post(`/v1/flows/${flowId}/versions/${version.body.flowVersionId}/release`).expect(200);
  return version.body.flowVersionId;
}

/** Waits until none of `ids` (raw message ids) is pending; fails after `timeoutMs`. */
export function waitProcessed(t: TestApp, ids: readonly string[], timeoutMs = 15_000): Promise<void> {
  return waitUntil(
    async () => {
      const [row] = await t.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM raw_ingestion_messages WHERE raw_ingestion_message_id = ANY ($1::uuid[]) AND processing_status = 'pending'`,
        [ids],
      );
      return row!.n === 0;
    },
    timeoutMs,
    `all of ${ids.length} raw messages processed`,
  );
}
