import { useState, type ReactNode } from 'react';
import { ApiError } from '../api/errors';

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** The envelope's message and its correlation id, copyable for a support request. */
export function ErrorBox({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const [copied, setCopied] = useState(false);
  const apiError = error instanceof ApiError ? error : null;
  const message = apiError?.message ?? (error instanceof Error ? error.message : String(error));
  return (
    <div className="error" role="alert">
      <p>{message}</p>
      {apiError?.correlationId ? (
        <p className="small">
          Correlation id <code>{apiError.correlationId}</code>{' '}
          <button
            type="button"
            className="link"
            onClick={() => void navigator.clipboard?.writeText(apiError.correlationId ?? '').then(() => setCopied(true), () => undefined)}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </p>
      ) : null}
      {onRetry ? (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** A query's three states around its content. */
export function QueryState<T>({
  query,
  what,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined; refetch: () => unknown };
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what} />;
  if (query.error) return <ErrorBox error={query.error} onRetry={() => void query.refetch()} />;
  return <>{children(query.data as T)}</>;
}

export function formatTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return `${date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })} ${date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}`;
}

/** "12 s ago", "3 min ago", … for times that matter relative to now. */
export function ago(value: string | null | undefined, now = Date.now()): string {
  if (!value) return 'never';
  const seconds = Math.max(0, Math.round((now - new Date(value).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button type="button" onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true), () => undefined)}>
      {copied ? 'Copied' : label}
    </button>
  );
}
