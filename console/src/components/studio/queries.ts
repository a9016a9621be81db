import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';

export type Flow = components['schemas']['FlowResponse'];
export type FlowVersion = components['schemas']['FlowVersionResponse'];

/** A flow with its ETag (the flow's lock version: activation and rollback send it as If-Match). */
export interface FlowWithTag {
  flow: Flow;
  etag: string;
}

async function withTag(call: Promise<{ data?: Flow; error?: unknown; response: Response }>): Promise<FlowWithTag> {
  const result = await call;
  const flow = await unwrap(Promise.resolve(result));
  return { flow, etag: result.response.headers.get('ETag') ?? '' };
}

export const flowKey = (flowId: string) => ['flow', flowId];
export const versionsKey = (flowId: string) => ['flow-versions', flowId];

export function useFlow(flowId: string) {
  return useQuery({ queryKey: flowKey(flowId), queryFn: () => withTag(api.GET('/v1/flows/{flowId}', { params: { path: { flowId } } })) });
}

export function useDeviceTypeFlow(deviceTypeId: string) {
  return useQuery({
    queryKey: ['device-type-flow', deviceTypeId],
    queryFn: () => withTag(api.GET('/v1/device-types/{deviceTypeId}/flow', { params: { path: { deviceTypeId } } })),
    retry: false,
  });
}

/** Every version of the flow, newest first (pages of 100 followed to the end; a flow has few versions). */
export function useVersions(flowId: string | undefined) {
  return useQuery({
    queryKey: versionsKey(flowId ?? ''),
    enabled: flowId !== undefined,
    queryFn: async () => {
      const all: FlowVersion[] = [];
      let cursor: string | undefined;
      do {
        const page = await unwrap(api.GET('/v1/flows/{flowId}/versions', { params: { path: { flowId: flowId! }, query: { limit: 100, cursor } } }));
        all.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor !== undefined && all.length < 1000);
      return all;
    },
  });
}

export function useCatalog(tenantNumber: number) {
  return useQuery({
    queryKey: ['flow-block-catalog', tenantNumber],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/flow-block-catalog', { params: { path: { tenantNumber } } })),
    staleTime: 60_000,
  });
}
