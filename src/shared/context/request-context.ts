import { Injectable } from '@nestjs/common';
import { CLS_REQ, ClsService } from 'nestjs-cls';
import type { Request } from 'express';
import { routeTemplateOf } from '../http/route-template';

export interface Actor {
  actorType: 'user' | 'system' | 'import' | 'anonymous';
  actorId: string;
}

export const SYSTEM_ACTOR: Actor = { actorType: 'system', actorId: 'system' };
const ANONYMOUS_ACTOR: Actor = { actorType: 'anonymous', actorId: 'anonymous' };
const ACTOR_KEY = 'actor';
const SUCCESS_STATUS_KEY = 'successStatus';

/** Typed access to the per-request store (nestjs-cls); outside a request it answers as the system. */
@Injectable()
export class RequestContext {
  constructor(private readonly cls: ClsService) {}

  get correlationId(): string | null {
    return this.cls.isActive() ? (this.cls.getId() ?? null) : null;
  }

  get actor(): Actor {
    if (!this.cls.isActive()) return SYSTEM_ACTOR;
    return this.cls.get<Actor | undefined>(ACTOR_KEY) ?? (this.request ? ANONYMOUS_ACTOR : SYSTEM_ACTOR);
  }

  setActor(actor: Actor): void {
    this.cls.set(ACTOR_KEY, actor);
  }

  /** The HTTP status the current route answers on success (its `@HttpCode`, else 201 for POST, 200 otherwise). */
  get successStatus(): number | null {
    if (!this.request) return null;
    return this.cls.get<number | undefined>(SUCCESS_STATUS_KEY) ?? null;
  }

  setSuccessStatus(status: number): void {
    this.cls.set(SUCCESS_STATUS_KEY, status);
  }

  /** Method and route template of the current HTTP request, or nulls for non-HTTP work. */
  get http(): { method: string | null; route: string | null } {
    const req = this.request;
    return { method: req?.method ?? null, route: req ? routeTemplateOf(req) : null };
  }

  private get request(): Request | undefined {
    return this.cls.isActive() ? this.cls.get<Request | undefined>(CLS_REQ) : undefined;
  }
}
