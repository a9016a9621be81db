/** A failed API call: the error envelope's message and correlation id, the status and any Retry-After. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly correlationId: string | null,
    readonly details: Record<string, unknown> = {},
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }

  /** The `reason` in details, when the envelope has one (e.g. `password_change_required`). */
  get reason(): string | null {
    const reason = this.details.reason;
    return typeof reason === 'string' ? reason : null;
  }
}

interface Envelope {
  error?: { code?: string; message?: string; correlationId?: string; details?: Record<string, unknown> };
}

export function apiErrorOf(response: Response, body: unknown): ApiError {
  const envelope = (body ?? {}) as Envelope;
  const retryAfter = Number(response.headers.get('Retry-After'));
  return new ApiError(
    response.status,
    envelope.error?.code ?? 'UNKNOWN',
    envelope.error?.message ?? `The service answered ${response.status} ${response.statusText}.`,
    envelope.error?.correlationId ?? response.headers.get('X-Correlation-Id'),
    envelope.error?.details ?? {},
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

/** A network failure or an unreadable answer, in the same shape as an envelope error. */
export function networkError(error: unknown): ApiError {
  return new ApiError(0, 'NETWORK', `The service could not be reached (${error instanceof Error ? error.message : String(error)}).`, null);
}
