import { SetMetadata } from '@nestjs/common';

/**
 * The documentation of a controller's operations, kept beside the controller and attached to it with @ApiDocs.
 * The document builder reads it from every registered controller, so a new controller needs no central edit.
 *
 * A description never states the access rule of a route with @RequirePermission or @PlatformAdminOnly: the builder
 * writes that paragraph from the route's metadata and puts it first.
 */
export interface OperationDocs {
  summary: string;
  description: string;
  /** The error examples of the route's declared error responses; a status left out gets its usual example. */
  errors?: DeclaredErrors;
}

export interface DeclaredErrors {
  /** 401: the message when it is not the expired access token. */
  401?: string;
  /** 403: the reason when it is not the one the route's access metadata implies. */
  403?: 'origin_not_allowed' | 'platform_admin_required';
  /** 404: the `resourceType` when it is not the one of the last path parameter. */
  404?: string;
  /** 409: the conflict reason (default `invalid_state`), with its own message and `currentStatus` where they differ. */
  409?: string | { reason: string; message?: string; currentStatus?: string };
  /** 422: the gate that failed (default `compile`). */
  422?: 'compile' | 'sandbox';
}

export interface ControllerDocs {
  /** Keyed by operationId. */
  operations: Record<string, OperationDocs>;
  /** Examples of request and response schemas, keyed by schema name. */
  schemas?: Record<string, unknown>;
  /** Examples of required parameters, keyed by parameter name. */
  parameters?: Record<string, unknown>;
}

export const API_DOCS = 'uplink:apiDocs';

/** Keeps each entry's literal types checked while letting the keys be the operationIds. */
export const defineDocs = <T extends Record<string, OperationDocs>>(operations: T): T => operations;

/** Attaches a controller's operation docs (and optionally schema and parameter examples) to it. */
export const ApiDocs = (operations: Record<string, OperationDocs>, extra: Omit<ControllerDocs, 'operations'> = {}): ClassDecorator =>
  SetMetadata(API_DOCS, { operations, ...extra } satisfies ControllerDocs);

/** Paragraphs of a description. */
export const lines = (...parts: string[]): string => parts.join('\n\n');

// Paragraphs many descriptions share.
export const EXISTENCE_404 =
  '**404** `RESOURCE_NOT_FOUND`: the target is missing, in another tenant, or outside the caller’s scope; all three get the same answer, never a 403.';
export const TENANT_404 = '**404** `RESOURCE_NOT_FOUND` (`tenant`): no such tenant, or none the caller holds an effective grant in.';
export const ASCENDING =
  '**Paging** (ascending family): ordered by (`createdAt`, id); `limit` 25, 50 or 100 (default 25); the page carries `items`, `nextCursor` (omitted on the last page) and the exact `totalCount` for the same filters. Pass `nextCursor` as `cursor` and repeat the same filters and `limit`, otherwise 400 `query.cursor` `cursor_mismatch`; an altered cursor is `cursor_invalid`.';
export const NEWEST_FIRST =
  '**Paging** (newest-first family): newest first by (`occurredAt`, id); `limit` 1..100 (default 25); `items` and `nextCursor` (omitted on the last page), no total. The first page fixes the upper time anchor `min(to, now)`; continuations repeat every filter and the `limit` (else 400 `cursor_mismatch`).';
export const TIME_WINDOW =
  '**Time window**: `from` and `to` (RFC 3339) are a pair, both or neither: one alone is 400 `required`, `from >= to` is `range`, a span over 31 days is `max_span`; neither means the last 24 hours. The window is half-open `[from, to)`.';
export const IF_MATCH =
  '**If-Match** is required: the resource’s current `ETag`, e.g. `"3"` or `W/"3"`. Missing or malformed: 400 `headers.if-match`; stale: 409 `lock_version_mismatch` with `currentLockVersion` (the value the `ETag` header shows now). Success increments `lockVersion` by 1 and returns the new `ETag`.';
export const PATCH_RULES =
  '**Partial update**: send at least one property (else 400 `body` `min_properties`); unknown or immutable properties are 400 `unknown_property`; `metadata` replaces the whole map (≤ 50 string values, keys 1..64, values ≤ 1024 characters).';
export const NAME_RULES = 'Names are 1..200 characters and not blank; descriptions ≤ 500 characters (default `""`).';
export const KEY_RULE = '`key` matches `^[a-z0-9][a-z0-9._-]{0,63}$` and is immutable.';

