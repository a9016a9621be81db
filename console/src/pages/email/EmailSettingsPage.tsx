import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { canTenantWide, useMe } from '../../auth/me';
import { RecipientBindings } from '../../components/email/RecipientBindings';
import { ErrorBox, QueryState, formatTime } from '../../components/status';
import { useTenantNumber } from '../../tenant';

/** The tenant's e-mail kill-switch (pause with a reason, resume) and every recipient binding of its templates. */
export function EmailSettingsPage() {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  return (
    <section aria-labelledby="email-settings-title">
      <h1 id="email-settings-title">E-mail settings</h1>
      <KillSwitch tenantNumber={tenantNumber} canControl={canTenantWide(me.data, tenantNumber, 'actions:control')} />
      <RecipientBindings tenantNumber={tenantNumber} canWrite={canTenantWide(me.data, tenantNumber, 'actions:write')} />
    </section>
  );
}

function KillSwitch({ tenantNumber, canControl }: { tenantNumber: number; canControl: boolean }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const killSwitch = useQuery({
    queryKey: ['action-kill-switch', tenantNumber],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/action-kill-switch', { params: { path: { tenantNumber } } })),
  });
  const done = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['action-kill-switch', tenantNumber] }),
      queryClient.invalidateQueries({ queryKey: ['email-deliveries', tenantNumber] }),
    ]);
  const pause = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/v1/tenants/{tenantNumber}/action-kill-switch/pause', { params: { path: { tenantNumber } }, body: reason.trim() ? { reason: reason.trim() } : {} })),
    onSuccess: async () => {
      setReason('');
      await done();
    },
  });
  const resume = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/tenants/{tenantNumber}/action-kill-switch/resume', { params: { path: { tenantNumber } } })),
    onSuccess: done,
  });
  return (
    <section className="card email-card" aria-labelledby="kill-switch-title">
      <h2 id="kill-switch-title">Kill-switch</h2>
      <QueryState query={killSwitch} what="the kill-switch">
        {(state) => (
          <>
            <p role="status" data-testid="kill-switch-state" className={state.state === 'paused' ? 'email-paused' : 'email-running'}>
              {state.state === 'paused' ? 'E-mail is paused for this tenant' : 'E-mail is running'}
              {state.changedAt ? <span className="small"> since {formatTime(state.changedAt)}</span> : null}
            </p>
            {state.state === 'paused' ? (
              <p>
                Reason: <span data-testid="kill-switch-reason">{state.reason || '—'}</span>
              </p>
            ) : null}
            <p className="small">
              While paused, waiting e-mails are held (sent after resume), new requests are logged as suppressed and dead letters cannot be redriven. See the{' '}
              <Link to={`/t/${tenantNumber}/email-deliveries?status=held`}>held deliveries</Link>.
            </p>
            {canControl && state.state === 'running' ? (
              <form
                aria-label="Pause e-mail"
                onSubmit={(event: FormEvent) => {
                  event.preventDefault();
                  if (window.confirm('Pause every e-mail of this tenant now?')) pause.mutate();
                }}
              >
                <label>
                  Reason for pausing
                  <input maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} placeholder="e.g. SMTP provider incident" />
                </label>
                <button type="submit" className="danger" disabled={pause.isPending}>
                  Pause all e-mail
                </button>
              </form>
            ) : null}
            {canControl && state.state === 'paused' ? (
              <button type="button" className="primary" onClick={() => resume.mutate()} disabled={resume.isPending}>
                Resume e-mail
              </button>
            ) : null}
            {pause.error ? <ErrorBox error={pause.error} /> : null}
            {resume.error ? <ErrorBox error={resume.error} /> : null}
          </>
        )}
      </QueryState>
    </section>
  );
}
