import { ApiError } from '../api/errors';
import { ErrorBox } from './status';

/** A write's failure; a lock mismatch (If-Match) is explained as a concurrent change, with a reload. */
export function WriteError({ error, what, onReload }: { error: unknown; what: string; onReload: () => void }) {
  if (error instanceof ApiError && error.status === 409 && error.reason === 'lock_version_mismatch') {
    return (
      <div className="error" role="alert">
        <p>
          This {what} was changed by someone else since you opened it. Reload to see the current version, then make your change again.
        </p>
        <button type="button" onClick={onReload}>
          Reload
        </button>
      </div>
    );
  }
  return <ErrorBox error={error} />;
}

/** The If-Match value of a resource read earlier (its lockVersion is its ETag). */
export const ifMatch = (lockVersion: number) => `"${lockVersion}"`;
