import type { TransactionScope } from '../events/unit-of-work';
import { ConflictError } from '../errors/domain-error';

/** One listed move of a state machine: `action` takes a row in `from` to `to`, audited as `<entity>.<event>`. */
export interface Move<S extends string, A extends string> {
  from: S;
  action: A;
  to: S;
  /** Past tense of the action for the audit event type, e.g. `disabled`, `reactivated`, `released`. */
  event: string;
}

/** What a status change needs from its handler: the row locked (and its If-Match checked), then the write. */
export interface TransitionSpec<S extends string, A extends string, R extends { status: S }> {
  action: A;
  /** Reads the row FOR UPDATE (404 when gone); checks If-Match when the resource has a lockVersion. */
  lock: () => Promise<R>;
  /** Writes the new status (and anything the move implies, e.g. closing an open period). */
  update: (row: R, move: Move<S, A>) => Promise<Record<string, unknown> | void>;
  entityId: string;
  tenantId: string | null;
  /** Extra audit metadata beside `status: { before, after }` (and whatever `update` returned). */
  metadata?: (row: R, move: Move<S, A>) => Record<string, unknown>;
}

/**
 * A resource's status machine as a moves table (from-state, action -> to-state). Any move not in the table is
 * 409 `invalid_state` with `currentStatus`, including the same status again: only listed moves change state.
 */
export class StatusTransitions<S extends string, A extends string> {
  private readonly label: string;

  constructor(
    /** The audit entityType, e.g. `device_type`. */
    readonly entityType: string,
    readonly moves: readonly Move<S, A>[],
  ) {
    this.label = entityType.replace(/_/g, ' ');
  }

  /** The listed move of `action` from `current`, else 409 `invalid_state` + `currentStatus`. */
  move(current: S, action: A): Move<S, A> {
    const move = this.moves.find((candidate) => candidate.from === current && candidate.action === action);
    if (move) return move;
    const sameTarget = this.moves.find((candidate) => candidate.action === action && candidate.to === current);
    const past = this.moves.find((candidate) => candidate.action === action)?.event ?? action;
    const message = sameTarget ? `The ${this.label} is already ${current}.` : `A ${current} ${this.label} cannot be ${past}.`;
    throw new ConflictError('invalid_state', message, { currentStatus: current });
  }

  /** Lock, compare against the moves table, update and audit `<entityType>.<event>`, all in `tx`. */
  async apply<R extends { status: S }>(tx: TransactionScope, spec: TransitionSpec<S, A, R>): Promise<{ row: R; move: Move<S, A> }> {
    const row = await spec.lock();
    const move = this.move(row.status, spec.action);
    const written = (await spec.update(row, move)) ?? {};
    await tx.audit({
      eventType: `${this.entityType}.${move.event}`,
      action: move.action,
      entityType: this.entityType,
      entityId: spec.entityId,
      tenantId: spec.tenantId,
      metadata: { status: { before: row.status, after: move.to }, ...spec.metadata?.(row, move), ...written },
    });
    return { row, move };
  }
}

/** `active` ⇄ `disabled` through `disable` / `reactivate`: tenants, units, memberships, device types. */
export type ActiveStatus = 'active' | 'disabled';
export type DisableAction = 'disable' | 'reactivate';
export const DISABLE_REACTIVATE: readonly Move<ActiveStatus, DisableAction>[] = [
  { from: 'active', action: 'disable', to: 'disabled', event: 'disabled' },
  { from: 'disabled', action: 'reactivate', to: 'active', event: 'reactivated' },
];

/** The action that asks for `status` in an `active` ⇄ `disabled` machine. */
export const disableActionFor = (status: ActiveStatus): DisableAction => (status === 'disabled' ? 'disable' : 'reactivate');
