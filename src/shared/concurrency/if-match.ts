import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ConflictError, ValidationFailedError } from '../errors/domain-error';
import { parseUuidParam } from '../validation/uuid-param';

/** An optionally weak, double-quoted positive integer. */
const IF_MATCH = /^(W\/)?"([1-9][0-9]*)"$/;
const PATH = 'headers.if-match';

/** The lockVersion an `If-Match` header names; missing or malformed is a 400 naming `headers.if-match`. */
export function parseIfMatch(value: unknown): number {
  if (value === undefined || value === '') {
    throw ValidationFailedError.single(PATH, 'required', 'This change needs an If-Match header: send back the ETag of your last read of this resource (GET it for the current one).');
  }
  const match = typeof value === 'string' ? IF_MATCH.exec(value.trim()) : null;
  const lockVersion = match ? Number(match[2]) : NaN;
  if (!Number.isSafeInteger(lockVersion)) {
    throw ValidationFailedError.single(PATH, 'pattern', 'If-Match must be the resource\'s ETag as sent: a quoted positive integer (optionally W/ before it).');
  }
  return lockVersion;
}

/** A check of a path parameter that must fail before `If-Match` does (it throws the parameter's 400). */
export type PathCheck = (req: Request) => unknown;

/**
 * `@IfMatch(...pathChecks)`: the expected lockVersion of a versioned resource, compared with `assertLockVersion` once
 * the target is found and allowed. Nest resolves a route's parameters concurrently, and this decorator runs
 * synchronously, before any pipe: so it checks the path first (every `…Id` parameter is a UUID, then
 * `pathChecks`), and a request with a bad path and no If-Match gets the path's 400 (path, then headers, then body).
 */
export const IfMatch = (...pathChecks: PathCheck[]): ParameterDecorator =>
  createParamDecorator((_data: unknown, context: ExecutionContext): number => {
    const req = context.switchToHttp().getRequest<Request>();
    for (const [name, value] of Object.entries(req.params ?? {})) if (name.endsWith('Id')) parseUuidParam(value, name);
    for (const check of pathChecks) check(req);
    return parseIfMatch(req.headers['if-match']);
  }, [documentIfMatch])();

/** The OpenAPI description of the `If-Match` header, for a parameter decorator's enhancer. */
export const documentIfMatch: ParameterDecorator = (target, propertyKey) => {
  const descriptor = Object.getOwnPropertyDescriptor(target, propertyKey!);
  if (descriptor) {
    ApiHeader({
      name: 'If-Match',
      required: true,
      schema: { type: 'string', pattern: IF_MATCH.source },
      description: 'The ETag of the version being changed; stale: 409 `lock_version_mismatch` with `currentLockVersion`.',
    })(target, propertyKey!, descriptor);
  }
};

/** 409 `lock_version_mismatch` + `currentLockVersion` unless the row (read under lock) is at the expected version. */
export function assertLockVersion(current: number, expected: number): void {
  if (current !== expected) {
    throw new ConflictError('lock_version_mismatch', `The resource changed since you read it: its ETag is now "${current}" (lockVersion ${current}).`, {
      currentLockVersion: current,
    });
  }
}

/** `ETag: "<lockVersion>"` on a lock-versioned resource's response. */
export function setEtag(res: Response, record: { lockVersion: number }): void {
  res.setHeader('ETag', `"${record.lockVersion}"`);
}
