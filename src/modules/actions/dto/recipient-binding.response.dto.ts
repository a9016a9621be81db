import { ApiProperty } from '@nestjs/swagger';
import { PageResponse } from '../../../shared/pagination/page';
import { RECIPIENT_BINDING_STATUSES, RECIPIENT_TYPES, type RecipientBindingEntity, type RecipientBindingStatus, type RecipientType } from '../persistence/recipient-binding.entity';

/** A recipient binding as the API returns it. */
export class RecipientBindingResponse {
  @ApiProperty({ format: 'uuid' })
  recipientBindingId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid' })
  emailTemplateId!: string;

  @ApiProperty({ enum: RECIPIENT_TYPES })
  recipientType!: RecipientType;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Set for `user` bindings.' })
  userId!: string | null;

  @ApiProperty({ description: 'The address: the user’s current one for a `user` binding.' })
  email!: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null: any device type.' })
  deviceTypeId!: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null: any device.' })
  organizationUnitId!: string | null;

  @ApiProperty()
  includeDescendants!: boolean;

  @ApiProperty({ enum: RECIPIENT_BINDING_STATUSES, description: '`disabled`: listed, ignored at send.' })
  status!: RecipientBindingStatus;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  /** `userEmails`: the current addresses of the users bindings name. */
  static of(binding: RecipientBindingEntity, userEmails: ReadonlyMap<string, string>): RecipientBindingResponse {
    return {
      recipientBindingId: binding.recipientBindingId,
      tenantId: binding.tenantId,
      emailTemplateId: binding.emailTemplateId,
      recipientType: binding.recipientType,
      userId: binding.userId,
      email: binding.userId ? (userEmails.get(binding.userId) ?? '') : (binding.email ?? ''),
      deviceTypeId: binding.deviceTypeId,
      organizationUnitId: binding.organizationUnitId,
      includeDescendants: binding.includeDescendants,
      status: binding.status,
      createdAt: binding.createdAt.toISOString(),
      updatedAt: binding.updatedAt.toISOString(),
    };
  }
}

export class RecipientBindingPage extends PageResponse(RecipientBindingResponse) {}
