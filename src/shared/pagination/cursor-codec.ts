import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ValidationFailedError } from '../errors/domain-error';

/** A cursor is at most 512 characters. */
export const MAX_CURSOR_LENGTH = 512;
const CURSOR_PATH = 'query.cursor';
const MAC_BYTES = 32;
const BINDING_BYTES = 16;
const VERSION = 1;

/** A filter value as bound into a cursor; an omitted filter is bound as its default (usually null). */
export type FilterValue = string | number | boolean | null;

/** Everything a continuation must repeat exactly: who asks, where, with which filters and page size. */
export interface CursorBinding {
  /** The caller's userId. */
  actorId: string;
  /** Which list, including any path scope: `users`, `tenants/<tenantId>/memberships`. */
  scope: string;
  filters: Readonly<Record<string, FilterValue | undefined>>;
  limit: number;
}

/** Where the previous page ended: the sort key of its last row (e.g. created_at as text, then the id). */
export type CursorPosition = readonly (string | number)[];

interface CursorPayload {
  v: number;
  /** Keyed digest of the binding: the cursor stays short and opaque however long the filters are. */
  b: string;
  p: (string | number)[];
}

/**
 * Opaque, signed list cursors: base64url(HMAC-SHA256(CURSOR_SECRET, payload) || payload), the payload being JSON
 * of the binding digest and the position. Any change to a byte is `cursor_invalid`; a genuine cursor presented
 * with other filters, page size, scope or by another actor is `cursor_mismatch`.
 */
@Injectable()
export class CursorCodec {
  private readonly secret: string;

  constructor(config: AppConfig) {
    this.secret = config.cursorSecret;
  }

  encode(binding: CursorBinding, position: CursorPosition): string {
    const payload: CursorPayload = { v: VERSION, b: this.digest(binding), p: [...position] };
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    const cursor = Buffer.concat([this.mac(body), body]).toString('base64url');
    if (cursor.length > MAX_CURSOR_LENGTH) {
      throw new Error(`A cursor of ${cursor.length} characters exceeds ${MAX_CURSOR_LENGTH}: the position is too long`);
    }
    return cursor;
  }

  /** The position a cursor carries, once its signature and binding are checked. */
  decode(cursor: string, binding: CursorBinding): CursorPosition {
    const payload = this.verify(cursor);
    if (payload.b !== this.digest(binding)) {
      throw ValidationFailedError.single(
        CURSOR_PATH,
        'cursor_mismatch',
        'The cursor belongs to a different query: repeat the filters and limit of the first page.',
      );
    }
    return payload.p;
  }

  private verify(cursor: string): CursorPayload {
    if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw cursorInvalid();
    const raw = Buffer.from(cursor, 'base64url');
    // Re-encoding must give back the same text, so no two spellings of one cursor exist.
    if (raw.length <= MAC_BYTES || raw.toString('base64url') !== cursor) throw cursorInvalid();
    const mac = raw.subarray(0, MAC_BYTES);
    const body = raw.subarray(MAC_BYTES);
    if (!timingSafeEqual(mac, this.mac(body))) throw cursorInvalid();
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      throw cursorInvalid();
    }
    if (!isPayload(payload)) throw cursorInvalid();
    return payload;
  }

  private mac(body: Buffer): Buffer {
    return createHmac('sha256', this.secret).update('cursor\0').update(body).digest();
  }

  private digest(binding: CursorBinding): string {
    const filters = Object.keys(binding.filters)
      .sort()
      .map((name) => [name, binding.filters[name] ?? null]);
    const canonical = JSON.stringify([binding.actorId, binding.scope, filters, binding.limit]);
    return createHmac('sha256', this.secret).update('binding\0').update(canonical).digest().subarray(0, BINDING_BYTES).toString('base64url');
  }
}

export function cursorInvalid(): ValidationFailedError {
  return ValidationFailedError.single(CURSOR_PATH, 'cursor_invalid', 'The cursor is invalid or was altered.');
}

function isPayload(value: unknown): value is CursorPayload {
  const candidate = value as Partial<CursorPayload> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    candidate.v === VERSION &&
    typeof candidate.b === 'string' &&
    Array.isArray(candidate.p) &&
    candidate.p.every((part) => typeof part === 'string' || typeof part === 'number')
  );
}
