import { ApiProperty } from '@nestjs/swagger';
import { PageResponse } from '../../../shared/pagination/page';
import { ENTITY_KEY_PATTERN } from '../../../shared/validation/fields';
import type { EmailTemplateView } from '../persistence/email-template.store';

/** An e-mail template as the API returns it. */
export class EmailTemplateResponse {
  @ApiProperty({ format: 'uuid' })
  emailTemplateId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ pattern: ENTITY_KEY_PATTERN.source, description: 'Unique in the tenant; immutable.' })
  key!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ maxLength: 500 })
  description!: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The version `email-action` nodes send; null until the first activation.' })
  activeVersionId!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Its `versionNumber`; null until the first activation.' })
  activeVersionNumber!: number | null;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Also the `ETag`; send it back in `If-Match` to change the template or activate a version.' })
  lockVersion!: number;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(view: EmailTemplateView): EmailTemplateResponse {
    return {
      emailTemplateId: view.emailTemplateId,
      tenantId: view.tenantId,
      key: view.key,
      name: view.name,
      description: view.description,
      activeVersionId: view.activeVersionId,
      activeVersionNumber: view.activeVersionNumber,
      lockVersion: view.lockVersion,
      createdAt: new Date(view.createdAt).toISOString(),
      updatedAt: new Date(view.updatedAt).toISOString(),
    };
  }
}

export class EmailTemplatePage extends PageResponse(EmailTemplateResponse) {}
