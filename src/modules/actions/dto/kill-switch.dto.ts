import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MaxLength } from '../../../shared/validation/text-length';

export const KILL_SWITCH_STATES = ['running', 'paused'] as const;
export type KillSwitchState = (typeof KILL_SWITCH_STATES)[number];

export class PauseActionsRequest {
  @ApiPropertyOptional({ maxLength: 500, description: 'Why e-mail is paused; shown on the switch and in the audit log.' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

/** The tenant's e-mail kill-switch. */
export class KillSwitchResponse {
  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ enum: KILL_SWITCH_STATES, description: '`paused`: new deliveries are suppressed (`actions_paused`), queued ones `held` until resume.' })
  state!: KillSwitchState;

  @ApiProperty({ nullable: true, type: String })
  reason!: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  changedAt!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  changedByUserId!: string | null;

  static of(row: { tenant_id: string; state: KillSwitchState; reason: string | null; changed_at: Date | null; changed_by_user_id: string | null }): KillSwitchResponse {
    return {
      tenantId: row.tenant_id,
      state: row.state,
      reason: row.reason,
      changedAt: row.changed_at?.toISOString() ?? null,
      changedByUserId: row.changed_by_user_id,
    };
  }
}
