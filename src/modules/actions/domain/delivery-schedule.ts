/**
 * When a delivery is tried: at once, then 1 min, 5 min, 30 min and 2 h after the previous failed attempt. A
 * permanent refusal (SMTP 5xx) or the fifth failure ends it as a dead letter.
 */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000] as const;
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The wait before the next attempt after `failedAttempts` failures (1-based), or null when none is left. */
export function retryDelayAfter(failedAttempts: number): number | null {
  return failedAttempts >= 1 && failedAttempts <= RETRY_DELAYS_MS.length ? RETRY_DELAYS_MS[failedAttempts - 1]! : null;
}

/** An SMTP exchange that did not end with the message accepted. */
export class SmtpFailure extends Error {
  constructor(
    /** `smtp_<code>` for a server reply, else the connection error (`connection_refused`, `timeout`, ...). */
    readonly code: string,
    message: string,
    /** Temporary (4xx, connection trouble): worth retrying; a 5xx reply is permanent. */
    readonly transient: boolean,
    readonly smtpCode: number | null,
    readonly smtpReply: string | null,
  ) {
    super(message);
  }
}

interface NodemailerError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  ETIMEDOUT: 'timeout',
  ESOCKET: 'connection_error',
  ECONNECTION: 'connection_error',
  EDNS: 'dns_error',
  ENOTFOUND: 'dns_error',
  EAUTH: 'authentication_failed',
  ETLS: 'tls_error',
};

/** What a nodemailer error means for the delivery: a 5xx reply is permanent, everything else is retried. */
export function smtpFailureOf(error: unknown): SmtpFailure {
  const e = (error ?? {}) as NodemailerError;
  const reply = typeof e.response === 'string' ? e.response.slice(0, 1000) : null;
  if (typeof e.responseCode === 'number') {
    const permanent = e.responseCode >= 500 && e.responseCode < 600;
    return new SmtpFailure(`smtp_${e.responseCode}`, reply ?? `SMTP reply ${e.responseCode}`, !permanent, e.responseCode, reply);
  }
  const raw = (e.message ?? String(error)).slice(0, 500);
  const nested = /ECONNREFUSED|ETIMEDOUT|ECONNRESET|ENOTFOUND/.exec(raw)?.[0];
  const code = CONNECTION_CODES[nested ?? e.code ?? ''] ?? (e.code === 'EENVELOPE' ? 'envelope_rejected' : 'connection_error');
  return new SmtpFailure(code, raw, true, null, null);
}
