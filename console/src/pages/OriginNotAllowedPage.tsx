import type { ApiError } from '../api/errors';

/**
 * The console is served from an origin the service does not allow for refresh: a sign-in would work but every
 * reload would lose it, so say what to set instead of offering one.
 */
export function OriginNotAllowedPage({ error }: { error: ApiError }) {
  return (
    <main className="center">
      <section className="card narrow" aria-labelledby="origin-title">
        <h1 id="origin-title">This address is not allowed to keep a session</h1>
        <p>
          The service refuses session renewals from <code>{window.location.origin}</code>, so a sign-in here would be lost on the next reload.
          Set <code>PUBLIC_URL={window.location.origin}</code> (or add it to <code>ALLOWED_ORIGINS</code>) where the service runs and restart it,
          or open the console at the address that is configured.
        </p>
        <p className="small">
          {error.message}
          {error.correlationId ? (
            <>
              {' '}
              (correlation id <code>{error.correlationId}</code>)
            </>
          ) : null}
        </p>
      </section>
    </main>
  );
}
