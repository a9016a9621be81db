import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { apiErrorOf, networkError } from '../../api/errors';
import type { components } from '../../api/schema';

export type Flow = components['schemas']['FlowResponse'];
export type FlowVersion = components['schemas']['FlowVersionResponse'];
export type Replay = components['schemas']['ReplayResponse'];
export type ValidationReport = components['schemas']['ValidationReportResponse'];

/** The tenant's flows (first 100: one per device type), for pickers and the template notices. */
export function useTenantFlows(tenantNumber: number) {
  return useQuery({
    queryKey: ['flows', tenantNumber, 'all'],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/flows', { params: { path: { tenantNumber }, query: { limit: 100 } } })),
  });
}

/** A flow's newest versions (at most 100), optionally of one status. */
export function useFlowVersions(flowId: string | undefined, status?: FlowVersion['status']) {
  return useQuery({
    queryKey: ['flow-versions', flowId, status ?? 'any'],
    enabled: Boolean(flowId),
    queryFn: () => unwrap(api.GET('/v1/flows/{flowId}/versions', { params: { path: { flowId: flowId! }, query: { limit: 100, ...(status ? { status } : {}) } } })),
  });
}

/** A flow read together with its ETag (its lockVersion), which activation sends back as If-Match. */
export async function flowWithEtag(flowId: string): Promise<{ flow: Flow; etag: string }> {
  const result = await api.GET('/v1/flows/{flowId}', { params: { path: { flowId } } }).catch((error: unknown) => {
    throw networkError(error);
  });
  if (!result.response.ok || !result.data) throw apiErrorOf(result.response, result.error);
  return { flow: result.data, etag: result.response.headers.get('ETag') ?? '' };
}

/** Activates a released version; the flow is read first so the If-Match is the current one. */
export async function activateVersion(flowId: string, flowVersionId: string): Promise<Flow> {
  const { etag } = await flowWithEtag(flowId);
  return unwrap(api.POST('/v1/flows/{flowId}/activate', { params: { path: { flowId }, header: { 'If-Match': etag } }, body: { flowVersionId } }));
}

/** The studio page of a flow (owned by the studio area). */
export const studioUrl = (tenantNumber: number, flow: Pick<Flow, 'deviceTypeId'>) => `/t/${tenantNumber}/device-types/${flow.deviceTypeId}/flow`;

/** The studio page of one version of a flow. */
export const versionUrl = (tenantNumber: number, flowId: string, versionNumber: number) => `/t/${tenantNumber}/flows/${flowId}/versions/${versionNumber}`;

/** The replay page; replays live under their flow, so the flow travels in the query. */
export const replayUrl = (tenantNumber: number, replay: Pick<Replay, 'replayId' | 'flowId'>) => `/t/${tenantNumber}/replays/${replay.replayId}?flowId=${replay.flowId}`;

/** Local `datetime-local` value of an instant (minutes), and back to an ISO instant. */
export function toLocalInput(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

export function fromLocalInput(value: string): string {
  return new Date(value).toISOString();
}
