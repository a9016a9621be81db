import { ApiProperty } from '@nestjs/swagger';
import { PageResponse } from '../../../shared/pagination/page';
import { MembershipResponse } from '../../memberships';
import type { MembershipRecord } from '../../memberships';

/** A membership grant with the tenant's public number. */
export class UserMembershipResponse extends MembershipResponse {
  @ApiProperty({ minimum: 1, maximum: 2147483647 })
  tenantNumber!: number;

  static override of(record: MembershipRecord): UserMembershipResponse {
    return { ...MembershipResponse.of(record), tenantNumber: record.tenantNumber };
  }
}

export class UserMembershipPage extends PageResponse(UserMembershipResponse) {}
