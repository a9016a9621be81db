import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { Failure } from './Failure';
import { flowKey, versionsKey, type FlowVersion, type FlowWithTag } from './queries';

/**
 * Activates a released version, or rolls back to an older one, sending the flow's ETag as If-Match: a flow
 * changed since it was read (another activation) answers 409 and the page offers a reload.
 */
export function ActivateButton({ current, version, onDone }: { current: FlowWithTag; version: FlowVersion; onDone?: () => void }) {
  const queryClient = useQueryClient();
  const { flow, etag } = current;
  const rollback = flow.activeVersionNumber !== null && version.versionNumber < flow.activeVersionNumber;
  const verb = rollback ? 'Roll back to' : 'Activate';
  const activate = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/v1/flows/{flowId}/activate', { params: { path: { flowId: flow.flowId }, header: { 'If-Match': etag } }, body: { flowVersionId: version.flowVersionId } })),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: flowKey(flow.flowId) }),
        queryClient.invalidateQueries({ queryKey: ['device-type-flow', flow.deviceTypeId] }),
        queryClient.invalidateQueries({ queryKey: versionsKey(flow.flowId) }),
      ]);
      onDone?.();
    },
  });
  if (version.status !== 'released' || flow.activeVersionId === version.flowVersionId) return null;
  return (
    <>
      <button
        type="button"
        className={rollback ? 'danger' : 'primary'}
        disabled={activate.isPending}
        onClick={() => (!rollback || window.confirm(`Roll back the live flow from version ${flow.activeVersionNumber} to version ${version.versionNumber}?`)) && activate.mutate()}
      >
        {verb} version {version.versionNumber}
      </button>
      {activate.error ? (
        <Failure
          error={activate.error}
          what="flow"
          onReload={() => {
            activate.reset();
            void queryClient.invalidateQueries({ queryKey: flowKey(flow.flowId) });
            void queryClient.invalidateQueries({ queryKey: ['device-type-flow', flow.deviceTypeId] });
          }}
        />
      ) : null}
    </>
  );
}
